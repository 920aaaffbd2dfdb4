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
    /// Boxed, as the else branch is: most payloads have neither, and a document
    /// held whole (by `--fix`, by the server) keeps one payload per line.
    pub condition: Option<Box<Condition<'s>>>,
    /// The calls; the first is the primary action.
    pub actions: Vec<Call<'s>>,
    /// The separator before each action after the first (`;` or `->`).
    pub separators: Vec<Separator>,
    pub else_branch: Option<Box<ElseBranch<'s>>>,
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

/// A call's arguments, collected without the spare room a `Vec` starts with: room
/// for one, then doubling. A `Vec` collected from the parser starts with room for
/// four arguments (448 bytes), which was 45% of what one line of 100,000 one-argument
/// calls held at its peak.
///
/// Past [`ARGS_PER_CHUNK`] arguments, they are collected in chunks of that many and
/// moved into one vector of their number at the end, the freed chunks' pages given
/// back as they go. Doubled, one call of 2.5 million arguments copied 235 MB into a
/// new block while mimalloc kept each smaller block it left resident: 840 MiB at the
/// parse's peak, for 280 MB of arguments.
struct TightArgs<'s>(Vec<Arg<'s>>);

/// The arguments of a chunk of [`TightArgs`]: 7 MiB.
const ARGS_PER_CHUNK: usize = 1 << 16;

impl<'s> FromIterator<Arg<'s>> for TightArgs<'s> {
    fn from_iter<I: IntoIterator<Item = Arg<'s>>>(args: I) -> Self {
        let mut full_chunks = Vec::new();
        let mut tight = Vec::new();
        for arg in args {
            if tight.len() == tight.capacity() {
                if tight.len() == ARGS_PER_CHUNK {
                    full_chunks.push(std::mem::replace(
                        &mut tight,
                        Vec::with_capacity(ARGS_PER_CHUNK),
                    ));
                } else {
                    tight.reserve_exact(tight.len().max(1));
                }
            }
            tight.push(arg);
        }
        if full_chunks.is_empty() {
            return TightArgs(tight);
        }
        let mut all = Vec::with_capacity(full_chunks.len() * ARGS_PER_CHUNK + tight.len());
        for (index, chunk) in full_chunks.into_iter().enumerate() {
            all.extend(chunk);
            if index % CHUNKS_BETWEEN_RETURNS == CHUNKS_BETWEEN_RETURNS - 1 {
                crate::memory::return_freed_pages();
            }
        }
        all.extend(tight);
        TightArgs(all)
    }
}

/// How many chunks [`TightArgs`] moves between giving freed pages back: 29 MiB.
const CHUNKS_BETWEEN_RETURNS: usize = 4;

/// A payload's calls, and the separator before each after the first, collected
/// straight into their own vectors: collected as one vector of optional pairs
/// first, one line of 150,000 calls held every call twice at its peak. Both start
/// with room for as many actions as the payload's tokens allow ([`ValidTokens::
/// room_for_actions`]), so neither grows by doubling: grown, one line of a million
/// calls touched 100 MB of buffers it then let go, besides the 100 MB it kept.
struct Actions<'s> {
    separators: Vec<Separator>,
    calls: Vec<Call<'s>>,
}

impl<'s> Actions<'s> {
    /// Room that cannot be had (a hostile payload's count of separators and words
    /// can ask for more than the address space) is left out: the vectors grow.
    fn starting_with(first: Call<'s>, room: usize) -> Self {
        let (mut calls, mut separators) = (Vec::new(), Vec::new());
        if calls.try_reserve_exact(room.saturating_add(1)).is_ok() {
            let _ = separators.try_reserve_exact(room);
        }
        calls.push(first);
        Actions { separators, calls }
    }

    /// Adds the next action; a stray run of tokens (`None`) is reported by the
    /// parser and left out.
    fn push(mut self, action: Option<(Separator, Call<'s>)>) -> Self {
        if let Some((separator, call)) = action {
            self.separators.push(separator);
            self.calls.push(call);
        }
        self
    }
}

/// The result of parsing one payload: the tree (possibly partial) and the errors.
#[derive(Clone, Debug, Default)]
pub struct CodeParse<'s> {
    /// Boxed: a document's items are as large as their largest kind, and every
    /// blank, comment and JSON line would otherwise carry a payload's room.
    pub payload: Option<Box<Payload<'s>>>,
    pub errors: Vec<SyntaxError>,
}

/// Words with a grammatical role; they are never call names.
pub const KEYWORDS: [&str; 5] = ["if", "and", "else", "then", "with"];

