use super::{declare_rule, Context, Rule};
use crate::diagnostics::RuleMeta;
use crate::schema::{self, Messages, PayloadSchema};
use crate::syntax::json::{JsonMember, JsonNode};

declare_rule! {
    /// ## What it does
    /// Checks an IR document (a JSON object with `silp`, `version`, `entities` or
    /// `meta`) against the draft's normative JSON Schema: unknown root fields, missing
    /// `intent`, `meta`, `meta.req_id`, entity `id`/`value` or alternative `action`,
    /// values of the wrong type, `confidence` outside 0..1, a `silp` version not of
    /// the form `v1`. It also reports a key written twice in the same object.
    ///
    /// A document with a key written twice is validated as JSON parsers read it: the
    /// last value counts. A required field that is missing or not a string (`action`,
    /// `id`, `value`, `type`) is reported once, here, not again as an empty action
    /// code or value.
    ///
    /// A JSON-frontend payload (an object without those keys) is checked against
    /// the frontend's own schema by `json-frontend-violation` (SL410).
    /// `silp-lint convert` refuses a document that breaks the schema, with the
    /// message reported here (a key written twice it reads as JSON parsers do).
    ///
    /// ## Why is this bad?
    /// A receiver validates payloads against this schema and rejects a document that
    /// breaks it. A key written twice is worse: JSON parsers keep only the last value,
    /// silently dropping the first.
    ///
    /// Violations that a more specific rule explains are left to that rule: the
    /// `req_id` pattern (SL301), action-code spelling (SL103, SL202) and `null` in an
    /// optional string field (SL408).
    ///
    /// ## Example
    /// ```json
    /// {"intent": "!START", "priority": 1, "meta": {"req_id": "a1b2c3d4", "confidence": 1.5}}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"intent": "!START", "meta": {"req_id": "a1b2c3d4", "priority": 1, "confidence": 0.9}}
    /// ```
    ///
    /// ## Fix
    /// No automatic fix. The message names the JSON pointer of the offending value and
    /// what the schema wanted there.
    pub struct SchemaViolation {
        code: "SL401",
        name: "schema-violation",
        severity: Error,
        hooks: [Json],
    }
}

impl Rule for SchemaViolation {
    fn check_json(&self, ctx: &mut Context, object: &JsonNode, is_ir_document: bool) {
        if !is_ir_document || !ctx.enabled(&Self::META) {
            return;
        }
        let duplicates = object.duplicate_keys();
        let messages = messages_kept(ctx, &Self::META);
        let schema = PayloadSchema::IrDocument;
        for violation in schema::validate(schema, object, !duplicates.is_empty(), messages) {
            ctx.report(&Self::META, violation.span, violation.message);
        }
        report_duplicate_keys(ctx, &Self::META, duplicates);
    }
}

/// Whether the violations `rule` reports now are worded: not past its limit in
/// the file, where they are only counted.
pub(super) fn messages_kept(ctx: &Context, rule: &RuleMeta) -> Messages {
    if ctx.keeps_message(rule) {
        Messages::Worded
    } else {
        Messages::Omitted
    }
}

/// Reports each key written a second time in the same object.
pub(super) fn report_duplicate_keys<'a>(
    ctx: &mut Context,
    rule: &'static RuleMeta,
    duplicates: impl IntoIterator<Item = &'a JsonMember>,
) {
    for member in duplicates {
        ctx.report(
            rule,
            member.key_span.clone(),
            format!(
                "duplicate key `{}`: JSON parsers keep only the last one",
                member.key
            ),
        )
        .help("remove one of the two members");
    }
}
