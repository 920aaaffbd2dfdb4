use super::{declare_rule, Context, Rule};
use crate::ir::Ir;

declare_rule! {
    /// ## What it does
    /// Reports a `silp` version that is well formed (`^v\d+$`) but not `v1`, the only
    /// version the draft defines.
    ///
    /// ## Why is this bad?
    /// A receiver answers with the SILP error code `unsupported_version` and does not
    /// process the payload.
    ///
    /// ## Example
    /// ```json
    /// {"silp": "v2", "intent": "!START", "meta": {"req_id": "a1b2c3d4"}}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"silp": "v1", "intent": "!START", "meta": {"req_id": "a1b2c3d4"}}
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: a payload written for another version may mean something
    /// else in v1. Malformed versions (`"1"`) are reported by `schema-violation`.
    pub struct UnsupportedVersion {
        code: "SL402",
        name: "unsupported-version",
        severity: Error,
        protocol_error: "unsupported_version",
        hooks: [Ir],
    }
}

impl Rule for UnsupportedVersion {
    fn check_ir(&self, ctx: &mut Context, ir: &Ir) {
        let Some(version) = &ir.silp else {
            return;
        };
        let well_formed = version
            .strip_prefix('v')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
        if well_formed && version.node != "v1" {
            ctx.report(
                &Self::META,
                version.span.clone(),
                format!(
                    "SILP version `{}` is not supported; only `v1` is defined",
                    version.node
                ),
            );
        }
    }
}