/// Code-frontend tokens. White space between tokens is skipped (spans keep the
/// spacing); anything the grammar has no token for becomes [`Token::Error`].
#[derive(logos::Logos, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[logos(skip r"\s+")]
pub enum Token<'s> {
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token(",")]
    Comma,
    #[token(";")]
    Semicolon,
    #[token(":")]
    Colon,
    #[token("@")]
    At,
    #[token("=")]
    Equals,
    #[token("!")]
    Bang,
    #[token("->")]
    Arrow,
    /// A comparison operator, valid or not: `<`, `>`, or any run of two or more of
    /// `< > = !` (`=>`, `=<`, `<>`, `===` are SL406's to report).
    #[regex(r"[<>=!][<>=!]+|<|>")]
    Operator(&'s str),
    /// A name or value: a run of anything but white space and delimiters.
    #[regex(r"[^\s(),;:@=<>!]+")]
    Word(&'s str),
    Error,
}

impl std::fmt::Display for Token<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let text = match self {
            Token::LParen => "(",
            Token::RParen => ")",
            Token::Comma => ",",
            Token::Semicolon => ";",
            Token::Colon => ":",
            Token::At => "@",
            Token::Equals => "=",
            Token::Bang => "!",
            Token::Arrow => "->",
            Token::Operator(op) => op,
            Token::Word(word) => word,
            Token::Error => return f.write_str("an unexpected character"),
        };
        write!(f, "`{text}`")
    }
}

/// A token's kind: a [`Token`] without its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    LParen,
    RParen,
    Comma,
    Semicolon,
    Colon,
    At,
    Equals,
    Bang,
    Arrow,
    Operator,
    Word,
    Error,
}

/// A token as a payload's parse holds it, in 12 bytes: its kind and its byte range
/// in the payload, the text read back from the payload as the parser asks. As a
/// `(Token, Span)` a token takes 40 bytes, and the tokens of a line of a million
/// calls (5 million) outweighed its tree: 200 MB against 60 MB packed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PackedToken {
    kind: Kind,
    start: u32,
    end: u32,
}

impl PackedToken {
    /// Packs `token` found at `span` of a payload of at most [`MAX_PAYLOAD_BYTES`].
    fn new(token: Token, span: Span) -> PackedToken {
        let kind = match token {
            Token::LParen => Kind::LParen,
            Token::RParen => Kind::RParen,
            Token::Comma => Kind::Comma,
            Token::Semicolon => Kind::Semicolon,
            Token::Colon => Kind::Colon,
            Token::At => Kind::At,
            Token::Equals => Kind::Equals,
            Token::Bang => Kind::Bang,
            Token::Arrow => Kind::Arrow,
            Token::Operator(_) => Kind::Operator,
            Token::Word(_) => Kind::Word,
            Token::Error => Kind::Error,
        };
        // Lossless: `parse_payload` takes no payload longer than u32 counts.
        PackedToken {
            kind,
            start: span.start as u32,
            end: span.end as u32,
        }
    }

    /// The token's byte range in its payload.
    pub fn span(&self) -> Span {
        self.start as usize..self.end as usize
    }

    /// The token, its text read from `payload`, the text it was lexed from.
    #[inline(always)]
    pub fn token<'s>(&self, payload: &'s str) -> Token<'s> {
        match self.kind {
            Kind::LParen => Token::LParen,
            Kind::RParen => Token::RParen,
            Kind::Comma => Token::Comma,
            Kind::Semicolon => Token::Semicolon,
            Kind::Colon => Token::Colon,
            Kind::At => Token::At,
            Kind::Equals => Token::Equals,
            Kind::Bang => Token::Bang,
            Kind::Arrow => Token::Arrow,
            Kind::Operator => Token::Operator(&payload[self.span()]),
            Kind::Word => Token::Word(&payload[self.span()]),
            Kind::Error => Token::Error,
        }
    }
}

/// The longest payload [`parse_payload`] parses: token offsets are held in 32 bits.
const MAX_PAYLOAD_BYTES: usize = u32::MAX as usize;

/// The tokens of a payload of at most [`MAX_PAYLOAD_BYTES`], packed; unknown
/// characters become [`Token::Error`], so lexing never aborts.
pub fn lex(text: &str) -> Vec<PackedToken> {
    use logos::Logos;
    let tokens = Token::lexer(text)
        .spanned()
        .map(|(token, span)| PackedToken::new(token.unwrap_or(Token::Error), span));
    if text.len() < COUNTED_LEX_BYTES {
        return tokens.collect();
    }
    let mut exact = Vec::with_capacity(Token::lexer(text).count());
    exact.extend(tokens);
    exact
}

/// The tokens of `text` one at a time, without their spans: what comparing two
/// texts token by token needs, with no vector of either.
pub fn token_stream(text: &str) -> impl Iterator<Item = Token<'_>> {
    use logos::Logos;
    Token::lexer(text).map(|token| token.unwrap_or(Token::Error))
}

/// The payload size from which [`lex`] counts its tokens before collecting them.
/// A vector grown by doubling holds up to twice its tokens, and the old and new
/// buffers at once as it grows: a line of a million calls (5 million tokens, of
/// 40 bytes each before they were packed) reached 335 MiB of tokens, and 500 MiB
/// while growing. Counting first lexes twice, which costs more than the doubling
/// on small payloads.
const COUNTED_LEX_BYTES: usize = 1 << 16;

