use super::{declare_rule, Context, Rule};
use crate::syntax::slip::Message;

declare_rule! {
    /// ## What it does
    /// Reports a Slipstream `Fallback` message that carries no payload (a thread token
    /// such as `thread42` does not count as payload).
    ///
    /// A payload's first token that starts with `thread` is its thread id, as
    /// languages.md §5 says (`thread42` is thread `42`, `threads` is thread `s`), so
    /// `Fallback thread` alone is reported. The reference decoder also wants a digit,
    /// `_` or `-` after `thread`; silp-lint follows the spec folder.
    ///
    /// ## Why is this bad?
    /// `Fallback` means "this intent has no UCR anchor; read the payload instead": the
    /// natural-language payload *is* the message. Without one, the receiver learns
    /// nothing except that the sender could not quantize what it meant.
    ///
    /// ## Example
    /// ```slip
    /// SLIP v1 devops sre Fallback
    /// ```
    ///
    /// Use instead:
    /// ```slip
    /// SLIP v1 devops sre Fallback check kubernetes pods for OOMKilled
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: write the content the message was meant to carry, or use the
    /// anchor that fits the intent.
    pub struct FallbackWithoutPayload {
        code: "SL602",
        name: "fallback-without-payload",
        severity: Error,
        hooks: [Slip],
    }
}

impl Rule for FallbackWithoutPayload {
    fn check_slip(&self, ctx: &mut Context, message: &Message) {
        let Some(anchor) = &message.anchor else {
            return;
        };
        if anchor.text != "Fallback" || message.content().next().is_some() {
            return;
        }
        ctx.report(
            &Self::META,
            anchor.span.clone(),
            "`Fallback` message has no payload",
        )
        .help("a `Fallback` message carries its content as natural language after the anchor");
    }
}
