use super::{declare_rule, Context, Rule};
use crate::ir::Ir;
use crate::settings::Draft;
use crate::vocabulary::SEQ_KEYWORDS;

declare_rule! {
    /// ## What it does
    /// Reports the ordering keywords `parallel`, `sequential`, `reason_first` and
    /// `reason_last` in `meta.seq` of payloads written against draft -02 (the
    /// default `draft`). Under -00 and -01, which list them without saying more,
    /// nothing is reported.
    ///
    /// ## Why is this bad?
    /// Draft -02 §3.6 ("Sequence (seq) Semantics") makes `seq` strict, unconditional
    /// serial order and says the four keywords are recognised tokens only: they
    /// carry no defined behaviour, `parallel` does not relax the order, and
    /// receivers MUST NOT infer parallel or conditional execution from them and MAY
    /// reject or flag payloads that rely on them. A sender that means "run these in
    /// parallel" is not understood.
    ///
    /// ## Example
    /// ```json
    /// {"intent": "!FETCH", "meta": {"req_id": "a1b2c3d4", "seq": ["parallel", "!FETCH", "!EMAIL"]}}
    /// ```
    ///
    /// Use instead (`seq` orders; branching belongs in `constraints` and
    /// `alternatives`):
    /// ```json
    /// {"intent": "!FETCH", "meta": {"req_id": "a1b2c3d4", "seq": ["!FETCH", "!EMAIL"]}}
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: removing the keyword is safe only when the payload does not
    /// rely on it, which the author knows.
    pub struct UndefinedSeqKeyword {
        code: "SL409",
        name: "undefined-seq-keyword",
        severity: Warning,
        hooks: [Ir],
    }
}

impl Rule for UndefinedSeqKeyword {
    fn check_ir(&self, ctx: &mut Context, ir: &Ir) {
        if ctx.settings().draft < Draft::D02 {
            return;
        }
        for item in ir
            .meta
            .seq
            .iter()
            .filter(|item| SEQ_KEYWORDS.contains(&item.as_str()))
        {
            ctx.report(
                &Self::META,
                item.span.clone(),
                format!(
                    "`{}` in `meta.seq` has no defined behaviour: `seq` is strict serial order (draft -02 §3.6)",
                    item.node
                ),
            )
            .help("order the steps in `seq` itself; express branching with `constraints` and `alternatives`");
        }
    }
}
