use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::syntax::describe_found;
use crate::syntax::slip::Message;
use crate::vocabulary::{core_anchors, did_you_mean, is_known_anchor};

/// The index an anchor written in hex stands for (`0x0032`, `0X8001`).
fn hex_index(anchor: &str) -> Option<u16> {
    let digits = anchor.strip_prefix("0x").or(anchor.strip_prefix("0X"))?;
    if digits.is_empty() || digits.len() > 4 {
        return None;
    }
    u16::from_str_radix(digits, 16).ok()
}

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
    /// An anchor written as its hex index (`0x0032`) is unknown too: the wire text
    /// carries mnemonics (the SLIP-A2A extension's first token rule forbids hex
    /// anchors); the message names the mnemonic of a known index.
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
    /// When the anchor differs from a known one only in letter case, or is the hex
    /// index of a known one, the fix writes its mnemonic (safe: it is the only
    /// anchor the author can have meant).
    /// Otherwise there is no automatic fix; the help names the closest anchor, if
    /// one is close.
    pub struct UnknownAnchor {
        code: "SL601",
        name: "unknown-anchor",
        severity: Error,
        hooks: [Slip],
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
        if let Some(index) = hex_index(anchor.text) {
            let mnemonic = core_anchors()
                .iter()
                .find(|a| a.index == index)
                .map(|a| a.mnemonic.as_str())
                .or_else(|| {
                    settings
                        .extend_anchors
                        .iter()
                        .find(|(_, i)| *i == index)
                        .map(|(m, _)| m.as_str())
                });
            let reported = ctx.report(
                &Self::META,
                anchor.span.clone(),
                format!(
                    "unknown anchor {shown}: anchors are written as mnemonics, not hex indices"
                ),
            );
            match mnemonic {
                Some(mnemonic) => {
                    reported
                        .help(format!("{shown} is the index of `{mnemonic}`"))
                        .fix(Fix::safe(
                            format!("Replace with `{mnemonic}`"),
                            vec![Edit::replace(anchor.span.clone(), mnemonic)],
                        ));
                }
                None => {
                    reported.help(format!("no anchor has index {index:#06x}"));
                }
            }
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
