use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::schema::OPTIONAL_STRING_FIELDS;
use crate::syntax::json::{member_removal_span, JsonNode, JsonValue};

declare_rule! {
    /// ## What it does
    /// Reports an optional field set to `null`: `meta.next_agent`, `meta.session_id`,
    /// a constraint's `time`, an alternative's `target` or `location`, an entity's
    /// `action`, and likewise the other optional strings of the schema: `silp`,
    /// `version` and `meta.out`.
    ///
    /// The table row of rules.md names the first six fields; its placement paragraph
    /// gives `null` in any optional string field to this rule. So `silp`, `version`
    /// and `meta.out` are reported here (info), not by `schema-violation` (SL401).
    ///
    /// ## Why is this bad?
    /// The normative schema types these fields as strings, so a strict validator
    /// rejects `null` there. An absent field already means "none", and costs no
    /// tokens.
    ///
    /// ## Example
    /// ```json
    /// {"intent": "!START", "meta": {"req_id": "a1b2c3d4", "next_agent": null}}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"intent": "!START", "meta": {"req_id": "a1b2c3d4"}}
    /// ```
    ///
    /// ## Fix
    /// Removes the member, with one comma beside it so the JSON stays valid (safe).
    pub struct NullOptionalField {
        code: "SL408",
        name: "null-optional-field",
        severity: Info,
        hooks: [Json],
    }
}

impl Rule for NullOptionalField {
    fn check_json(&self, ctx: &mut Context, object: &JsonNode, _is_ir_document: bool) {
        if !ctx.enabled(&Self::META) {
            return;
        }
        // Most payloads hold no `null` at all: their text says so faster than nine
        // walks of the tree would.
        let written = ctx.text().as_bytes().get(object.span.clone());
        if written.is_some_and(|bytes| null_finder().find(bytes).is_none()) {
            return;
        }
        let mut found = Vec::new();
        for pattern in OPTIONAL_STRING_FIELDS {
            null_members(object, pattern.trim_start_matches('/'), &mut found);
        }
        found.sort_by_key(|(parent, index)| parent.members()[*index].key_span.start);
        for (parent, index) in found {
            let member = &parent.members()[index];
            let Some(removal) = member_removal_span(parent, index) else {
                continue;
            };
            ctx.report(
                &Self::META,
                member.span(),
                format!(
                    "`{}` is `null`: the schema types this optional field as a string; omit it instead",
                    member.key
                ),
            )
            .fix(Fix::safe(
                format!("remove `{}`", member.key),
                vec![Edit::delete(removal)],
            ));
        }
    }
}

/// Collects `(object, member index)` for every member named by the pointer pattern
/// `path` (keys separated by `/`, `*` for any array element) whose value is `null`.
fn null_members<'a>(node: &'a JsonNode, path: &str, out: &mut Vec<(&'a JsonNode, usize)>) {
    let (first, rest) = path.split_once('/').unwrap_or((path, ""));
    match &node.value {
        JsonValue::Object(members) => {
            for (index, member) in members.iter().enumerate() {
                if member.key != first {
                    continue;
                }
                if rest.is_empty() {
                    if member.value.is_null() {
                        out.push((node, index));
                    }
                } else {
                    null_members(&member.value, rest, out);
                }
            }
        }
        JsonValue::Array(items) if first == "*" && !rest.is_empty() => {
            for item in items {
                null_members(item, rest, out);
            }
        }
        _ => {}
    }
}

/// The searcher for `null`, built once: building one per payload cost more than
/// the search.
fn null_finder() -> &'static memchr::memmem::Finder<'static> {
    static FINDER: std::sync::OnceLock<memchr::memmem::Finder<'static>> =
        std::sync::OnceLock::new();
    FINDER.get_or_init(|| memchr::memmem::Finder::new(b"null"))
}
