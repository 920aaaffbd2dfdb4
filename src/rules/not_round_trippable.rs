use super::{declare_rule, Context, Rule};
use crate::ir::compile::code_losses;
use crate::ir::{Ir, Origin};

declare_rule! {
    /// ## What it does
    /// Reports a value in an IR document or a JSON-frontend payload that the code
    /// frontend cannot carry, so that compiling the payload to code and decoding it
    /// again would not give the same IR.
    ///
    /// It fires on:
    /// - a value, id, type, time, subject, target or location holding white space
    ///   or a delimiter `( ) , ; : @ = < > !`, or empty (`bob@example.com` too: the
    ///   grammar's values exclude `@`, which splits a target from its location);
    /// - a negated constraint (`"type": "!rain"`) whose value is not `"true"`, or
    ///   that has a subject; a comparison (with an `operator`) that has a subject;
    ///   an operator the code frontend does not read back;
    /// - a two-argument condition that reads back the other way: a subject with a
    ///   value starting `t+`/`t-` (read as a time), or a time not starting with
    ///   `t+`/`t-` without a subject (read as subject and value);
    /// - an action code whose function name is a keyword (`if`, `and`, `else`,
    ///   `then`, `with`); a malformed action code such as `!cancel` is reported by
    ///   `malformed-action-code` (SL103) instead;
    /// - a constraint type that the code frontend cannot write as a condition's
    ///   name in canonical form: one with upper-case letters (`isOpen`: the grammar's
    ///   names are lower case, and SL104 reports `isOpen(store)` in code), or one
    ///   that starts with `#` (after the space before it, `#` starts a comment in a
    ///   `.silp` file), as is a comparison's time that starts with `#`.
    ///
    /// So what `convert --to code` prints from an IR this rule passes, `check`
    /// passes too (a property test holds it on generated IRs).
    ///
    /// In a code payload, `target@location` in a primary call parses and keeps the
    /// whole text as the value. An IR value holding `@` is still reported, as rules.md
    /// lists it: not every decoder reads it back whole.
    ///
    /// ## Why is this bad?
    /// SILP promises a lossless codec: `decode(compile(ir))` must equal `ir` for the
    /// code and JSON frontends (draft §4.6). A payload that holds such a value is
    /// silently changed, or cannot be read back at all, when an agent relays it in
    /// the code frontend: `"value": "New York"` compiles to `book(New York)`, which
    /// does not parse.
    ///
    /// ## Example
    /// ```json
    /// {"intent": "!BOOK", "act": "New York", "constraints": [{"type": "!rain", "value": "false"}]}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"intent": "!BOOK", "act": "New_York", "constraints": [{"type": "rain", "value": "false"}]}
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: rewrite the value as one word (`New_York`, `t+1pm`), or
    /// move the meaning to a field the code frontend prints.
    pub struct NotRoundTrippable {
        code: "SL502",
        name: "not-round-trippable",
        severity: Warning,
        hooks: [Ir],
    }
}

impl Rule for NotRoundTrippable {
    fn check_ir(&self, ctx: &mut Context, ir: &Ir) {
        if ir.origin == Origin::Code || !ctx.enabled(&Self::META) {
            return;
        }
        for loss in code_losses(ir) {
            ctx.report(&Self::META, loss.span, loss.message)
                .help("compiled to the code frontend, this IR would not read back as it is, or not from canonical code");
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::lint::lint_text;
    use crate::settings::Settings;
    use crate::source::FileKind;

    fn sl502(text: &str, kind: FileKind) -> Vec<String> {
        lint_text(text, kind, &Settings::default())
            .diagnostics
            .iter()
            .filter(|d| d.rule.code == "SL502")
            .map(|d| text[d.span.clone()].to_string())
            .collect()
    }

    #[test]
    fn reports_values_the_code_frontend_cannot_carry() {
        let text = r#"{"intent":"!BOOK","act":"New York","city":"a,b","when":"t+1pm","action_email":["x y"],"to":"bob@example.com","constraints":[{"type":"!rain","value":"false"},{"type":"due","value":"report","time":"tomorrow"},{"type":"x","value":"1","operator":">","subject":"me"}],"alternatives":[{"action":"!START","target":"a@b"}]}"#;
        assert_eq!(
            sl502(text, FileKind::SilpJson),
            [
                r#""New York""#,
                r#""a,b""#,
                r#""x y""#,
                r#""bob@example.com""#,
                r#""false""#,
                r#""tomorrow""#,
                r#""me""#,
                r#""a@b""#
            ]
        );
    }

    #[test]
    fn quiet_on_values_that_round_trip_and_on_code_payloads() {
        let text = r#"{"intent":"!UPDATE","act":"5_Tianfu_Ave","x":"90%","y":"4.0","z":"北京","constraints":[{"type":"!rain","value":"true","time":"t+1"},{"type":"loc","value":"Beijing","time":"t+1am","subject":"me"}]}"#;
        assert!(sl502(text, FileKind::SilpJson).is_empty());
        assert!(sl502("cancel(a b)", FileKind::Silp).is_empty());
    }
}
