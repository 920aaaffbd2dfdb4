use super::{declare_rule, Context, Rule};
use crate::syntax::SyntaxError;

declare_rule! {
    /// ## What it does
    /// Reports text that cannot continue a payload: a code-frontend payload, a
    /// Slipstream line, a JSON document or a `//ping` probe, saying what was expected
    /// there instead.
    ///
    /// Where the draft is silent, the grammar decides:
    /// - `not` is not a keyword, so `if not rain: start(hike)` is an error.
    /// - An else-branch alternative takes one argument: `target`, `target@location` or
    ///   `loc=location`. A second argument, another keyword (`start(to=x)`) or `loc=`
    ///   with `@` is an error.
    ///
    /// An error costs as little as it can. A code payload that lacks only its
    /// closing parentheses (`book(a,b); begin(x`) is reported at its end and read as
    /// if closed, so the other rules still report on it. A syntax error inside one
    /// payload of a `.silp.json` array costs only that payload: the parse resumes at
    /// the next element. A single top-level object with a syntax error gets this
    /// error and the raw-text rules (SL201–SL204) only.
    ///
    /// ## Why is this bad?
    /// A receiver cannot decode the payload and answers with the SILP error code
    /// `invalid_syntax`. silp-lint recovers after the error, so the rest of the file
    /// (and the rest of the payload, where it can) is still checked.
    ///
    /// ## Example
    /// ```silp
    /// if !rain(t+1) start(hike)
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// if !rain(t+1): start(hike)
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: only the author knows what was meant. The message names the
    /// token that was found and what the grammar allows at that point.
    pub struct InvalidSyntax {
        code: "SL001",
        name: "invalid-syntax",
        severity: Error,
        protocol_error: "invalid_syntax",
        hooks: [SyntaxErrors],
    }
}

impl Rule for InvalidSyntax {
    fn check_syntax_errors(&self, ctx: &mut Context, errors: &[SyntaxError]) {
        for error in errors {
            ctx.report(&Self::META, error.span.clone(), error.message.clone());
        }
    }
}