/// Parses one payload; `text` starts at byte `base` of its file.
pub fn parse_payload(text: &str, base: usize) -> CodeParse<'_> {
    if text.len() > MAX_PAYLOAD_BYTES {
        return CodeParse {
            payload: None,
            errors: vec![SyntaxError::new(
                base..base + text.len(),
                "a code-frontend payload of more than 4 GiB is not parsed".to_string(),
            )],
        };
    }
    let mut tokens = lex(text);
    let mut errors = Vec::new();
    for token in &tokens {
        if token.kind == Kind::Error {
            let found = super::describe_found(&text[token.span()]);
            errors.push(SyntaxError::new(
                shift(token.span(), base),
                format!("unexpected {found}: not part of the code-frontend syntax"),
            ));
        }
    }
    // The grammar nests no parentheses, but chumsky's recovery inside them recurses
    // once per level (on stack segments it grows on the heap): a payload of a
    // million `(` would take gigabytes. Past a small depth, that is the one error.
    if let Some(span) = too_deep(&tokens) {
        errors.push(SyntaxError::new(
            shift(span, base),
            format!("parentheses nested more than {MAX_NESTING} deep: a code-frontend payload nests none"),
        ));
        return CodeParse {
            payload: None,
            errors,
        };
    }
    // The parser sees the valid tokens; lexing errors are already reported.
    tokens.retain(|token| token.kind != Kind::Error);
    let valid = ValidTokens {
        payload: text,
        base,
        tokens: &tokens,
    };
    // Most payloads parse: learn that cheaply, and describe errors only when there are.
    let payload = match parses_cleanly(valid) {
        Some(payload) => Some(payload),
        None => parse_described(valid, &mut errors),
    };
    if let Some(payload) = &payload {
        validate(payload, &mut errors);
    }
    if text.len() >= crate::memory::LARGE_BUFFER_BYTES {
        // The tokens take about a third of the tree's room: their pages go back
        // before the tree is decoded and linted.
        drop(tokens);
        crate::memory::return_freed_pages();
    }
    errors.sort_by_key(|e| (e.span.start, e.span.end));
    errors.dedup();
    CodeParse {
        payload: payload.map(Box::new),
        errors,
    }
}

/// A span of a payload that starts at byte `base` of its file, as a span of the file.
fn shift(span: Span, base: usize) -> Span {
    base + span.start..base + span.end
}

/// A payload's valid tokens, as the grammar reads them: each unpacked to a
/// [`Token`] as the parser reaches it, with its span in the file.
#[derive(Clone, Copy)]
struct ValidTokens<'t, 's> {
    /// The payload, which starts at byte `base` of its file.
    payload: &'s str,
    base: usize,
    tokens: &'t [PackedToken],
}

impl<'s> ValidTokens<'_, 's> {
    /// The file offset where the payload ends: where a span at its end lies.
    fn end(&self) -> usize {
        self.base + self.payload.len()
    }

    /// How many actions can follow the first: each takes a `;` or `->` and a name,
    /// so no more than the payload holds of either.
    fn room_for_actions(&self) -> usize {
        let (mut separators, mut words) = (0, 0);
        for token in self.tokens {
            match token.kind {
                Kind::Semicolon | Kind::Arrow => separators += 1,
                Kind::Word => words += 1,
                _ => {}
            }
        }
        separators.min(words)
    }

    /// The token at `cursor`, moving it on; `None` past the last.
    #[inline(always)]
    fn read(&self, cursor: &mut usize) -> Option<Token<'s>> {
        let token = self.tokens.get(*cursor)?;
        *cursor += 1;
        Some(token.token(self.payload))
    }
}

// Reads as chumsky's own `&[(Token, SimpleSpan)]` input mapped to tokens and spans
// (`Input::map`) did: a span runs from the start of the token at its first cursor
// to the end of the last token read before its second (the payload's end when none
// was), and a span at the end of the tokens is empty, at the payload's end.
impl<'t, 's: 't> chumsky::input::Input<'t> for ValidTokens<'t, 's> {
    type Span = chumsky::span::SimpleSpan;
    type Token = Token<'s>;
    type MaybeToken = Token<'s>;
    /// The index of the next token.
    type Cursor = usize;
    type Cache = Self;

    fn begin(self) -> (usize, Self) {
        (0, self)
    }

    fn cursor_location(cursor: &usize) -> usize {
        *cursor
    }

    #[inline(always)]
    unsafe fn next_maybe(this: &mut Self, cursor: &mut usize) -> Option<Token<'s>> {
        this.read(cursor)
    }

    #[inline]
    unsafe fn span(this: &mut Self, range: std::ops::Range<&usize>) -> Self::Span {
        let end = this.end();
        let Some(first) = this.tokens.get(*range.start) else {
            return (end..end).into();
        };
        let last_read_end = range
            .end
            .checked_sub(1)
            .and_then(|last| this.tokens.get(last))
            .map_or(end, |last| this.base + last.end as usize);
        (this.base + first.start as usize..last_read_end).into()
    }
}

impl<'t, 's: 't> chumsky::input::ValueInput<'t> for ValidTokens<'t, 's> {
    #[inline(always)]
    unsafe fn next(this: &mut Self, cursor: &mut usize) -> Option<Token<'s>> {
        this.read(cursor)
    }
}

/// Parses `valid`, adding its syntax errors, each saying what was expected, to
/// `errors`.
fn parse_described<'s>(
    valid: ValidTokens<'_, 's>,
    errors: &mut Vec<SyntaxError>,
) -> Option<Payload<'s>> {
    use chumsky::Parser as _;
    let (mut payload, parse_errors) =
        grammar::payload::<_, grammar::Described>(valid.room_for_actions())
            .parse(valid)
            .into_output_errors();
    if parse_errors.iter().any(|error| error.found().is_none()) {
        // The payload stops early: if closing its open parentheses is all it lacks,
        // the rules still read it (`book(a,b); begin(x` still has SL405 and SL101).
        if let Some(closed) = closed_at_end(valid) {
            payload = Some(closed);
        }
    }
    for error in parse_errors {
        errors.push(SyntaxError::new(
            error.span().into_range(),
            describe_rich(&error),
        ));
    }
    payload
}

