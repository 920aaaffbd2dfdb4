use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::ir::{Ir, VerbForm};
use crate::vocabulary::excluded_verb;

declare_rule! {
    /// ## What it does
    /// Reports the verbs the draft excludes from the whitelist: `SWITCH_TOOL`
    /// (`switch_tool`) and `ESCALATE` (`escalate`).
    ///
    /// Only this rule reports them: they are not also reported as unknown verbs (SL101).
    ///
    /// ## Why is this bad?
    /// The draft says they MUST NOT be used as action codes: neither is a single token
    /// on any tested tokenizer (2–3 tokens), and `ESCALATE` splits off the fragment
    /// "ate", which has a meaning of its own.
    ///
    /// ## Example
    /// ```silp
    /// if weather>rain: switch_tool(indoor_activity)
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// if weather>rain: switch(indoor_activity)
    /// ```
    ///
    /// ## Fix
    /// `SWITCH_TOOL` is replaced by `SWITCH` (safe: the draft names it as the
    /// replacement). `ESCALATE` has no single-token replacement; the reference code's
    /// `RAISE` is not approved either, so choose a whitelisted verb by hand.
    pub struct ExcludedVerb {
        code: "SL102",
        name: "excluded-verb",
        severity: Error,
        hooks: [Ir],
    }
}

impl Rule for ExcludedVerb {
    fn check_ir(&self, ctx: &mut Context, ir: &Ir) {
        for verb in &ir.verbs {
            let Some((excluded, replacement)) = excluded_verb(&verb.normalized) else {
                continue;
            };
            // The replacement as written, and where it goes: inside the quotes of a
            // JSON string, and only when the string holds no escapes.
            let fix = replacement.map(|replacement| match verb.form {
                VerbForm::ActionCode => (
                    format!("!{replacement}"),
                    (ctx.slice(&verb.span) == format!("\"{}\"", verb.text))
                        .then(|| verb.span.start + 1..verb.span.end - 1),
                ),
                VerbForm::FunctionName | VerbForm::ActionKey => {
                    (replacement.to_lowercase(), Some(verb.span.clone()))
                }
            });
            let reported = ctx.report(
                &Self::META,
                verb.span.clone(),
                format!("`{}` is excluded from the verb whitelist", verb.text),
            );
            match fix {
                Some((written, span)) => {
                    let reported = reported.help(format!("use `{written}`"));
                    if let Some(span) = span {
                        reported.fix(Fix::safe(
                            format!("Replace with `{written}`"),
                            vec![Edit::replace(span, written)],
                        ));
                    }
                }
                None => {
                    reported.help(format!(
                        "`{excluded}` has no single-token replacement; choose a whitelisted verb"
                    ));
                }
            }
        }
    }
}
