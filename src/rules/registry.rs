//! Every rule, in code order. Adding a rule: one file in `rules/`, one `mod` line in
//! `rules/mod.rs`, one line here, one fixture folder in `tests/fixtures/`.

use super::*;

/// All rules, sorted by code.
pub static RULES: &[&dyn Rule] = &[
    &invalid_syntax::InvalidSyntax,
    &schema_violation::SchemaViolation,
    &null_optional_field::NullOptionalField,
];

/// The rule with this code (case-insensitive), or with this name.
pub fn find(code_or_name: &str) -> Option<&'static dyn Rule> {
    RULES.iter().copied().find(|rule| {
        let meta = rule.meta();
        meta.code.eq_ignore_ascii_case(code_or_name) || meta.name == code_or_name
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_sorted_unique_and_documented() {
        for pair in RULES.windows(2) {
            assert!(
                pair[0].meta().code < pair[1].meta().code,
                "{} before {}",
                pair[0].meta().code,
                pair[1].meta().code
            );
        }
        for rule in RULES {
            let doc = rule.meta().documentation();
            for section in [
                "## What it does",
                "## Why is this bad?",
                "## Example",
                "## Fix",
            ] {
                assert!(
                    doc.contains(section),
                    "{} lacks {section}",
                    rule.meta().code
                );
            }
        }
    }
}
