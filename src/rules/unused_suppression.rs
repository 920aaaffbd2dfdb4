use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::rules::registry;
use crate::syntax::suppression::Suppression;

declare_rule! {
    /// ## What it does
    /// Reports a `# silp-lint: ignore[...]` comment, or one of the codes it lists,
    /// that suppressed nothing — including codes that name no rule.
    ///
    /// ## Why is this bad?
    /// A stale suppression hides the next real problem on that payload, and a
    /// misspelt code suppresses nothing while looking as if it did.
    ///
    /// ## Example
    /// ```silp
    /// # silp-lint: ignore[SL101]
    /// start(hike)
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// start(hike)
    /// ```
    ///
    /// ## Fix
    /// Removing the unused codes, or the whole comment when none is used (safe).
    /// Codes of rules that are turned off are not reported: they may be needed again.
    /// A code is used by a finding past its rule's limit of 10,000 per file too,
    /// though the report does not list that finding.
    /// In a comment with more than 16 unused codes, only the first one's diagnostic
    /// carries the fix (which removes them all).
    pub struct UnusedSuppression {
        code: "SL801",
        name: "unused-suppression",
        severity: Warning,
        hooks: [Suppressions],
    }
}

/// How many unused codes of one comment each carry their own fix.
const FIXES_PER_COMMENT: usize = 16;

impl Rule for UnusedSuppression {
    fn check_suppressions(&self, ctx: &mut Context, suppressions: &[(Suppression, Vec<bool>)]) {
        for (suppression, used) in suppressions {
            // Codes of rules that are turned off are kept: they may be needed again.
            let (unused, kept): (Vec<_>, Vec<_>) =
                suppression
                    .codes
                    .iter()
                    .zip(used)
                    .partition(|((code, _), used)| {
                        !**used
                            && match registry::find(code) {
                                Some(rule) => ctx.enabled(rule.meta()),
                                None => true,
                            }
                    });
            let unused: Vec<&(String, crate::source::Span)> =
                unused.into_iter().map(|(code, _)| code).collect();
            if unused.is_empty() && !suppression.codes.is_empty() {
                continue;
            }
            let remove_all = unused.len() == suppression.codes.len();
            let whole = suppression.removal.clone();
            if remove_all {
                let message = if suppression.codes.is_empty() {
                    "this suppression lists no codes".to_string()
                } else {
                    let names: Vec<String> = unused.iter().map(|(c, _)| format!("`{c}`")).collect();
                    let unknown = unused.iter().all(|(c, _)| registry::find(c).is_none());
                    if unknown {
                        format!("unused suppression: {} names no rule", names.join(", "))
                    } else {
                        format!(
                            "unused suppression: {} suppressed nothing here",
                            names.join(", ")
                        )
                    }
                };
                ctx.report(&Self::META, suppression.comment.clone(), message)
                    .fix(Fix::safe(
                        "Remove the suppression",
                        vec![Edit::delete(whole)],
                    ));
                continue;
            }
            let kept: Vec<&str> = kept.iter().map(|((code, _), _)| code.as_str()).collect();
            let kept = kept.join(", ");
            let list = suppression
                .codes
                .first()
                .map(|c| c.1.start)
                .unwrap_or_default()
                ..suppression
                    .codes
                    .last()
                    .map(|c| c.1.end)
                    .unwrap_or_default();
            // Each unused code's fix rewrites the whole list; past a few codes only the
            // first carries it (one copy of the list per code would grow with the
            // square of a long list), and `--fix` needs just one.
            let fix_each = unused.len() <= FIXES_PER_COMMENT;
            for (n, (code, span)) in unused.into_iter().enumerate() {
                let message = if registry::find(code).is_none() {
                    format!("`{code}` is not a rule code")
                } else {
                    format!("unused suppression: `{code}` suppressed nothing here")
                };
                let reported = ctx.report(&Self::META, span.clone(), message);
                if n == 0 || fix_each {
                    reported.fix(Fix::safe(
                        format!("Remove `{code}` from the suppression"),
                        vec![Edit::replace(list.clone(), kept.clone())],
                    ));
                }
            }
        }
    }
}
