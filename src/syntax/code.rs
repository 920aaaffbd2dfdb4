//! The SILP code frontend: `if !rain(t+1): start(hike) else: start(cards@indoor)`.

use crate::source::Span;
use crate::syntax::SyntaxError;

/// A word as written (a name, value, time, ...), with its span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Word<'s> {
    pub text: &'s str,
    pub span: (usize, usize),
}

impl Word<'_> {
    pub fn span(&self) -> Span {
        self.span.0..self.span.1
    }
}

/// One code-frontend payload.
#[derive(Clone, Debug, PartialEq)]
pub struct Payload<'s> {
    pub condition: Option<Condition<'s>>,
    /// The calls; the first is the primary action.
    pub actions: Vec<Call<'s>>,
    /// The separator before each action after the first (`;` or `->`).
    pub separators: Vec<Separator>,
    pub else_branch: Option<ElseBranch<'s>>,
    /// A trailing `with NAME` (Appendix A.5; nonstandard).
    pub with: Option<(Span, Word<'s>)>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Separator {
    Semicolon(Span),
    Arrow(Span),
}

/// `if c1 and c2:` (or `then` in place of `:`).
#[derive(Clone, Debug, PartialEq)]
pub struct Condition<'s> {
    pub if_keyword: Span,
    pub constraints: Vec<Constraint<'s>>,
    /// `:` or `then`; `None` when missing (a syntax error).
    pub end: Option<ConditionEnd>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConditionEnd {
    Colon(Span),
    Then(Span),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Constraint<'s> {
    /// `!rain` or `!rain(t+1)`.
    Negation {
        bang: Span,
        name: Word<'s>,
        time: Option<Word<'s>>,
        span: Span,
    },
    /// `budget<=500` or `budget<=500, t+1`; `op` may be invalid (`=>`, `<>`, `=`).
    Comparison {
        name: Word<'s>,
        op: Word<'s>,
        value: Word<'s>,
        time: Option<Word<'s>>,
        span: Span,
    },
    /// `loc(me,Beijing,t+1am)`: one to three arguments.
    Predicate {
        name: Word<'s>,
        args: Vec<Word<'s>>,
        span: Span,
    },
}

impl Constraint<'_> {
    pub fn span(&self) -> Span {
        match self {
            Constraint::Negation { span, .. }
            | Constraint::Comparison { span, .. }
            | Constraint::Predicate { span, .. } => span.clone(),
        }
    }
}

/// `name(args)`; `args` is `None` for a bare name in a `->` chain.
#[derive(Clone, Debug, PartialEq)]
pub struct Call<'s> {
    pub name: Word<'s>,
    pub args: Option<Vec<Arg<'s>>>,
    /// The comma spans between arguments, for spacing checks.
    pub commas: Vec<Span>,
    pub span: Span,
}

/// `value`, `id=value` or `target@location`.
#[derive(Clone, Debug, PartialEq)]
pub struct Arg<'s> {
    pub key: Option<Word<'s>>,
    pub value: Word<'s>,
    pub location: Option<Word<'s>>,
    pub span: Span,
}

/// `else: alt; alt` (or `else alt`, without the colon).
#[derive(Clone, Debug, PartialEq)]
pub struct ElseBranch<'s> {
    pub else_keyword: Span,
    pub colon: Option<Span>,
    pub alternatives: Vec<Call<'s>>,
    pub span: Span,
}

/// The result of parsing one payload: the tree (possibly partial) and the errors.
#[derive(Clone, Debug, Default)]
pub struct CodeParse<'s> {
    pub payload: Option<Payload<'s>>,
    pub errors: Vec<SyntaxError>,
}

/// Parses one payload; `text` starts at byte `base` of its file.
pub fn parse_payload(text: &str, base: usize) -> CodeParse<'_> {
    CodeParse {
        payload: None,
        errors: vec![SyntaxError::new(
            base..base + text.len(),
            "code parsing is not implemented yet",
        )],
    }
}