/// How deep parentheses may nest before the payload is not parsed at all.
const MAX_NESTING: usize = 32;

/// The `(` that opens parentheses nested past [`MAX_NESTING`], if any, in the
/// payload.
fn too_deep(tokens: &[PackedToken]) -> Option<Span> {
    let mut depth = 0usize;
    for token in tokens {
        match token.kind {
            Kind::LParen => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Some(token.span());
                }
            }
            Kind::RParen => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// The payload parsed with the `)`s it lacks inserted at its end, when that makes it
/// parse without errors. The inserted tokens are empty spans at the end, so every
/// span still lies in the text.
fn closed_at_end<'s>(valid: ValidTokens<'_, 's>) -> Option<Payload<'s>> {
    let count = |kind| valid.tokens.iter().filter(|t| t.kind == kind).count();
    let (open, close) = (count(Kind::LParen), count(Kind::RParen));
    if open <= close {
        return None;
    }
    let at_end = valid.payload.len() as u32;
    let closing = PackedToken {
        kind: Kind::RParen,
        start: at_end,
        end: at_end,
    };
    let mut closed = valid.tokens.to_vec();
    closed.extend(std::iter::repeat_n(closing, open - close));
    parses_cleanly(ValidTokens {
        tokens: &closed,
        ..valid
    })
}

/// The payload of `valid` when it parses without any error.
fn parses_cleanly<'s>(valid: ValidTokens<'_, 's>) -> Option<Payload<'s>> {
    use chumsky::Parser as _;
    let (payload, errors) = grammar::payload::<_, grammar::Checked>(valid.room_for_actions())
        .parse(valid)
        .into_output_errors();
    errors.is_empty().then_some(payload).flatten()
}

fn describe_rich(error: &chumsky::error::Rich<'_, Token<'_>>) -> String {
    use chumsky::error::{RichPattern, RichReason};
    let found = match error.found() {
        Some(token) => token.to_string(),
        None => "end of payload".to_string(),
    };
    match error.reason() {
        RichReason::ExpectedFound { expected, .. } => {
            let mut names: Vec<String> = expected
                .iter()
                .map(|pattern| match pattern {
                    RichPattern::Token(token) => token.to_string(),
                    RichPattern::Label(label) => label.to_string(),
                    RichPattern::EndOfInput => "end of payload".to_string(),
                    other => other.to_string(),
                })
                .collect();
            names.sort();
            names.dedup();
            let expected = match names.len() {
                0 => "something else".to_string(),
                1 => names.remove(0),
                _ => {
                    let last = names.pop().unwrap_or_default();
                    format!("{} or {last}", names.join(", "))
                }
            };
            format!("expected {expected}, found {found}")
        }
        RichReason::Custom(message) => message.to_string(),
    }
}

/// Checks the parser leaves to a second pass, where the message can be specific.
fn validate(payload: &Payload, errors: &mut Vec<SyntaxError>) {
    if let Some(condition) = &payload.condition {
        if condition.end.is_none() {
            let at = payload
                .actions
                .first()
                .map_or(payload.span.end..payload.span.end, |c| c.name.span());
            let message = match payload.actions.first() {
                Some(call) => format!(
                    "expected `:` after the condition, found `{}`",
                    call.name.text
                ),
                None => "expected `:` after the condition".to_string(),
            };
            errors.push(SyntaxError::new(at, message));
        }
        for constraint in &condition.constraints {
            if let Constraint::Predicate { args, span, name } = constraint {
                if args.len() > 3 {
                    errors.push(SyntaxError::new(
                        span.clone(),
                        format!("`{}(...)` has {} arguments; a condition takes at most three (subject, value, time)", name.text, args.len()),
                    ));
                }
            }
        }
    }
    for (i, call) in payload.actions.iter().enumerate() {
        let chained = (i > 0 && matches!(payload.separators.get(i - 1), Some(Separator::Arrow(_))))
            || matches!(payload.separators.get(i), Some(Separator::Arrow(_)));
        if call.args.is_none() && !chained {
            errors.push(SyntaxError::new(
                call.name.span.1..call.name.span.1,
                format!("expected `(` after `{}`", call.name.text),
            ));
        }
    }
    if let Some(branch) = &payload.else_branch {
        for alternative in &branch.alternatives {
            match &alternative.args {
                None => errors.push(SyntaxError::new(
                    alternative.name.span.1..alternative.name.span.1,
                    format!("expected `(` after `{}`", alternative.name.text),
                )),
                Some(args) if args.len() > 1 => errors.push(SyntaxError::new(
                    args[1].span.clone(),
                    "an else-branch alternative takes one target (`name(target@location)` or `name(loc=location)`)",
                )),
                Some(args) => {
                    let Some(arg) = args.first() else { continue };
                    match &arg.key {
                        Some(key) if key.text != "loc" => errors.push(SyntaxError::new(
                            arg.span.clone(),
                            format!("an else-branch alternative takes `target`, `target@location` or `loc=location`, not `{}=`", key.text),
                        )),
                        Some(_) if arg.location.is_some() => errors.push(SyntaxError::new(
                            arg.span.clone(),
                            "`loc=` takes a location alone; expected no `@` after it",
                        )),
                        _ => {}
                    }
                }
            }
        }
    }
}

/// The chumsky grammar of one payload (languages.md §2), accepting the nonstandard
/// forms the draft prints (`else` without `:`, `then`, `->`, `with`) for SL505.
mod grammar {
    use super::*;
    use chumsky::input::ValueInput;
    use chumsky::prelude::*;

    use chumsky::error::EmptyErr;
    use chumsky::extra::ParserExtra;
    use chumsky::label::LabelError;

    /// Parsing with errors that say what was expected, for payloads that do not parse.
    pub(super) type Described<'t, 's> = extra::Err<Rich<'t, Token<'s>, SimpleSpan>>;
    /// Parsing that only learns whether a payload parses: a failed alternative costs
    /// nothing, where [`Described`] gathers what each one expected.
    pub(super) type Checked = extra::Default;

    /// An error the grammar raises with its own message.
    pub(super) trait CustomError {
        fn custom(span: SimpleSpan, message: impl FnOnce() -> String) -> Self;
    }

    impl CustomError for Rich<'_, Token<'_>, SimpleSpan> {
        fn custom(span: SimpleSpan, message: impl FnOnce() -> String) -> Self {
            Rich::custom(span, message())
        }
    }

    impl CustomError for EmptyErr {
        fn custom(_: SimpleSpan, _: impl FnOnce() -> String) -> Self {
            EmptyErr::default()
        }
    }

    fn range(span: SimpleSpan) -> Span {
        span.start..span.end
    }

    /// The payload grammar, for a payload with `room` for that many actions after
    /// the first ([`ValidTokens::room_for_actions`]).
    pub(super) fn payload<'t, 's: 't, I, E>(
        room: usize,
    ) -> impl Parser<'t, I, Payload<'s>, E> + Clone
    where
        I: ValueInput<'t, Token = Token<'s>, Span = SimpleSpan>,
        E: ParserExtra<'t, I> + 't,
        E::Error: LabelError<'t, I, &'static str> + CustomError,
    {
        let word = select! { Token::Word(text) => text }
            .map_with(|text, e| {
                let span: SimpleSpan = e.span();
                Word {
                    text,
                    span: (span.start, span.end),
                }
            })
            .labelled("a name or value");
        let keyword = |expected: &'static str| {
            select! { Token::Word(text) if text == expected => () }
                .map_with(|_, e| range(e.span()))
                .labelled(match expected {
                    "if" => "`if`",
                    "and" => "`and`",
                    "else" => "`else`",
                    "then" => "`then`",
                    _ => "`with`",
                })
        };
        let name = word
            .filter(|w: &Word| !KEYWORDS.contains(&w.text))
            .labelled("a function name");

        let arg = word
            .then(just(Token::Equals).ignore_then(word).or_not())
            .then(just(Token::At).ignore_then(word).or_not())
            .map_with(
                |((first, keyword_value), location), e| match keyword_value {
                    Some(value) => Arg {
                        key: Some(first),
                        value,
                        location,
                        span: range(e.span()),
                    },
                    None => Arg {
                        key: None,
                        value: first,
                        location,
                        span: range(e.span()),
                    },
                },
            );
        let args = arg
            .separated_by(just(Token::Comma))
            .collect::<TightArgs>()
            .map(|TightArgs(args)| args)
            .delimited_by(just(Token::LParen), just(Token::RParen))
            // Built only when an argument list fails: `nested_delimiters` allocates,
            // and the grammar is built for each payload.
            .recover_with(via_parser(custom(|input| {
                input.parse(nested_delimiters(Token::LParen, Token::RParen, [], |_| {
                    Vec::new()
                }))
            })));
        let call = name.then(args.or_not()).map_with(|(name, args), e| Call {
            name,
            args,
            span: range(e.span()),
        });

        let negation = just(Token::Bang)
            .map_with(|_, e| range(e.span()))
            .then(word)
            .then(
                word.delimited_by(just(Token::LParen), just(Token::RParen))
                    .or_not(),
            )
            .map_with(|((bang, name), time), e| Constraint::Negation {
                bang,
                name,
                time,
                span: range(e.span()),
            });
        let operator = select! {
            Token::Operator(text) => text,
            Token::Equals => "=",
        }
        .map_with(|text, e| {
            let span: SimpleSpan = e.span();
            Word {
                text,
                span: (span.start, span.end),
            }
        })
        .labelled("a comparison operator");
        let comparison = word
            .then(operator)
            .then(word)
            .then(just(Token::Comma).ignore_then(word).or_not())
            .map_with(|(((name, op), value), time), e| Constraint::Comparison {
                name,
                op,
                value,
                time,
                span: range(e.span()),
            });
        let predicate = word
            .then(
                word.separated_by(just(Token::Comma))
                    .at_least(1)
                    .collect::<Vec<_>>()
                    .delimited_by(just(Token::LParen), just(Token::RParen)),
            )
            .map_with(|(name, args), e| Constraint::Predicate {
                name,
                args,
                span: range(e.span()),
            });
        // A broken condition does not hide the rest: skip to the next one that
        // parses, or to the `:` that ends the condition.
        let condition_stop = just(Token::Colon)
            .ignored()
            .or(keyword("then").ignored())
            .or(end());
        let constraint = negation
            .or(comparison)
            .or(predicate)
            .labelled("a condition")
            .recover_with(skip_then_retry_until(any().ignored(), condition_stop));
        let condition_end = just(Token::Colon)
            .map_with(|_, e| ConditionEnd::Colon(range(e.span())))
            .or(keyword("then").map(ConditionEnd::Then));
        let condition = keyword("if")
            .then(
                constraint
                    .separated_by(keyword("and"))
                    .at_least(1)
                    .collect::<Vec<_>>(),
            )
            .then(condition_end.or_not())
            .map(|((if_keyword, constraints), end)| Condition {
                if_keyword,
                constraints,
                end,
            });

        let separator = just(Token::Semicolon)
            .map_with(|_, e| Separator::Semicolon(range(e.span())))
            .or(just(Token::Arrow).map_with(|_, e| Separator::Arrow(range(e.span()))));
        // Tokens that cannot continue the actions are one error, and the calls
        // after the next separator are still parsed (and checked).
        let stop = |t: &Token| {
            matches!(
                t,
                Token::Semicolon | Token::Arrow | Token::Word("else") | Token::Word("with")
            )
        };
        // A stray run never starts at `(`: an unclosed argument list is reported
        // where it ends, by the call's own parser.
        let stray = any()
            .filter(move |t: &Token| !stop(t) && *t != Token::LParen)
            .then_ignore(any().filter(move |t: &Token| !stop(t)).repeated())
            .map_with(|first, e| (first, range(e.span())))
            .validate(|(first, span), _, emitter| {
                emitter.emit(E::Error::custom(SimpleSpan::from(span), || {
                    format!("expected `;`, `->`, `else`, `with` or end of payload, found {first}")
                }));
            });
        let actions = call
            .map(move |first| Actions::starting_with(first, room))
            .foldl(
                separator.then(call).map(Some).or(stray.to(None)).repeated(),
                Actions::push,
            );

        let else_branch = keyword("else")
            .then(just(Token::Colon).map_with(|_, e| range(e.span())).or_not())
            .then(
                call.separated_by(just(Token::Semicolon))
                    .at_least(1)
                    .collect::<Vec<_>>(),
            )
            .map_with(|((else_keyword, colon), alternatives), e| ElseBranch {
                else_keyword,
                colon,
                alternatives,
                span: range(e.span()),
            });
        let with = keyword("with").then(word);

        condition
            .or_not()
            .then(actions)
            .then(else_branch.or_not())
            .then(with.or_not())
            .then_ignore(end())
            .map_with(|(((condition, actions), else_branch), with), e| {
                let Actions { separators, calls } = actions;
                Payload {
                    condition: condition.map(Box::new),
                    actions: calls,
                    separators,
                    else_branch: else_branch.map(Box::new),
                    with,
                    span: range(e.span()),
                }
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_ok(text: &str) -> Payload<'_> {
        let parse = parse_payload(text, 0);
        assert!(parse.errors.is_empty(), "{text}: {:?}", parse.errors);
        *parse.payload.expect("a payload")
    }

    /// A large payload's tokens are held in a vector of their exact number (the
    /// small path may over-allocate), and both paths and the token stream read
    /// the same tokens; packed, each reads back as the token lexed.
    #[test]
    fn a_large_payload_is_lexed_into_a_vector_of_its_exact_size() {
        let call = "Start(y); é(x@loc,  k=v) -> ok !=";
        let small = lex(call);
        let unpacked: Vec<Token> = small.iter().map(|t| t.token(call)).collect();
        let streamed: Vec<Token> = token_stream(call).collect();
        assert_eq!(unpacked, streamed);
        assert!(unpacked.contains(&Token::Word("é")) && unpacked.contains(&Token::Operator("!=")));
        let large_text = format!("{call} ").repeat(COUNTED_LEX_BYTES / call.len() + 1);
        assert!(large_text.len() >= COUNTED_LEX_BYTES);
        let large = lex(&large_text);
        assert_eq!(large.len(), large.capacity());
        // Each copy of the call lexes as the call alone, shifted by its offset.
        let copies = large_text.len() / (call.len() + 1);
        assert_eq!(large.len(), small.len() * copies);
        for (copy, tokens) in large.chunks(small.len()).enumerate() {
            let shift = copy * (call.len() + 1);
            for (token, alone) in tokens.iter().zip(&small) {
                assert_eq!(token.kind, alone.kind, "copy {copy}");
                assert_eq!(
                    token.span(),
                    alone.span().start + shift..alone.span().end + shift
                );
            }
        }
        let streamed: Vec<Token> = token_stream(&large_text).collect();
        let lexed: Vec<Token> = large.iter().map(|t| t.token(&large_text)).collect();
        assert_eq!(streamed, lexed);
    }

    /// Spans the packed tokens give the grammar are those of the text: a payload
    /// deep in a file, with errors, reports where each error is and each call's
    /// name and arguments where they are written.
    #[test]
    fn spans_read_from_packed_tokens_lie_in_the_file() {
        let file = "xx\n  é(a); book(hotel, loc=Bé) ; cancel(";
        let base = file.find('é').unwrap();
        let parse = parse_payload(&file[base..], base);
        let payload = parse.payload.expect("closed at the end");
        let names: Vec<&str> = payload
            .actions
            .iter()
            .map(|c| &file[c.name.span()])
            .collect();
        assert_eq!(names, ["é", "book", "cancel"]);
        let location = payload.actions[1].args.as_ref().unwrap()[1].span.clone();
        assert_eq!(&file[location], "loc=Bé");
        assert_eq!(payload.span.end, file.len());
        let errors: Vec<(&str, &str)> = parse
            .errors
            .iter()
            .map(|e| (&file[e.span.clone()], e.message.as_str()))
            .collect();
        assert_eq!(
            errors,
            [("", "expected `)` or a name or value, found end of payload")]
        );
        assert_eq!(parse.errors[0].span, file.len()..file.len());
    }

    /// Past a chunk's number, arguments are collected in chunks and joined: all of
    /// them, in order, in a vector of exactly their number.
    #[test]
    fn a_call_of_more_arguments_than_a_chunk_holds_all_in_order_without_spare_room() {
        let count = 2 * ARGS_PER_CHUNK + 3;
        let text = format!(
            "start({})",
            (0..count)
                .map(|i| format!("k{i}=v"))
                .collect::<Vec<_>>()
                .join(",")
        );
        let p = parse_ok(&text);
        let args = p.actions[0].args.as_ref().expect("arguments");
        assert_eq!((args.len(), args.capacity()), (count, count));
        for (i, arg) in args.iter().enumerate() {
            assert_eq!(arg.key.map(|key| key.text), Some(format!("k{i}").as_str()));
        }
    }

    #[test]
    fn a_call_holds_room_for_its_arguments_and_little_more() {
        let p = parse_ok("start(a); book(hotel,loc=Beijing); send(a,b,c); ping()");
        let room: Vec<(usize, usize)> = p
            .actions
            .iter()
            .map(|call| {
                let args = call.args.as_ref().expect("arguments");
                (args.len(), args.capacity())
            })
            .collect();
        assert_eq!(room, [(1, 1), (2, 2), (3, 4), (0, 0)]);
    }

    #[test]
    fn a_payload_holds_room_for_the_actions_its_tokens_allow() {
        let p = parse_ok("start(a); book(hotel) -> send(b); stop()");
        assert_eq!(p.actions.len(), 4);
        assert_eq!(p.actions.capacity(), 4);
        assert_eq!(p.separators.capacity(), 3);
        // Separators without names to follow them make no room: a hostile run of
        // them would otherwise ask for gigabytes.
        let text = "start(a);;;;;;;;";
        let tokens = lex(text);
        let valid = ValidTokens {
            payload: text,
            base: 0,
            tokens: &tokens,
        };
        assert_eq!(valid.room_for_actions(), 2);
    }

    #[test]
    fn parses_every_reference_form() {
        let p = parse_ok("if !rain(t+1): start(hike) else: start(cards@indoor)");
        assert_eq!(p.actions[0].name.text, "start");
        let alt = &p.else_branch.as_ref().unwrap().alternatives[0];
        assert_eq!(
            alt.args.as_ref().unwrap()[0].location.unwrap().text,
            "indoor"
        );
        let p = parse_ok("if loc(me,Beijing,t+1am): cancel(flight); email(zhangsan)");
        assert_eq!(p.actions.len(), 2);
        let p = parse_ok("if budget<=500 and rating>=4.0 and loc(hotel,downtown): book(hotel,city=Shanghai,checkin=t+3,nights=2)");
        assert_eq!(p.condition.as_ref().unwrap().constraints.len(), 3);
        assert_eq!(
            p.actions[0].args.as_ref().unwrap()[1].key.unwrap().text,
            "city"
        );
        parse_ok("if auth(user,verified) and status!=shipped: update(order_42,field=address,new_value=5_Tianfu_Ave)");
        parse_ok("if disk>90%: switch(backup_mode)");
        parse_ok("translate(src=fr_rev_bold, tgt=shakespeare_en, style=archaic_heavy)");
        parse_ok("start()");
        parse_ok("if x>5, t+1: start(北京)");
    }

    #[test]
    fn parses_the_nonstandard_forms_the_draft_prints() {
        let p = parse_ok("if !rain(t+1): start(hike) else start(cards@indoor)");
        assert!(p.else_branch.unwrap().colon.is_none());
        let p = parse_ok("if weather>rain then switch(indoor_activity)");
        assert!(matches!(
            p.condition.unwrap().end,
            Some(ConditionEnd::Then(_))
        ));
        let p = parse_ok("fetch(data) -> process -> email(result) with timeout");
        assert_eq!(p.actions.len(), 3);
        assert!(p.actions[1].args.is_none());
        assert_eq!(p.with.unwrap().1.text, "timeout");
    }

    #[test]
    fn spans_are_absolute_and_cover_the_word() {
        let text = "  cancel(flight)";
        let p = parse_payload(text, 100).payload.unwrap();
        assert_eq!(p.actions[0].name.span, (102, 108));
        assert_eq!(
            p.actions[0].args.as_ref().unwrap()[0].value.span,
            (109, 115)
        );
    }

    #[test]
    fn a_payload_lacking_only_closing_parentheses_still_has_a_tree() {
        let text = "book(a,b); begin(x";
        let parse = parse_payload(text, 10);
        assert_eq!(parse.errors.len(), 1, "{:?}", parse.errors);
        assert_eq!(parse.errors[0].span, 10 + text.len()..10 + text.len());
        let payload = parse.payload.expect("a tree");
        let names: Vec<&str> = payload.actions.iter().map(|call| call.name.text).collect();
        assert_eq!(names, ["book", "begin"]);
        assert!(payload
            .actions
            .iter()
            .all(|call| call.span.end <= 10 + text.len()));
        // more than parentheses missing: no tree is made up
        assert!(parse_payload("if x>1 then start(a,", 0).payload.is_none());
    }

    #[test]
    fn errors_say_what_was_expected_and_recover_inside_arguments() {
        let parse = parse_payload("if !rain(t+1) start(hike)", 0);
        assert_eq!(parse.errors.len(), 1, "{:?}", parse.errors);
        assert!(
            parse.errors[0].message.contains("expected `:`"),
            "{:?}",
            parse.errors
        );
        let parse = parse_payload("cancel(flight;x) ", 0);
        assert!(!parse.errors.is_empty());
        assert_eq!(parse.payload.unwrap().actions[0].name.text, "cancel");
        // Any white space separates tokens (languages.md §2), so a value cannot
        // hold a no-break space either.
        let parse = parse_payload("cancel(flight\u{a0}x)", 0);
        assert!(
            parse.errors[0].message.contains("found `x`"),
            "{:?}",
            parse.errors
        );
    }

    #[test]
    fn recovery_keeps_the_calls_after_a_bad_token_or_condition() {
        let parse = parse_payload("start(hike) junk more; emial(x)", 0);
        assert_eq!(parse.errors.len(), 1, "{:?}", parse.errors);
        assert_eq!(parse.errors[0].span, 12..21);
        let names: Vec<&str> = parse
            .payload
            .unwrap()
            .actions
            .iter()
            .map(|c| c.name.text)
            .collect();
        assert_eq!(names, ["start", "emial"]);
        let parse = parse_payload("if rain(a,) and x>1: begin(y)", 0);
        assert!(!parse.errors.is_empty());
        let payload = parse.payload.expect("the condition recovers");
        assert_eq!(payload.actions[0].name.text, "begin");
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "",
            "(",
            ")))",
            "if",
            "if :",
            "!!!",
            "a(b,",
            "else: x()",
            "x() else",
            "é(ü@)",
            "a->",
            "if a and",
        ] {
            let _ = parse_payload(text, 0);
        }
    }

    /// Payloads made of valid pieces, and sometimes a stray token or two inserted
    /// among them: about half parse cleanly.
    fn payloads() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        use proptest::sample::select;
        let call = select(vec![
            "start(hike)",
            "notify(summary)",
            "x(a, b=c@d)",
            "book",
            "switch(src=flight,tgt=billing)",
        ]);
        let condition = select(vec![
            "if !rain(t+1):",
            "if budget<856:",
            "if budget<856 and !late then",
            "if near(a, b)",
        ]);
        let stray = select(vec!["(", ")", ",", ":", "=", "<>", "@", "else", "é", "!"]);
        (
            proptest::option::of(condition),
            proptest::collection::vec((select(vec![";", "->"]), call.clone()), 1..4),
            proptest::option::of(proptest::collection::vec(call, 1..3)),
            any::<bool>(),
            proptest::collection::vec((any::<prop::sample::Index>(), stray), 0..2),
        )
            .prop_map(|(condition, actions, alternatives, with, strays)| {
                let mut words: Vec<&str> = condition.into_iter().collect();
                for (i, (separator, call)) in actions.into_iter().enumerate() {
                    if i > 0 {
                        words.push(separator);
                    }
                    words.push(call);
                }
                if let Some(alternatives) = alternatives {
                    words.push("else:");
                    for (i, call) in alternatives.into_iter().enumerate() {
                        if i > 0 {
                            words.push(";");
                        }
                        words.push(call);
                    }
                }
                if with {
                    words.push("with hotel");
                }
                for (at, token) in strays {
                    words.insert(at.index(words.len() + 1), token);
                }
                words.join(" ")
            })
    }

    proptest::proptest! {
        /// The cheap first parse and the one that describes errors read the same
        /// grammar: a payload either parses cleanly under both, to the same tree, or
        /// has errors under both.
        #[test]
        fn the_checked_parse_agrees_with_the_described_one(text in payloads()) {
            let mut tokens = lex(&text);
            tokens.retain(|token| token.kind != Kind::Error);
            let valid = ValidTokens { payload: &text, base: 0, tokens: &tokens };
            let checked = parses_cleanly(valid);
            let mut errors = Vec::new();
            let described = parse_described(valid, &mut errors);
            if errors.is_empty() {
                proptest::prop_assert_eq!(checked, described, "{}", text);
            } else {
                proptest::prop_assert!(checked.is_none(), "{}", text);
            }
        }
    }
}
