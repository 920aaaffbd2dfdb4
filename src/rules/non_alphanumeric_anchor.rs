use super::{declare_rule, Context, Rule};
use crate::syntax::describe_found;
use crate::syntax::slip::Message;

declare_rule! {
    /// ## What it does
    /// Reports an anchor holding characters other than ASCII letters and digits,
    /// which the SLIP-A2A extension's ABNF profile does not accept
    /// (`ANCHOR = 1*(ALPHA / DIGIT)`). The names the Slipstream reference's extension
    /// manager generates (`EXT_CheckTheKubernetesPod`) are valid in `[extend-anchors]`
    /// and on a `.slip` line, but break that profile with their `_`.
    ///
    /// Like SL605, it checks the SLIP text of A2A messages (in `*.a2a.json` files),
    /// where the profile applies; in other SLIP text (`.slip` files, Markdown fences,
    /// NLIP messages) it runs only when a selector names it (`--select SL609`,
    /// `select = ["SL6"]`; `ALL` does not).
    ///
    /// ## Why is this bad?
    /// An A2A agent that validates the wire text against the extension's ABNF
    /// rejects the message, and tokenizers split `_` off, costing the tokens the
    /// profile is there to save.
    ///
    /// ## Example
    /// ```slip
    /// SLIP v1 devops sre EXT_CheckTheKubernetesPod payments
    /// ```
    ///
    /// Use instead (declared under `[extend-anchors]` as `CheckKubernetesPod`):
    /// ```slip
    /// SLIP v1 devops sre CheckKubernetesPod payments
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: renaming an anchor changes what both ends must agree on.
    /// Declare the anchor under a name of letters and digits and use that.
    pub struct NonAlphanumericAnchor {
        code: "SL609",
        name: "non-alphanumeric-anchor",
        severity: Warning,
        hooks: [Slip],
    }
}

impl Rule for NonAlphanumericAnchor {
    fn check_slip(&self, ctx: &mut Context, message: &Message) {
        if !ctx.a2a_profile_applies(&Self::META) {
            return;
        }
        let Some(anchor) = &message.anchor else {
            return;
        };
        let Some(bad) = anchor.text.chars().find(|c| !c.is_ascii_alphanumeric()) else {
            return;
        };
        ctx.report(
            &Self::META,
            anchor.span.clone(),
            format!(
                "anchor {} holds {}, outside the A2A profile's `ANCHOR = 1*(ALPHA / DIGIT)`",
                describe_found(anchor.text),
                describe_found(bad.encode_utf8(&mut [0; 4]))
            ),
        )
        .help("declare the anchor under a name of ASCII letters and digits only");
    }
}
