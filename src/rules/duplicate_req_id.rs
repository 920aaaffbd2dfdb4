use super::{declare_rule, ReqIdUse, Rule, RunContext, RunFindings};
use crate::diagnostics::Related;

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
        hooks: [Run],
    }
}

/// How many other places of a repeated id one diagnostic names (message and
/// related list); the rest are counted. A value repeated thousands of times must
/// not make output grow with the square of its uses.
const NAMED_PLACES: usize = 5;

impl Rule for DuplicateReqId {
    fn check_run(&self, run: &RunContext, file: usize, found: &mut RunFindings) {
        for i in run.uses_in(file) {
            let Some(uses) = run.uses_of_same_value(i) else {
                continue;
            };
            let this = run.req_ids[i];
            if !found.keeps(&Self::META) {
                found.count_left_out(&Self::META, this.fact.span.clone());
                continue;
            }
            // The first other uses, from the first one on.
            let named: Vec<&ReqIdUse> = uses
                .iter()
                .filter(|&&j| j != i)
                .take(NAMED_PLACES)
                .map(|&j| &run.req_ids[j])
                .collect();
            let unnamed = uses.len() - 1 - named.len();
            let places: Vec<String> = named
                .iter()
                .map(|other| {
                    format!(
                        "{}:{}:{}",
                        run.files[other.file].path, other.fact.line, other.fact.column
                    )
                })
                .collect();
            let mut message = format!(
                "`req_id` `{}` is also written at {}",
                this.fact.value,
                places.join(", ")
            );
            if unnamed > 0 {
                message.push_str(&format!(
                    " and {unnamed} more place{}",
                    if unnamed == 1 { "" } else { "s" }
                ));
            }
            let related = named
                .iter()
                .map(|other| Related {
                    path: (other.file != this.file).then(|| run.files[other.file].path.to_string()),
                    span: other.fact.span.clone(),
                    message: format!("`req_id` `{}` is also written here", other.fact.value),
                })
                .collect();
            found.report(&Self::META, this.fact.span.clone(), message, related);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::diagnostics::Diagnostic;
    use crate::lint::{lint_files, lint_text};
    use crate::rules::MAX_PER_RULE;
    use crate::settings::{RuleSet, Settings};
    use crate::source::FileKind;

    const LINE: &str = "{\"intent\":\"!START\",\"meta\":{\"req_id\":\"a1b2c3d4\"}}\n";

    /// The SL303 diagnostics of `x.silp.jsonl` holding `uses` times [`LINE`].
    fn sl303_of(uses: usize) -> Vec<Diagnostic> {
        let text = LINE.repeat(uses);
        let files = [(
            "x.silp.jsonl",
            &*text,
            FileKind::SilpJsonl,
            &Settings::default(),
        )];
        let mut found = lint_files(&files).remove(0);
        found.retain(|d| d.code() == "SL303");
        found
    }

    #[test]
    fn a_much_repeated_id_is_reported_once_per_use_naming_a_few_places() {
        let sl303 = sl303_of(1000);
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
        assert!(lint_text(LINE, FileKind::SilpJsonl, &Settings::default())
            .diagnostics
            .is_empty());
    }

    #[test]
    fn a_file_keeps_the_first_ten_thousand_and_says_how_many_more() {
        let sl303 = sl303_of(MAX_PER_RULE + 250);
        assert_eq!(sl303.len(), MAX_PER_RULE + 1);
        let kept_until = LINE.len() * MAX_PER_RULE;
        assert!(sl303[..MAX_PER_RULE]
            .iter()
            .all(|d| d.span.end <= kept_until && d.message.ends_with("more places")));
        let note = &sl303[MAX_PER_RULE];
        assert_eq!(
            note.message,
            "250 more SL303 diagnostics in this file are not shown"
        );
        assert!(note.span.start > kept_until, "at the first use left out");
    }

    #[test]
    fn a_file_with_the_rule_off_reports_nothing_and_the_others_still_name_it() {
        let on = Settings::default();
        let mut off = Settings::default();
        let mut sl303 = RuleSet::EMPTY;
        sl303.insert(super::DuplicateReqId::META.id);
        off.rules.disable(sl303);
        let files = [
            ("a.silp.jsonl", LINE, FileKind::SilpJsonl, &on),
            ("b.silp.jsonl", LINE, FileKind::SilpJsonl, &off),
            ("c.silp.jsonl", LINE, FileKind::SilpJsonl, &on),
        ];
        let messages: Vec<Vec<String>> = lint_files(&files)
            .into_iter()
            .map(|found| {
                found
                    .into_iter()
                    .filter(|d| d.code() == "SL303")
                    .map(|d| d.message)
                    .collect()
            })
            .collect();
        assert_eq!(
            messages,
            [
                vec!["`req_id` `a1b2c3d4` is also written at b.silp.jsonl:1:37, c.silp.jsonl:1:37"],
                vec![],
                vec!["`req_id` `a1b2c3d4` is also written at a.silp.jsonl:1:37, b.silp.jsonl:1:37"],
            ]
        );
    }
}
