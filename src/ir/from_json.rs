//! Decoding JSON payload objects (IR documents and JSON-frontend payloads) to the IR
//! (languages.md §1 and §3).

use crate::ir::{
    Alternative, Constraint, Entity, Extra, Ir, Meta, Origin, Spanned, Text, VerbForm, VerbUse,
};
use crate::syntax::json::{JsonMember, JsonNode, JsonValue};
use compact_str::CompactString;

/// The root keys that make an object an IR document.
pub const IR_DOCUMENT_KEYS: [&str; 4] = ["silp", "version", "entities", "meta"];

/// The fields the IR gives a meaning to, per object; others are kept as extras.
pub const ROOT_FIELDS: [&str; 7] = [
    "silp",
    "version",
    "intent",
    "entities",
    "constraints",
    "alternatives",
    "meta",
];
pub const META_FIELDS: [&str; 7] = [
    "req_id",
    "session_id",
    "priority",
    "confidence",
    "seq",
    "out",
    "next_agent",
];
pub const ENTITY_FIELDS: [&str; 3] = ["id", "value", "action"];
pub const CONSTRAINT_FIELDS: [&str; 5] = ["type", "value", "time", "subject", "operator"];
pub const ALTERNATIVE_FIELDS: [&str; 3] = ["action", "target", "location"];

/// The prefix of a JSON-frontend key holding a secondary action's values.
pub const ACTION_KEY_PREFIX: &str = "action_";

/// What a key of a JSON-frontend payload holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontendSlot<'a> {
    /// `intent`, `constraints` or `alternatives`.
    Field,
    /// `action_<verb>`: the values of a secondary action, with the verb as written.
    Action(&'a str),
    /// Any other key: a primary entity's id.
    Entity,
}

/// What the key `key` of a JSON-frontend payload holds.
pub fn frontend_slot(key: &str) -> FrontendSlot<'_> {
    if matches!(key, "intent" | "constraints" | "alternatives") {
        return FrontendSlot::Field;
    }
    match key.strip_prefix(ACTION_KEY_PREFIX) {
        Some(verb) if !verb.is_empty() => FrontendSlot::Action(verb),
        _ => FrontendSlot::Entity,
    }
}

/// Whether an object is an IR document (holds `silp`, `version`, `entities` or
/// `meta`) rather than a flat JSON-frontend payload.
pub fn is_ir_document(object: &JsonNode) -> bool {
    object
        .members()
        .iter()
        .any(|member| IR_DOCUMENT_KEYS.contains(&member.key.as_str()))
}

/// A JSON object without `intent` that has the shape of something other than a SILP
/// payload: what a `.silp.json` file holds when it got the wrong kind of object.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForeignPayload {
    /// `{"task_description": "..."}`: the nl_json frontend (draft §4.4), prose
    /// wrapped in JSON, which has no decoder.
    NlJson,
    /// An NLIP message (`format` and `content`, or `messagetype`).
    NlipMessage,
}

impl ForeignPayload {
    /// What `object` looks like, when it is neither an IR document nor a payload
    /// with an `intent` and has the shape of a known other payload.
    pub fn of(object: &JsonNode) -> Option<ForeignPayload> {
        if !object.is_object() || is_ir_document(object) || object.get("intent").is_some() {
            return None;
        }
        let has = |key: &str| {
            object
                .members()
                .iter()
                .any(|member| member.key.eq_ignore_ascii_case(key))
        };
        if object.get("task_description").is_some() {
            Some(ForeignPayload::NlJson)
        } else if has("messagetype") || (has("format") && has("content")) {
            Some(ForeignPayload::NlipMessage)
        } else {
            None
        }
    }

    /// Says what the object looks like and why it is not linted as a payload.
    pub fn message(self) -> &'static str {
        match self {
            ForeignPayload::NlJson => {
                "this looks like an nl_json frontend payload (`task_description`): a one-way \
                 prose frontend that silp-lint cannot check and no receiver decodes back to the IR"
            }
            ForeignPayload::NlipMessage => {
                "this looks like an NLIP message, not a SILP payload: silp-lint checks NLIP \
                 messages in `*.nlip.json` files"
            }
        }
    }
}

