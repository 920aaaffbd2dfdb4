use super::{declare_rule, Context, Rule};
use crate::ir::Ir;

declare_rule! {
    /// ## What it does
    /// Reports `meta.out` = `llmlingua2` on a payload that carries negation: a
    /// constraint whose `type` starts with `!`, or a `!=` comparison.
    ///
    /// ## Why is this bad?
    /// LLMLingua-2 compression may drop negation markers, turning "if not rain" into
    /// "if rain". The draft says implementations MUST NOT use llmlingua2 where
    /// semantic precision is critical, particularly for negation logic.
    ///
    /// ## Example
    /// ```json
    /// {"intent": "!START", "constraints": [{"type": "!rain", "value": "true"}],
    ///  "meta": {"req_id": "a1b2c3d4", "out": "llmlingua2"}}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"intent": "!START", "constraints": [{"type": "!rain", "value": "true"}],
    ///  "meta": {"req_id": "a1b2c3d4", "out": "code"}}
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: choose a lossless frontend (`code` or `json`).
    pub struct LossyFrontendNegation {
        code: "SL501",
        name: "lossy-frontend-negation",
        severity: Error,
        hooks: [Ir],
    }
}

impl Rule for LossyFrontendNegation {
    fn check_ir(&self, ctx: &mut Context, ir: &Ir) {
        if let Some(out) = &ir.meta.out {
            if out.node == "llmlingua2" && ir.has_negation() {
                ctx.report(
                    &Self::META,
                    out.span.clone(),
                    "`llmlingua2` may drop the negation this payload carries",
                )
                .help("use a lossless frontend: `code` or `json`");
            }
        }
    }
}
