use super::schema_violation::{messages_kept, report_duplicate_keys};
use super::{declare_rule, Context, Rule};
use crate::ir::from_json::{frontend_slot, ForeignPayload, FrontendSlot};
use crate::schema::{self, PayloadSchema};
use crate::syntax::json::{JsonMember, JsonNode};

declare_rule! {
    /// ## What it does
    /// Checks a JSON-frontend payload (a JSON object without the IR-only keys
    /// `silp`, `version`, `entities` and `meta`) against the frontend's shape: a
    /// required string `intent`, `constraints` and `alternatives` as in the IR,
    /// `action_<verb>` slots holding a string or an array of strings, and every
    /// other key an entity holding a string or a number. It also reports a key
    /// written twice, except an entity's (`duplicate-entity-id`, SL405, reports those).
    ///
    /// The shape is a JSON Schema shipped as `data/silp-json-frontend.schema.json`.
    /// The draft shows this frontend by example only (§4.2), so the schema follows
    /// that example and what the reference decoder reads. Its constraint and
    /// alternative items are the IR schema's (`type` and `value` strings, `action`
    /// a string, optional strings `time`, `target`, `location`, extra keys allowed).
    /// A `true` or `false` entity value is reported: the reference decoder reads it
    /// as `"True"`, which no frontend writes back.
    ///
    /// This rule has a code of its own, apart from `schema-violation` (SL401),
    /// because its schema is silp-lint's reading rather than the draft's normative
    /// schema: a project can turn one off and keep the other. As for SL401, a
    /// violation that a more specific rule reports is left to it: action-code
    /// spelling (SL103, SL202) and `null` in an optional string field (SL408). An
    /// object without `intent` that has the shape of another payload (an nl_json
    /// payload, an NLIP message) is `undecodable-payload`'s (SL411).
    ///
    /// ## Why is this bad?
    /// A receiver cannot decode such a payload to the IR: the reference decoder
    /// fails on a missing `intent` or a constraint without `value`, and
    /// `silp-lint convert` refuses a payload that breaks the schema with the message
    /// reported here.
    ///
    /// ## Example
    /// ```json
    /// {"intent": "!BOOK", "act": "hotel", "constraints": [{"type": "loc"}]}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"intent": "!BOOK", "act": "hotel", "constraints": [{"type": "loc", "value": "Paris"}]}
    /// ```
    ///
    /// ## Fix
    /// No automatic fix. The message names the JSON pointer of the offending value and
    /// what the frontend's schema wanted there.
    pub struct JsonFrontendViolation {
        code: "SL410",
        name: "json-frontend-violation",
        severity: Error,
        hooks: [Json],
    }
}

impl Rule for JsonFrontendViolation {
    fn check_json(&self, ctx: &mut Context, object: &JsonNode, is_ir_document: bool) {
        if is_ir_document || !ctx.enabled(&Self::META) || ForeignPayload::of(object).is_some() {
            return;
        }
        let duplicates = object.duplicate_keys();
        let messages = messages_kept(ctx, &Self::META);
        let schema = PayloadSchema::JsonFrontend;
        for violation in schema::validate(schema, object, !duplicates.is_empty(), messages) {
            let lacks_intent = violation.pointer.is_empty() && violation.keyword == "required";
            let reported = ctx.report(&Self::META, violation.span, violation.message);
            if lacks_intent {
                reported.help("name the action the payload asks for, e.g. `\"intent\": \"!BOOK\"`");
            }
        }
        // A root key is an entity's when the frontend gives it no other meaning.
        let root = object.members().as_ptr_range();
        let is_entity = |member: &&JsonMember| {
            root.contains(&std::ptr::from_ref(*member))
                && frontend_slot(&member.key) == FrontendSlot::Entity
        };
        report_duplicate_keys(
            ctx,
            &Self::META,
            duplicates.into_iter().filter(|member| !is_entity(member)),
        );
    }
}