/// Decodes one payload object, skipping fields whose JSON type is wrong (the schema
/// rule reports those). A field written twice decodes to its last value, as JSON
/// parsers do; `null` in an optional field decodes as absent.
pub fn decode(object: &JsonNode) -> Ir {
    let mut ir = if is_ir_document(object) {
        decode_document(object)
    } else {
        decode_frontend(object)
    };
    ir.span = object.span.clone();
    ir.verbs.sort_by_key(|verb| verb.span.start);
    ir
}

/// The `meta.req_id` a payload object writes, as [`decode`] reads it: only IR
/// documents write one (the frontends' ids are regenerated on decoding).
pub fn written_req_id(object: &JsonNode) -> Option<Text> {
    if !is_ir_document(object) {
        return None;
    }
    meta_of(object).and_then(|meta| text(meta, "req_id"))
}

/// An IR document's `meta`, when it is an object.
fn meta_of(object: &JsonNode) -> Option<&JsonNode> {
    object.get("meta").filter(|node| node.is_object())
}

fn decode_document(object: &JsonNode) -> Ir {
    let ([silp, version, intent, entities, constraint_list, alternative_list, meta], _) =
        fields(object, &ROOT_FIELDS);
    let mut ir = Ir {
        origin: Origin::IrDocument,
        silp: silp.and_then(as_text),
        version: version.and_then(as_text),
        intent: intent.and_then(as_text),
        ..Ir::default()
    };
    ir.entities.reserve_exact(array_len(entities));
    for node in objects(entities) {
        let ([id, value, action], has_extra) = fields(node, &ENTITY_FIELDS);
        ir.entities.push(Entity {
            id: text_or_empty(node, id),
            value: text_or_empty(node, value),
            action: action.and_then(as_text),
            span: node.span.clone(),
            extra: extras_if(has_extra, node, &ENTITY_FIELDS),
        });
    }
    ir.constraints = constraints(constraint_list);
    ir.alternatives = alternatives(alternative_list);
    if let Some(meta) = meta.filter(|node| node.is_object()) {
        let ([req_id, session_id, priority, confidence, seq, out, next_agent], has_extra) =
            fields(meta, &META_FIELDS);
        ir.meta = Meta {
            req_id: req_id.and_then(as_text),
            session_id: session_id.and_then(as_text),
            priority: priority.and_then(integer),
            confidence: confidence.and_then(number),
            seq: seq
                .and_then(JsonNode::as_array)
                .unwrap_or(&[])
                .iter()
                .filter_map(as_text)
                .collect(),
            out: out.and_then(as_text),
            next_agent: next_agent.and_then(as_text),
            span: Some(meta.span.clone()),
            extra: extras_if(has_extra, meta, &META_FIELDS),
        };
    }
    ir.verbs
        .reserve_exact(1 + ir.entities.len() + ir.alternatives.len() + ir.meta.seq.len());
    push_action_code(&mut ir.verbs, ir.intent.as_ref());
    for entity in &ir.entities {
        push_action_code(&mut ir.verbs, entity.action.as_ref());
    }
    for alternative in &ir.alternatives {
        push_action_code(&mut ir.verbs, Some(&alternative.action));
    }
    for item in &ir.meta.seq {
        if item.starts_with('!') {
            push_action_code(&mut ir.verbs, Some(item));
        }
    }
    ir
}

fn decode_frontend(object: &JsonNode) -> Ir {
    let mut ir = Ir {
        origin: Origin::JsonFrontend,
        intent: text(object, "intent"),
        constraints: constraints(object.get("constraints")),
        alternatives: alternatives(object.get("alternatives")),
        ..Ir::default()
    };
    ir.verbs.reserve_exact(1 + ir.alternatives.len());
    push_action_code(&mut ir.verbs, ir.intent.as_ref());
    for alternative in &ir.alternatives {
        push_action_code(&mut ir.verbs, Some(&alternative.action));
    }
    // At most one entity per member but for action keys with arrays of values.
    ir.entities.reserve_exact(object.members().len());
    for member in object.members() {
        match frontend_slot(&member.key) {
            FrontendSlot::Field => {}
            FrontendSlot::Action(verb) => push_action_values(&mut ir, member, verb),
            FrontendSlot::Entity => {
                if let Some(value) = scalar_text(&member.value) {
                    ir.entities.push(Entity {
                        id: Spanned::new(member.key.clone(), member.key_span.clone()),
                        value,
                        action: None,
                        span: member.span(),
                        extra: Vec::new(),
                    });
                }
            }
        }
    }
    ir
}

