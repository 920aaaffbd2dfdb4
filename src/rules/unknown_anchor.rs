use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::syntax::describe_found;
use crate::syntax::slip::Message;
use crate::vocabulary::{core_anchors, did_you_mean, is_known_anchor};

declare_rule! {
    /// ## What it does
    /// Reports a Slipstream anchor that is neither one of the 46 UCR v1.0 core
    /// mnemonics (`RequestTask`, `InformComplete`, `Fallback`, ...) nor an extension
    /// anchor declared under `[extend-anchors]` in `silp-lint.toml`. When a known
    /// anchor is close, the message suggests it.
    ///
    /// ## Why is this bad?
    /// The anchor is the message's intent: the receiver looks it up in its UCR
    /// codebook, case-sensitively. The reference decoder rejects a message whose anchor
    /// it does not know (`Unknown anchor mnemonic`), so the whole message is lost.
    ///
    /// ## Example
    /// ```slip
    /// SLIP v1 planner executor requesttask implement_auth_module
    /// SLIP v1 alice bob RequestReveiw
    /// ```
    ///
    /// Use instead:
    /// ```slip
    /// SLIP v1 planner executor RequestTask implement_auth_module
    /// SLIP v1 alice bob RequestReview
    /// ```
    ///
    /// An installation-specific anchor must be declared with its index (0x8000 to
    /// 0xFFFF). Its name is ASCII letters, digits and `_`, starting with a letter, so
    /// the names the Slipstream reference's extension manager generates are accepted
    /// as they are:
    /// ```toml
    /// [extend-anchors]
    /// CustomDeploy = 0x8001
    /// EXT_CheckTheKubernetesPod = 0x8002
    /// ```
    ///
    /// ## Fix
    /// When the anchor differs from a known one only in letter case, the fix writes
    /// the right case (safe: it is the only anchor the author can have meant).
    /// Otherwise there is no automatic fix; the help names the closest anchor, if
    /// one is close.
    pub struct UnknownAnchor {
        code: "SL601",
        name: "unknown-anchor",
        severity: Error,
    }
}

impl Rule for UnknownAnchor {
    fn check_slip(&self, ctx: &mut Context, message: &Message) {
        let Some(anchor) = &message.anchor else {
            return;
        };
        let settings = ctx.settings();
        if is_known_anchor(anchor.text, settings) {
            return;
        }
        let known = || {
            core_anchors()
                .iter()
                .map(|a| a.mnemonic.as_str())
                .chain(settings.extend_anchors.iter().map(|(m, _)| m.as_str()))
        };
        let shown = describe_found(anchor.text);
        if !ctx.keeps(&Self::META) {
            // Past what a file reports of this rule: counted, no suggestion sought.
            ctx.report(&Self::META, anchor.span.clone(), String::new());
            return;
        }
        let lower = anchor.text.to_lowercase();
        let same_but_case = |m: &&str| m.chars().flat_map(char::to_lowercase).eq(lower.chars());
        if let Some(right) = known().find(same_but_case) {
            ctx.report(
                &Self::META,
                anchor.span.clone(),
                format!("unknown anchor {shown}: anchors are case-sensitive"),
            )
            .help(format!("did you mean `{right}`?"))
            .fix(Fix::safe(
                format!("Replace with `{right}`"),
                vec![Edit::replace(anchor.span.clone(), right)],
            ));
        } else if let Some(close) = did_you_mean(anchor.text, known()) {
            ctx.report(
                &Self::META,
                anchor.span.clone(),
                format!("unknown anchor {shown}"),
            )
            .help(format!("did you mean `{close}`?"));
        } else {
            ctx.report(
                &Self::META,
                anchor.span.clone(),
                format!("unknown anchor {shown}"),
            )
            .help(
                "use a UCR v1.0 core anchor (such as `RequestTask`, `InformStatus` or \
                 `Fallback`), or declare an extension anchor under `[extend-anchors]`",
            );
        }
    }
}
