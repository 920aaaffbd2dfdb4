use super::{declare_rule, Rule, RuleMeta, RunContext};
use crate::diagnostics::Related;
use std::collections::hash_map::Entry;
use std::collections::HashMap;

declare_rule! {
    /// ## What it does
    /// Reports every `req_id` written in more than one payload of the linted set,
    /// across files, naming the other places. Ids that decoding regenerates from a
    /// payload's text (code and JSON frontends) are not written, so they do not count.
    ///
    /// ## Why is this bad?
    /// `req_id` correlates requests and responses. Two payloads with one id make a
    /// receiver match a response to the wrong request — the collision the draft's
    /// 8-character default exists to avoid.
    ///
    /// ## Example
    /// ```json
    /// [{"intent": "!START", "entities": [], "meta": {"req_id": "a1b2c3d4"}},
    ///  {"intent": "!CANCEL", "entities": [], "meta": {"req_id": "a1b2c3d4"}}]
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: give each payload its own id.
    pub struct DuplicateReqId {
        code: "SL303",
        name: "duplicate-req-id",
        severity: Warning,
    }
}

impl Rule for DuplicateReqId {
    fn meta(&self) -> &'static RuleMeta {
        &Self::META
    }

    fn check_run(&self, run: &mut RunContext) {
        // Each value's first use; a group is opened only when a value repeats.
        let mut first_use: HashMap<&str, usize> = HashMap::with_capacity(run.req_ids.len());
        let mut repeated: HashMap<usize, Vec<usize>> = HashMap::new();
        for (i, use_) in run.req_ids.iter().enumerate() {
            match first_use.entry(use_.fact.value.as_str()) {
                Entry::Occupied(first) => repeated
                    .entry(*first.get())
                    .or_insert_with(|| vec![*first.get()])
                    .push(i),
                Entry::Vacant(slot) => {
                    slot.insert(i);
                }
            }
        }
        let mut groups: Vec<Vec<usize>> = repeated.into_values().collect();
        groups.sort();
        let place = |run: &RunContext, use_: &super::ReqIdUse| {
            format!(
                "{}:{}:{}",
                run.paths[use_.file], use_.fact.line, use_.fact.column
            )
        };
        for uses in &groups {
            let places: Vec<String> = uses.iter().map(|&i| place(run, &run.req_ids[i])).collect();
            for (k, &i) in uses.iter().enumerate() {
                let this = &run.req_ids[i];
                let others: Vec<&str> = places
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != k)
                    .map(|(_, p)| p.as_str())
                    .collect();
                let related = uses
                    .iter()
                    .filter(|&&j| j != i)
                    .map(|&j| {
                        let other = &run.req_ids[j];
                        Related {
                            path: (other.file != this.file)
                                .then(|| run.paths[other.file].to_string()),
                            span: other.fact.span.clone(),
                            message: format!(
                                "`req_id` `{}` is also written here",
                                other.fact.value
                            ),
                        }
                    })
                    .collect();
                run.report(
                    this.file,
                    &Self::META,
                    this.fact.span.clone(),
                    format!(
                        "`req_id` `{}` is also written at {}",
                        this.fact.value,
                        others.join(", ")
                    ),
                    related,
                );
            }
        }
    }
}
