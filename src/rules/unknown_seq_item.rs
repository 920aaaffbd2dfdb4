use super::{declare_rule, Context, Rule};
use crate::ir::Ir;
use crate::vocabulary::SEQ_KEYWORDS;

declare_rule! {
    /// ## What it does
    /// Reports a `meta.seq` item that is neither an action code (`!VERB`, which
    /// `unknown-verb` then checks), an entity id of the payload, nor one of
    /// `parallel`, `sequential`, `reason_first`, `reason_last`.
    ///
    /// ## Why is this bad?
    /// `seq` orders the steps of a multi-step task. A free word in it refers to
    /// nothing in the payload, so the receiver cannot tell which step it means.
    ///
    /// ## Example
    /// ```json
    /// {"intent": "!FETCH", "meta": {"req_id": "a1b2c3d4", "seq": ["!FETCH", "then_mail"]}}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"intent": "!FETCH", "meta": {"req_id": "a1b2c3d4", "seq": ["!FETCH", "!EMAIL"]}}
    /// ```
    ///
    /// ## Fix
    /// No automatic fix.
    pub struct UnknownSeqItem {
        code: "SL407",
        name: "unknown-seq-item",
        severity: Warning,
        hooks: [Ir],
    }
}

impl Rule for UnknownSeqItem {
    fn check_ir(&self, ctx: &mut Context, ir: &Ir) {
        for item in &ir.meta.seq {
            let known = item.starts_with('!')
                || SEQ_KEYWORDS.contains(&item.as_str())
                || ir.entities.iter().any(|e| e.id.node == item.node);
            if !known {
                ctx.report(
                    &Self::META,
                    item.span.clone(),
                    format!("`meta.seq` item `{}` is not an action code, an entity id or a sequencing keyword", item.node),
                )
                .help(format!("sequencing keywords: {}", SEQ_KEYWORDS.join(", ")));
            }
        }
    }
}
