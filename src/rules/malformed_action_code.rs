use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::ir::{Ir, VerbForm};

declare_rule! {
    /// ## What it does
    /// Reports an action code that does not match the draft's ABNF
    /// `"!" 1*UPPER *("_" 1*UPPER)`: lower case (`!cancel`), a missing `!`
    /// (`CANCEL`), digits, or a leading, trailing or double underscore.
    ///
    /// ## Why is this bad?
    /// Receivers validate action codes against this pattern (the normative schema
    /// uses `^![A-Z][A-Z_]*$`) and reject the payload, and the code frontend derives
    /// function names from it (`!CANCEL` -> `cancel`).
    ///
    /// ## Example
    /// ```json
    /// {"intent": "!cancel", "meta": {"req_id": "a1b2c3d4"}}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"intent": "!CANCEL", "meta": {"req_id": "a1b2c3d4"}}
    /// ```
    ///
    /// ## Fix
    /// Upper-casing the code (safe) when that alone makes it valid; otherwise rewrite
    /// it by hand.
    pub struct MalformedActionCode {
        code: "SL103",
        name: "malformed-action-code",
        severity: Error,
        hooks: [Ir],
    }
}

/// Whether `code` matches `"!" 1*UPPER *("_" 1*UPPER)`.
pub fn is_well_formed(code: &str) -> bool {
    let Some(verb) = code.strip_prefix('!') else {
        return false;
    };
    // One pass: each `_` must follow a letter, and the code must end on one.
    let mut after_letter = false;
    for &byte in verb.as_bytes() {
        match byte {
            b'A'..=b'Z' => after_letter = true,
            b'_' if after_letter => after_letter = false,
            _ => return false,
        }
    }
    after_letter
}

impl Rule for MalformedActionCode {
    fn check_ir(&self, ctx: &mut Context, ir: &Ir) {
        for verb in ir.verbs.iter().filter(|v| v.form == VerbForm::ActionCode) {
            if is_well_formed(&verb.text) {
                continue;
            }
            let upper = verb.text.to_ascii_uppercase();
            // The span covers the JSON string with its quotes; edit inside them.
            let fixable =
                is_well_formed(&upper) && ctx.slice(&verb.span) == format!("\"{}\"", verb.text);
            let reported = ctx.report(
                &Self::META,
                verb.span.clone(),
                format!(
                    "`{}` is not a valid action code (`!` then upper-case words joined by `_`)",
                    verb.text
                ),
            );
            if fixable {
                let inner = verb.span.start + 1..verb.span.end - 1;
                reported.fix(Fix::safe(
                    format!("Upper-case to `{upper}`"),
                    vec![Edit::replace(inner, upper)],
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_well_formed;

    #[test]
    fn follows_the_abnf() {
        for good in ["!CANCEL", "!SWITCH_TOOL", "!A"] {
            assert!(is_well_formed(good), "{good}");
        }
        for bad in [
            "CANCEL", "!cancel", "!", "!_A", "!A_", "!A__B", "!A1", "!ÄB",
        ] {
            assert!(!is_well_formed(bad), "{bad}");
        }
    }
}
