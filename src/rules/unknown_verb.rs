use super::{declare_rule, Context, Rule};
use crate::diagnostics::Severity;
use crate::ir::{Ir, VerbForm};
use crate::settings::Draft;
use crate::vocabulary::{excluded_verb, is_known_verb, suggest_verb, VERBS};

declare_rule! {
    /// ## What it does
    /// Reports a verb that is not one of the 13 whitelisted SILP verbs (`cancel`,
    /// `start`, `email`, `fetch`, `process`, `translate`, `book`, `route`, `search`,
    /// `update`, `suggest`, `switch`, `notify`) nor added with `extend-verbs`: a
    /// code-frontend call or alternative name, a `!VERB` in `intent`,
    /// `entities[].action`, `alternatives[].action` or `meta.seq`, or the verb of a
    /// JSON-frontend `action_<verb>` key.
    ///
    /// The severity depends on the draft revision (`draft`, `--draft`): under -00
    /// the whitelist is enforced and every such verb is an error; from -01 on (the
    /// default is -02) the whitelist is advisory — the schema permits any
    /// `!UPPERCASE_VERB` — so a well-formed verb outside it (upper-case ASCII letters
    /// and single `_` between them, once normalised) is a warning. A verb that is not
    /// even well formed stays an error. A configured `[severity]` wins over both.
    ///
    /// ## Why is this bad?
    /// The whitelist is what makes SILP stable across models: each verb is verified to
    /// be one token on six production tokenizers. Any other verb may split into
    /// several tokens and be read differently by different receivers.
    ///
    /// ## Example
    /// ```silp
    /// begin(hike)
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// start(hike)
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: a look-alike verb may mean something else. The help names the
    /// closest whitelisted verb by spelling (`strat` → `start`), or the one a common
    /// synonym means (`begin` → `start`, `stop` → `cancel`, `find` → `search`). Installation-specific verbs can be
    /// allowed with `extend-verbs` in `silp-lint.toml`.
    pub struct UnknownVerb {
        code: "SL101",
        name: "unknown-verb",
        severity: Error,
        hooks: [Ir],
    }
}

/// Whether a normalised verb has the action-code ABNF's shape: upper-case ASCII
/// letters, single `_` between them.
fn is_well_formed(verb: &str) -> bool {
    verb.split('_')
        .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_uppercase()))
}

impl Rule for UnknownVerb {
    fn check_ir(&self, ctx: &mut Context, ir: &Ir) {
        for verb in &ir.verbs {
            let normalized = verb.normalized.as_str();
            if normalized.is_empty()
                || is_known_verb(normalized, ctx.settings())
                || excluded_verb(normalized).is_some()
            {
                continue;
            }
            // From -01 on the whitelist is advisory: a well-formed verb is a warning.
            let severity = if ctx.settings().draft >= Draft::D01 && is_well_formed(normalized) {
                Severity::Warning
            } else {
                Severity::Error
            };
            if !ctx.keeps_message(&Self::META) {
                // The fix engine's lint keeps the rule and place alone: no message,
                // and no suggestion for its help.
                ctx.report_at_default(&Self::META, severity, verb.span.clone(), String::new());
                continue;
            }
            let candidates = VERBS
                .iter()
                .copied()
                .chain(ctx.settings().extend_verbs.iter().map(String::as_str));
            let suggestion = suggest_verb(normalized, candidates).map(|s| match verb.form {
                VerbForm::ActionCode => format!("!{s}"),
                VerbForm::FunctionName | VerbForm::ActionKey => s.to_lowercase(),
            });
            let reported = ctx.report_at_default(
                &Self::META,
                severity,
                verb.span.clone(),
                format!("`{}` is not a whitelisted verb", verb.text),
            );
            if let Some(suggestion) = suggestion {
                reported.help(format!("did you mean `{suggestion}`?"));
            }
        }
    }
}
