//! Every rule, in code order. Adding a rule: one file in `rules/`, one `mod` line in
//! `rules/mod.rs`, one line here, one fixture folder in `tests/fixtures/`.

use super::*;

/// All rules, sorted by code.
pub static RULES: &[&dyn Rule] = &[
    &invalid_syntax::InvalidSyntax,
    &unknown_verb::UnknownVerb,
    &excluded_verb::ExcludedVerb,
    &malformed_action_code::MalformedActionCode,
    &function_name_case::FunctionNameCase,
    &zero_width_character::ZeroWidthCharacter,
    &confusable_character::ConfusableCharacter,
    &bidi_control::BidiControl,
    &invisible_character::InvisibleCharacter,
    &invalid_req_id::InvalidReqId,
    &short_req_id::ShortReqId,
    &duplicate_req_id::DuplicateReqId,
    &schema_violation::SchemaViolation,
    &unsupported_version::UnsupportedVersion,
    &unsupported_frontend::UnsupportedFrontend,
    &invalid_session_id::InvalidSessionId,
    &duplicate_entity_id::DuplicateEntityId,
    &invalid_operator::InvalidOperator,
    &unknown_seq_item::UnknownSeqItem,
    &null_optional_field::NullOptionalField,
    &lossy_frontend_negation::LossyFrontendNegation,
    &not_round_trippable::NotRoundTrippable,
    &invalid_heartbeat::InvalidHeartbeat,
    &non_canonical_form::NonCanonicalForm,
    &nonstandard_syntax::NonstandardSyntax,
    &unknown_anchor::UnknownAnchor,
    &fallback_without_payload::FallbackWithoutPayload,
    &unsupported_slip_version::UnsupportedSlipVersion,
    &invalid_agent_id::InvalidAgentId,
    &non_portable_payload::NonPortablePayload,
    &nlip_envelope_violation::NlipEnvelopeViolation,
    &nlip_key_case::NlipKeyCase,
    &unused_suppression::UnusedSuppression,
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
