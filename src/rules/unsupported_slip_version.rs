use super::{declare_rule, Context, Rule};
use crate::syntax::describe_found;
use crate::syntax::slip::Message;

declare_rule! {
    /// ## What it does
    /// Reports a Slipstream message whose version (the token after `SLIP`) is not
    /// `v1`, the only version of the wire format there is.
    ///
    /// ## Why is this bad?
    /// A receiver cannot know what a message of an unknown version means, and the
    /// rest of the line may not follow the v1 layout (`<src> <dst> <anchor>
    /// [payload...]`) that silp-lint checks. A misplaced or missing version (`SLIP
    /// alice bob ...`) also shows up here, because every later field is then off by
    /// one.
    ///
    /// ## Example
    /// ```slip
    /// SLIP v2 alice bob RequestReview
    /// SLIP V1 alice bob RequestReview
    /// ```
    ///
    /// Use instead:
    /// ```slip
    /// SLIP v1 alice bob RequestReview
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: a message written for another version may need more changes
    /// than its version token.
    pub struct UnsupportedSlipVersion {
        code: "SL603",
        name: "unsupported-slip-version",
        severity: Error,
        hooks: [Slip],
    }
}

impl Rule for UnsupportedSlipVersion {
    fn check_slip(&self, ctx: &mut Context, message: &Message) {
        let Some(version) = &message.version else {
            return;
        };
        if version.text == "v1" {
            return;
        }
        ctx.report(
            &Self::META,
            version.span.clone(),
            format!(
                "unsupported SLIP version {}: only `v1` is supported",
                describe_found(version.text)
            ),
        )
        .help("write `SLIP v1 <src> <dst> <anchor> [payload...]`");
    }
}