/// Decodes an `action_<verb>` member: its verb, and each value as an `act` entity of
/// the secondary action `!VERB`.
fn push_action_values(ir: &mut Ir, member: &JsonMember, verb: &str) {
    let verb_span = if member.key_is_verbatim() {
        let start = member.key_span.start + 1 + ACTION_KEY_PREFIX.len();
        start..start + verb.len()
    } else {
        member.key_span.clone()
    };
    let action = Spanned::new(super::upper_case_after(verb, "!"), verb_span.clone());
    ir.verbs
        .push(VerbUse::new(verb.into(), verb_span, VerbForm::ActionKey));
    // One value may be written without the array, as the reference decodes it.
    let values = match &member.value.value {
        JsonValue::Array(items) => items.as_slice(),
        _ => std::slice::from_ref(&member.value),
    };
    for item in values {
        if let Some(value) = scalar_text(item) {
            ir.entities.push(Entity {
                id: Spanned::new("act".into(), item.span.clone()),
                value,
                action: Some(action.clone()),
                span: item.span.clone(),
                extra: Vec::new(),
            });
        }
    }
}

fn constraints(list: Option<&JsonNode>) -> Vec<Constraint> {
    let mut constraints = Vec::with_capacity(array_len(list));
    constraints.extend(objects(list).map(|node| {
        let ([kind, value, time, subject, operator], has_extra) = fields(node, &CONSTRAINT_FIELDS);
        Constraint {
            kind: text_or_empty(node, kind),
            value: text_or_empty(node, value),
            time: time.and_then(as_text),
            subject: subject.and_then(as_text),
            operator: operator.and_then(as_text),
            span: node.span.clone(),
            extra: extras_if(has_extra, node, &CONSTRAINT_FIELDS),
        }
    }));
    constraints
}

fn alternatives(list: Option<&JsonNode>) -> Vec<Alternative> {
    let mut alternatives = Vec::with_capacity(array_len(list));
    alternatives.extend(objects(list).map(|node| {
        let ([action, target, location], has_extra) = fields(node, &ALTERNATIVE_FIELDS);
        Alternative {
            action: text_or_empty(node, action),
            target: target.and_then(as_text),
            location: location.and_then(as_text),
            span: node.span.clone(),
            extra: extras_if(has_extra, node, &ALTERNATIVE_FIELDS),
        }
    }));
    alternatives
}

