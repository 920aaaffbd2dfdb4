use super::{declare_rule, Context, Rule};
use crate::syntax::SyntaxError;

declare_rule! {
    /// ## What it does
    /// Reports text that cannot continue a payload: a code-frontend payload, a
    /// Slipstream line, a JSON document or a `//ping` probe, saying what was expected
    /// there instead.
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
    }
}

impl Rule for InvalidSyntax {
    fn check_syntax_errors(&self, ctx: &mut Context, errors: &[SyntaxError]) {
        for error in errors {
            ctx.report(&Self::META, error.span.clone(), error.message.clone());
        }
    }
}
