use super::{declare_rule, Rule, RunContext};
use crate::diagnostics::Related;
use crate::repeats::repeats;
use std::collections::BTreeMap;

declare_rule! {
    /// ## What it does
    /// Reports every `req_id` written in more than one payload of the linted set,
    /// across files, naming the other places. Each use is reported once; it names
    /// at most five other places, from the first use on, and counts the rest. Ids
    /// that decoding regenerates from a payload's text (code and JSON frontends)
    /// are not written, so they do not count.
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

/// How many other places of a repeated id one diagnostic names (message and
/// related list); the rest are counted. A value repeated thousands of times must
/// not make output grow with the square of its uses.
const NAMED_PLACES: usize = 5;

impl Rule for DuplicateReqId {
    fn check_run(&self, run: &mut RunContext) {
        // The uses of each repeated value, keyed and so ordered by its first use.
        let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (i, first) in repeats(run.req_ids, |use_| &*use_.fact.value) {
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
                // The first other uses, from the first one on.
                let named: Vec<usize> = (0..uses.len())
                    .filter(|&j| j != k)
                    .take(NAMED_PLACES)
                    .collect();
                let unnamed = uses.len() - 1 - named.len();
                let mut message = format!(
                    "`req_id` `{}` is also written at {}",
                    this.fact.value,
                    named
                        .iter()
                        .map(|&j| places[j].as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                if unnamed > 0 {
                    message.push_str(&format!(
                        " and {unnamed} more place{}",
                        if unnamed == 1 { "" } else { "s" }
                    ));
                }
                let related = named
                    .iter()
                    .map(|&j| {
                        let other = &run.req_ids[uses[j]];
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
                    message,
                    related,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::lint_text;
    use crate::settings::Settings;
    use crate::source::FileKind;

    #[test]
    fn a_much_repeated_id_is_reported_once_per_use_naming_a_few_places() {
        let line = "{\"intent\":\"!START\",\"meta\":{\"req_id\":\"a1b2c3d4\"}}\n";
        let text = line.repeat(1000);
        let found = crate::lint::lint_files(&[(
            "x.silp.jsonl",
            &text,
            FileKind::SilpJsonl,
            &Settings::default(),
        )])
        .remove(0);
        let sl303: Vec<_> = found.iter().filter(|d| d.code() == "SL303").collect();
        assert_eq!(sl303.len(), 1000, "each use once");
        for diagnostic in &sl303 {
            assert_eq!(diagnostic.related.len(), super::NAMED_PLACES);
            assert!(
                diagnostic.message.ends_with("and 994 more places"),
                "{}",
                diagnostic.message
            );
        }
        assert!(
            sl303[1].message.contains("x.silp.jsonl:1:"),
            "the first use is named first"
        );
        assert!(lint_text(line, FileKind::SilpJsonl, &Settings::default())
            .diagnostics
            .is_empty());
    }
}