/// The members of `object` named in `names`, found in one pass over its members:
/// for each name, the last member written with it (the one JSON parsers keep), and
/// whether a member has a name outside `names` (an extra).
fn fields<'a, const N: usize>(
    object: &'a JsonNode,
    names: &[&str; N],
) -> ([Option<&'a JsonNode>; N], bool) {
    let mut found = [None; N];
    let mut has_extra = false;
    for member in object.members() {
        let key = member.key.as_str();
        match names.iter().position(|name| *name == key) {
            Some(index) => found[index] = Some(&member.value),
            None => has_extra = true,
        }
    }
    (found, has_extra)
}

/// [`extras`], when [`fields`] saw a member outside `known`.
fn extras_if(has_extra: bool, object: &JsonNode, known: &[&str]) -> Vec<Extra> {
    if has_extra {
        extras(object, known)
    } else {
        Vec::new()
    }
}

/// The members of `object` outside `known`, as a JSON parser keeps them: a key
/// written twice has its first place and its last value.
fn extras(object: &JsonNode, known: &[&str]) -> Vec<Extra> {
    let mut extra: Vec<Extra> = Vec::new();
    for member in object.members() {
        if known.contains(&member.key.as_str()) {
            continue;
        }
        let value = member.value.to_serde();
        match extra.iter_mut().find(|e| e.node.0 == member.key) {
            Some(seen) => seen.node.1 = value,
            None => extra.push(Spanned::new(
                (member.key.to_string(), value),
                member.key_span.clone(),
            )),
        }
    }
    extra
}

/// The objects of an array field (other items and other types are skipped).
/// The length of an array, an upper bound of its [`objects`]: lists of them are
/// reserved at once, not doubled as they fill (a payload may list millions).
fn array_len(array: Option<&JsonNode>) -> usize {
    array
        .and_then(JsonNode::as_array)
        .map_or(0, <[JsonNode]>::len)
}

fn objects(array: Option<&JsonNode>) -> impl Iterator<Item = &JsonNode> {
    array
        .and_then(JsonNode::as_array)
        .unwrap_or(&[])
        .iter()
        .filter(|node| node.is_object())
}

fn as_text(node: &JsonNode) -> Option<Text> {
    match &node.value {
        JsonValue::String(value) => Some(Spanned::new(value.clone(), node.span.clone())),
        _ => None,
    }
}

/// A string field of an object; absent when missing, `null` or not a string.
fn text(object: &JsonNode, key: &str) -> Option<Text> {
    object.get(key).and_then(as_text)
}

/// A required string field, `field` of `object`; when missing or not a string
/// (SL401's to report), empty with an empty span at the object's start: rules skip
/// text that was not written.
fn text_or_empty(object: &JsonNode, field: Option<&JsonNode>) -> Text {
    field.and_then(as_text).unwrap_or_else(|| {
        Spanned::new(
            CompactString::default(),
            object.span.start..object.span.start,
        )
    })
}

/// A JSON-frontend value as a string: strings decoded, numbers as written, booleans
/// as `true`/`false`; `null`, arrays and objects carry no value.
fn scalar_text(node: &JsonNode) -> Option<Text> {
    let value = match &node.value {
        JsonValue::String(text) | JsonValue::Number(text) => text.clone(),
        JsonValue::Bool(value) => CompactString::const_new(if *value { "true" } else { "false" }),
        JsonValue::Null | JsonValue::Array(_) | JsonValue::Object(_) => return None,
    };
    Some(Spanned::new(value, node.span.clone()))
}

/// An integer (`2`, or `2.0`, which JSON Schema also counts as an integer).
fn integer(node: &JsonNode) -> Option<Spanned<i64>> {
    let JsonValue::Number(text) = &node.value else {
        return None;
    };
    let value = text.parse::<i64>().ok().or_else(|| {
        let float = text.parse::<f64>().ok()?;
        (float.fract() == 0.0 && float.abs() < 9.0e18).then_some(float as i64)
    })?;
    Some(Spanned::new(value, node.span.clone()))
}

fn number(node: &JsonNode) -> Option<Spanned<f64>> {
    let JsonValue::Number(text) = &node.value else {
        return None;
    };
    let value = text.parse::<f64>().ok().filter(|v| v.is_finite())?;
    Some(Spanned::new(value, node.span.clone()))
}

fn push_action_code(verbs: &mut Vec<VerbUse>, code: Option<&Text>) {
    if let Some(code) = code.filter(|code| !code.span.is_empty()) {
        verbs.push(VerbUse::new(
            code.node.clone(),
            code.span.clone(),
            VerbForm::ActionCode,
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Span;
    use crate::syntax::json::parse_json;

    fn decode_text(text: &str) -> Ir {
        let parse = parse_json(text, 0);
        assert!(parse.errors.is_empty(), "{:?}", parse.errors);
        decode(&parse.value.unwrap())
    }

    #[test]
    fn ir_documents_decode_with_spans() {
        let text = r#"{"silp":"v1","intent":"!CANCEL","entities":[{"id":"act","value":"hike"},{"id":"act","value":"a@b","action":"!EMAIL"}],"constraints":[{"type":"!rain","value":"true","time":"t+1"},{"type":"temp","value":"30","operator":">"}],"alternatives":[{"action":"!START","target":"cards","location":"indoor"}],"meta":{"req_id":"ab12","priority":2,"confidence":0.5,"seq":["!FETCH","parallel",3],"out":"code","next_agent":null,"session_id":"x1"}}"#;
        let ir = decode_text(text);
        let at = |span: &Span| &text[span.clone()];
        assert_eq!(ir.origin, Origin::IrDocument);
        assert_eq!(ir.span, 0..text.len());
        assert_eq!(at(&ir.intent.as_ref().unwrap().span), "\"!CANCEL\"");
        assert_eq!(ir.entities.len(), 2);
        assert_eq!(ir.entities[1].action.as_ref().unwrap().node, "!EMAIL");
        assert!(ir.is_primary(&ir.entities[0]));
        assert!(!ir.is_primary(&ir.entities[1]));
        assert!(ir.has_negation());
        assert_eq!(ir.constraints[0].time.as_ref().unwrap().node, "t+1");
        assert_eq!(ir.constraints[1].operator.as_ref().unwrap().node, ">");
        assert_eq!(ir.alternatives[0].location.as_ref().unwrap().node, "indoor");
        assert_eq!(ir.meta.req_id.as_ref().unwrap().node, "ab12");
        assert_eq!(ir.meta.priority.as_ref().unwrap().node, 2);
        assert_eq!(ir.meta.confidence.as_ref().unwrap().node, 0.5);
        assert_eq!(ir.meta.seq.len(), 2);
        assert!(ir.meta.next_agent.is_none());
        assert_eq!(ir.meta.session_id.as_ref().unwrap().node, "x1");
        assert!(at(ir.meta.span.as_ref().unwrap()).starts_with("{\"req_id\""));
        let verbs: Vec<(&str, &str)> = ir
            .verbs
            .iter()
            .map(|v| (v.text.as_str(), at(&v.span)))
            .collect();
        assert_eq!(
            verbs,
            [
                ("!CANCEL", "\"!CANCEL\""),
                ("!EMAIL", "\"!EMAIL\""),
                ("!START", "\"!START\""),
                ("!FETCH", "\"!FETCH\"")
            ]
        );
        assert!(ir.verbs.iter().all(|v| v.form == VerbForm::ActionCode));
    }

    /// As a JSON parser reads them: a field written twice has its last value, and
    /// members the IR has no field for are kept at their first place with their
    /// last value, in every object the IR reads fields of.
    #[test]
    fn repeated_fields_keep_their_last_value_and_unknown_members_are_kept() {
        let text = r#"{"intent":"!A","intent":"!B","silp":"v1","entities":[{"id":"x","value":"1","id":"y","note":1,"note":2},{"id":"z","value":"2"}],"constraints":[{"type":"t","value":"v","value":"w","why":true}],"alternatives":[{"action":"!C","target":"p","target":"q"}],"meta":{"req_id":"r1","tag":"a","req_id":"r2"}}"#;
        let ir = decode_text(text);
        let at = |span: &Span| &text[span.clone()];
        let extras = |extra: &[Extra]| -> Vec<(String, serde_json::Value, String)> {
            extra
                .iter()
                .map(|e| (e.node.0.clone(), e.node.1.clone(), at(&e.span).to_string()))
                .collect()
        };
        assert_eq!(ir.intent.as_ref().unwrap().node, "!B");
        assert_eq!(ir.entities[0].id.node, "y");
        assert_eq!(ir.entities[0].value.node, "1");
        assert_eq!(
            extras(&ir.entities[0].extra),
            [(
                "note".to_string(),
                serde_json::json!(2),
                "\"note\"".to_string()
            )]
        );
        assert!(ir.entities[1].extra.is_empty());
        assert_eq!(ir.constraints[0].value.node, "w");
        assert_eq!(
            extras(&ir.constraints[0].extra),
            [(
                "why".to_string(),
                serde_json::json!(true),
                "\"why\"".to_string()
            )]
        );
        assert_eq!(ir.alternatives[0].target.as_ref().unwrap().node, "q");
        assert!(ir.alternatives[0].extra.is_empty());
        assert_eq!(ir.meta.req_id.as_ref().unwrap().node, "r2");
        assert_eq!(extras(&ir.meta.extra).len(), 1);
        assert_eq!(ir.meta.extra[0].node.0, "tag");
    }

    #[test]
    fn an_action_key_decodes_its_verb_as_written() {
        // The action code keeps a `!` written in the key; the verb the whitelist
        // rules look up drops it.
        let ir = decode_text(r#"{"intent":"!START","action_!email":"x","action_book":"y"}"#);
        let actions: Vec<&str> = ir
            .entities
            .iter()
            .filter_map(|e| e.action.as_deref().map(CompactString::as_str))
            .collect();
        assert_eq!(actions, ["!!EMAIL", "!BOOK"]);
        let verbs: Vec<(&str, &str)> = ir
            .verbs
            .iter()
            .map(|v| (v.text.as_str(), v.normalized.as_str()))
            .collect();
        assert_eq!(
            verbs,
            [("!START", "START"), ("!email", "EMAIL"), ("book", "BOOK")]
        );
    }

    #[test]
    fn wrong_types_are_skipped_and_missing_parts_are_empty_at_the_object() {
        let text = r#"{"intent":5,"entities":[7,{"value":"x"}],"meta":{"req_id":12,"priority":"high","seq":"!X"}}"#;
        let ir = decode_text(text);
        assert!(ir.intent.is_none());
        assert_eq!(ir.entities.len(), 1);
        assert_eq!(ir.entities[0].id.node, "");
        let object = text.find(r#"{"value""#).unwrap();
        assert_eq!(ir.entities[0].id.span, object..object);
        assert!(ir.meta.req_id.is_none());
        assert!(ir.meta.priority.is_none());
        assert!(ir.meta.seq.is_empty());
        assert!(ir.verbs.is_empty());
        assert_eq!(
            decode_text(r#"{"meta":{"priority":3.0}}"#)
                .meta
                .priority
                .unwrap()
                .node,
            3
        );
    }

    /// Each entity's `(id, value, action)`.
    fn entity_triples(ir: &Ir) -> Vec<(&str, &str, Option<&str>)> {
        ir.entities
            .iter()
            .map(|e| {
                (
                    e.id.node.as_str(),
                    e.value.node.as_str(),
                    e.action.as_ref().map(|a| a.node.as_str()),
                )
            })
            .collect()
    }

    #[test]
    fn json_frontend_payloads_decode() {
        let text = r#"{"intent":"!START","act":"hike","when":3,"action_email":["a@b","c@d"],"constraints":[{"type":"!rain","value":"true"}],"alternatives":[{"action":"!START","target":"cards"}],"action_\u0066etch":["x"]}"#;
        let ir = decode_text(text);
        let at = |span: &Span| &text[span.clone()];
        assert_eq!(ir.origin, Origin::JsonFrontend);
        assert_eq!(ir.intent.as_ref().unwrap().node, "!START");
        let entities = entity_triples(&ir);
        assert_eq!(
            entities,
            [
                ("act", "hike", None),
                ("when", "3", None),
                ("act", "a@b", Some("!EMAIL")),
                ("act", "c@d", Some("!EMAIL")),
                ("act", "x", Some("!FETCH")),
            ]
        );
        assert_eq!(at(&ir.entities[0].id.span), "\"act\"");
        assert_eq!(at(&ir.entities[0].value.span), "\"hike\"");
        assert_eq!(ir.constraints.len(), 1);
        assert_eq!(ir.alternatives.len(), 1);
        assert_eq!(ir.primary_entities().count(), 2);
        let verbs: Vec<(&str, &str, VerbForm)> = ir
            .verbs
            .iter()
            .map(|v| (v.text.as_str(), at(&v.span), v.form))
            .collect();
        assert_eq!(
            verbs,
            [
                ("!START", "\"!START\"", VerbForm::ActionCode),
                ("email", "email", VerbForm::ActionKey),
                ("!START", "\"!START\"", VerbForm::ActionCode),
                ("fetch", "\"action_\\u0066etch\"", VerbForm::ActionKey),
            ]
        );
        assert_eq!(ir.meta, Meta::default());
    }

    #[test]
    fn documents_are_told_apart() {
        for (text, document) in [
            (r#"{"intent":"!START"}"#, false),
            (r#"{"meta":{}}"#, true),
            (r#"{"silp":"v1"}"#, true),
            (r#"{"version":"x"}"#, true),
            (r#"{"entities":[]}"#, true),
        ] {
            let node = parse_json(text, 0).value.unwrap();
            assert_eq!(is_ir_document(&node), document, "{text}");
        }
    }

    #[test]
    fn a_single_action_value_is_one_entity() {
        let ir = decode_text(r#"{"intent":"!CANCEL","action_email":"ops","action_":"x"}"#);
        let entities = entity_triples(&ir);
        assert_eq!(
            entities,
            [("act", "ops", Some("!EMAIL")), ("action_", "x", None)]
        );
    }

    #[test]
    fn other_payload_shapes_are_recognised_only_without_intent() {
        for (text, shape) in [
            (r#"{"task_description":"x"}"#, Some(ForeignPayload::NlJson)),
            (
                r#"{"format":"text","content":"x"}"#,
                Some(ForeignPayload::NlipMessage),
            ),
            (
                r#"{"MessageType":"request"}"#,
                Some(ForeignPayload::NlipMessage),
            ),
            (r#"{"intent":"!START","task_description":"x"}"#, None),
            (r#"{"meta":{},"task_description":"x"}"#, None),
            (r#"{"format":"text"}"#, None),
            (r#"{"act":"x"}"#, None),
        ] {
            let node = parse_json(text, 0).value.unwrap();
            assert_eq!(ForeignPayload::of(&node), shape, "{text}");
        }
    }
}
