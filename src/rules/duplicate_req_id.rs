use super::{declare_rule, Rule, RunContext};
use crate::diagnostics::Related;
use crate::repeats::repeats;
use std::collections::BTreeMap;

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
    fn check_run(&self, run: &mut RunContext) {
        // The uses of each repeated value, keyed and so ordered by its first use.
        let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (i, first) in repeats(run.req_ids, |use_| use_.fact.value.as_str()) {
            groups.entry(first).or_insert_with(|| vec![first]).push(i);
        }
        let place = |run: &RunContext, use_: &super::ReqIdUse| {
            format!(
                "{}:{}:{}",
                run.paths[use_.file], use_.fact.line, use_.fact.column
            )
        };
        for uses in groups.values() {
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
