//! Every rule, in code order. Adding a rule: one file in `rules/`, one `mod` line in
//! `rules/mod.rs`, one line here, one fixture folder in `tests/fixtures/`.

use super::*;
use crate::settings::RuleSet;

/// Lists the rules in code order: each gets its [`RuleId`] (its position, named
/// after the rule's struct in `id`) and its place in [`RULES`].
macro_rules! registry {
    ($($module:ident::$rule:ident),* $(,)?) => {
        /// Each rule's id, named after its struct (what `declare_rule!` refers to).
        #[allow(non_upper_case_globals)]
        pub mod id {
            use crate::diagnostics::RuleId;

            #[repr(u8)]
            enum Position {
                $($rule),*
            }

            $(pub const $rule: RuleId = RuleId::new(Position::$rule as u8);)*
        }

        /// All rules, sorted by code; a rule's id is its index here.
        pub static RULES: &[&dyn Rule] = &[$(&$module::$rule),*];

        /// Each rule's source, beside [`RULES`]: what the test of declared hooks reads.
        #[cfg(test)]
        static SOURCES: &[&str] = &[$(include_str!(concat!(stringify!($module), ".rs"))),*];
    };
}

registry! {
    invalid_syntax::InvalidSyntax,
    unknown_verb::UnknownVerb,
    excluded_verb::ExcludedVerb,
    malformed_action_code::MalformedActionCode,
    function_name_case::FunctionNameCase,
    zero_width_character::ZeroWidthCharacter,
    confusable_character::ConfusableCharacter,
    bidi_control::BidiControl,
    invisible_character::InvisibleCharacter,
    invalid_req_id::InvalidReqId,
    short_req_id::ShortReqId,
    duplicate_req_id::DuplicateReqId,
    schema_violation::SchemaViolation,
    unsupported_version::UnsupportedVersion,
    unsupported_frontend::UnsupportedFrontend,
    invalid_session_id::InvalidSessionId,
    duplicate_entity_id::DuplicateEntityId,
    invalid_operator::InvalidOperator,
    unknown_seq_item::UnknownSeqItem,
    null_optional_field::NullOptionalField,
    undefined_seq_keyword::UndefinedSeqKeyword,
    json_frontend_violation::JsonFrontendViolation,
    undecodable_payload::UndecodablePayload,
    lossy_frontend_negation::LossyFrontendNegation,
    not_round_trippable::NotRoundTrippable,
    invalid_heartbeat::InvalidHeartbeat,
    non_canonical_form::NonCanonicalForm,
    nonstandard_syntax::NonstandardSyntax,
    unknown_anchor::UnknownAnchor,
    fallback_without_payload::FallbackWithoutPayload,
    unsupported_slip_version::UnsupportedSlipVersion,
    invalid_agent_id::InvalidAgentId,
    non_portable_payload::NonPortablePayload,
    a2a_extension_violation::A2aExtensionViolation,
    ucr_hash_mismatch::UcrHashMismatch,
    non_space_delimiter::NonSpaceDelimiter,
    non_alphanumeric_anchor::NonAlphanumericAnchor,
    nlip_envelope_violation::NlipEnvelopeViolation,
    nlip_key_case::NlipKeyCase,
    nlip_format_case::NlipFormatCase,
    mcp_wrapper_violation::McpWrapperViolation,
    unused_suppression::UnusedSuppression,
}

/// The rules a selector names: a whole code or a prefix (`SL1`), case-insensitive,
/// or `ALL`. Empty when it names none.
pub fn matching(selector: &str) -> RuleSet {
    let selector = selector.trim();
    let upper = selector.to_ascii_uppercase();
    let mut set = RuleSet::EMPTY;
    for rule in RULES {
        let meta = rule.meta();
        if upper == "ALL" || (!upper.is_empty() && meta.code.starts_with(&upper)) {
            set.insert(meta.id);
        }
    }
    set
}

/// The rules a selector names explicitly: all it matches, but none for `ALL`, which
/// selects every rule only where each applies by default (see SL605).
pub fn named_explicitly(selector: &str) -> RuleSet {
    if selector.trim().eq_ignore_ascii_case("ALL") {
        RuleSet::EMPTY
    } else {
        matching(selector)
    }
}

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
    fn a_rules_id_is_its_position() {
        for (index, rule) in RULES.iter().enumerate() {
            assert_eq!(rule.meta().id.index(), index, "{}", rule.meta().code);
        }
        assert!(RULES.len() <= RuleSet::CAPACITY);
    }

    /// A hook a rule overrides but does not declare would never be called, and its
    /// diagnostics would vanish without a failing fixture if none covered them.
    #[test]
    fn each_rule_declares_the_hooks_its_source_overrides() {
        assert_eq!(SOURCES.len(), RULES.len());
        for (rule, source) in RULES.iter().zip(SOURCES) {
            let overridden: Vec<Hook> = Hook::ALL
                .into_iter()
                .filter(|hook| source.contains(&format!("fn {}(", hook.method())))
                .collect();
            assert_eq!(rule.hooks(), overridden, "{}", rule.meta().code);
        }
    }

    #[test]
    fn selectors_name_codes_and_prefixes() {
        assert!(matching("SL101").contains(unknown_verb::UnknownVerb::META.id));
        assert!(matching("sl1").contains(excluded_verb::ExcludedVerb::META.id));
        assert!(!matching("SL1").contains(invalid_syntax::InvalidSyntax::META.id));
        assert_eq!(matching("all").len(), RULES.len());
        assert!(matching("SL999").is_empty());
        assert!(matching("").is_empty());
        assert!(named_explicitly(" all ").is_empty());
        assert_eq!(named_explicitly("SL6"), matching("SL6"));
    }

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
