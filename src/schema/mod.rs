//! Validation of payload objects against JSON Schemas, with each violation placed
//! on the bytes it is about: an unexpected key, a missing field's object, a wrong
//! value. IR documents follow the draft's normative schema
//! (`data/silp-ir.schema.json`, Draft 2020-12); JSON-frontend payloads follow
//! silp-lint's schema of that frontend (`data/silp-json-frontend.schema.json`).

use crate::source::Span;
use crate::syntax::json::{JsonMember, JsonNode};
use jsonschema::error::ValidationErrorKind;
use jsonschema::{Draft, ValidationError, Validator};
use node::SpannedJson;
use serde_json::Value;
use std::sync::OnceLock;

mod node;

/// The optional string fields of the IR, as JSON pointers (`*` for any array
/// index): `null` in them is SL408's to report, not the schema rules' (rules.md:
/// "`null` in an optional string field: SL408"; its table row names six of these).
/// A JSON-frontend payload has the constraint and alternative ones.
pub const OPTIONAL_STRING_FIELDS: [&str; 9] = [
    "/silp",
    "/version",
    "/meta/out",
    "/meta/next_agent",
    "/meta/session_id",
    "/constraints/*/time",
    "/alternatives/*/target",
    "/alternatives/*/location",
    "/entities/*/action",
];

/// The action codes of a payload, whose pattern SL103 and SL202 check instead.
const ACTION_CODE_FIELDS: [&str; 3] = ["/intent", "/entities/*/action", "/alternatives/*/action"];

/// A schema that payload objects are validated against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PayloadSchema {
    /// The draft's normative IR schema, verbatim.
    IrDocument,
    /// The JSON frontend's flat shape (draft §4.2 and the reference decoder): the
    /// draft shows the frontend by example only, so silp-lint writes it down.
    JsonFrontend,
}

impl PayloadSchema {
    /// The schema's text, as shipped in `data/`.
    pub fn text(self) -> &'static str {
        match self {
            PayloadSchema::IrDocument => include_str!("../../data/silp-ir.schema.json"),
            PayloadSchema::JsonFrontend => {
                include_str!("../../data/silp-json-frontend.schema.json")
            }
        }
    }

    /// The parsed schema.
    pub fn value(self) -> &'static Value {
        static SCHEMAS: [OnceLock<Value>; 2] = [OnceLock::new(), OnceLock::new()];
        SCHEMAS[self as usize]
            .get_or_init(|| serde_json::from_str(self.text()).unwrap_or(Value::Bool(true)))
    }

    /// The validator for the parsed tree, compiled once. `None` only if the bundled
    /// schema failed to compile, which the unit tests rule out.
    fn validator(self) -> Option<&'static Validator<SpannedJson>> {
        static VALIDATORS: [OnceLock<Option<Validator<SpannedJson>>>; 2] =
            [OnceLock::new(), OnceLock::new()];
        VALIDATORS[self as usize]
            .get_or_init(|| {
                jsonschema::options_for::<SpannedJson>()
                    .with_draft(Draft::Draft202012)
                    .build(self.value())
                    .ok()
            })
            .as_ref()
    }

    /// The validator for `serde_json` values, compiled when a document first needs it.
    fn serde_validator(self) -> Option<&'static Validator> {
        static VALIDATORS: [OnceLock<Option<Validator>>; 2] = [OnceLock::new(), OnceLock::new()];
        VALIDATORS[self as usize]
            .get_or_init(|| jsonschema::draft202012::new(self.value()).ok())
            .as_ref()
    }

    /// A JSON pointer into a payload as messages show it.
    fn describe_pointer(self, pointer: &str) -> String {
        match (pointer.is_empty(), self) {
            (true, PayloadSchema::IrDocument) => "the IR document".to_string(),
            (true, PayloadSchema::JsonFrontend) => "the payload".to_string(),
            (false, _) => format!("`{pointer}`"),
        }
    }

    /// The message for an object at `pointer` that lacks the required `field`.
    fn lacks(self, pointer: &str, field: &str) -> String {
        let place = self.describe_pointer(pointer);
        if pointer.is_empty() && self == PayloadSchema::JsonFrontend {
            format!("{place} has no `{field}`, which a JSON-frontend payload requires")
        } else {
            format!("{place} lacks the required field `{field}`")
        }
    }
}

/// One way a payload breaks its schema.
#[derive(Clone, Debug, PartialEq)]
pub struct Violation {
    /// The JSON pointer of the offending value (for an unknown key, of its member).
    pub pointer: String,
    /// The schema keyword that failed: `additionalProperties`, `required`, `type`,
    /// `pattern`, `minimum`, `maximum`...
    pub keyword: String,
    /// Whether the offending value is `null`.
    pub null: bool,
    /// Where to report it: the unexpected key, the object missing a field, or the value.
    pub span: Span,
    /// What the schema wanted, naming the pointer.
    pub message: String,
}

impl Violation {
    /// Whether a more specific rule reports this violation (rules.md: the `req_id`
    /// pattern is SL301's, action-code patterns SL103's and SL202's, `null` in an
    /// optional string field SL408's), so the schema rules leave it alone.
    pub fn is_reported_elsewhere(&self) -> bool {
        let named_by = |patterns: &[&str]| {
            patterns
                .iter()
                .any(|pattern| pointer_matches(pattern, &self.pointer))
        };
        match self.keyword.as_str() {
            "pattern" => self.pointer == "/meta/req_id" || named_by(&ACTION_CODE_FIELDS),
            "type" if self.null => named_by(&OPTIONAL_STRING_FIELDS),
            _ => false,
        }
    }
}

/// Arrays longer than this are validated an item at a time
/// ([`PayloadSchema::itemwise_arrays`]): jsonschema gathers every error of a
/// validation, each with a copy of the value it is about, before yielding the first,
/// so one document of 400,000 entities lacking a field held 480 MiB of errors.
const ITEMS_AT_ONCE: usize = 1024;

impl PayloadSchema {
    /// The root members whose schema is `{"type": "array", "items": S}` and that no
    /// `patternProperties` pattern names: the errors of a whole document in such an
    /// array are S's errors of each item, so a long one's items are validated one
    /// at a time (a unit test checks that the schemas say so).
    fn itemwise_arrays(self) -> &'static [&'static str] {
        match self {
            PayloadSchema::IrDocument => &["entities", "constraints", "alternatives"],
            PayloadSchema::JsonFrontend => &["constraints", "alternatives"],
        }
    }

    /// The schema of the items of [`Self::itemwise_arrays`]'s array number `index`,
    /// and the pointer to it in the whole schema.
    fn items_schema(self, index: usize) -> (String, Option<&'static Value>) {
        let pointer = format!("/properties/{}/items", self.itemwise_arrays()[index]);
        let schema = self.value().pointer(&pointer);
        (pointer, schema)
    }

    /// The validator of the items of [`Self::itemwise_arrays`]'s array number `index`.
    fn item_validator(self, index: usize) -> Option<&'static Validator<SpannedJson>> {
        static VALIDATORS: [OnceLock<Vec<Option<Validator<SpannedJson>>>>; 2] =
            [OnceLock::new(), OnceLock::new()];
        let compile = |index| {
            jsonschema::options_for::<SpannedJson>()
                .with_draft(Draft::Draft202012)
                .build(self.items_schema(index).1?)
                .ok()
        };
        VALIDATORS[self as usize]
            .get_or_init(|| (0..self.itemwise_arrays().len()).map(compile).collect())
            .get(index)?
            .as_ref()
    }

    /// The same for `serde_json` values.
    fn serde_item_validator(self, index: usize) -> Option<&'static Validator> {
        static VALIDATORS: [OnceLock<Vec<Option<Validator>>>; 2] =
            [OnceLock::new(), OnceLock::new()];
        let compile = |index| jsonschema::draft202012::new(self.items_schema(index).1?).ok();
        VALIDATORS[self as usize]
            .get_or_init(|| (0..self.itemwise_arrays().len()).map(compile).collect())
            .get(index)?
            .as_ref()
    }
}

/// Whether [`validate`] words its violations' messages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Messages {
    Worded,
    /// Left empty: a rule past its limit in a file counts its violations without
    /// showing them, and wording them was a third of the time of a file of schema
    /// violations on every line.
    Omitted,
}

/// Every violation of `document` against `schema` that the schema rules report
/// (those a more specific rule reports are left out), in document order. A document
/// with duplicate keys ([`JsonNode::duplicate_keys`]) is validated as JSON parsers
/// read it: the last of the duplicates counts.
pub fn validate(
    schema: PayloadSchema,
    document: &JsonNode,
    has_duplicate_keys: bool,
    messages: Messages,
) -> Vec<Violation> {
    validate_in_parts(
        schema,
        document,
        has_duplicate_keys,
        messages,
        ITEMS_AT_ONCE,
    )
}

/// [`validate`], with the items of arrays longer than `items_at_once` validated one
/// at a time, apart from the rest of the document.
fn validate_in_parts(
    schema: PayloadSchema,
    document: &JsonNode,
    has_duplicate_keys: bool,
    messages: Messages,
    items_at_once: usize,
) -> Vec<Violation> {
    // Most documents are valid: learn that before seeking long arrays, where it
    // costs no copy to `serde_json` values.
    if !has_duplicate_keys && schema.validator().is_some_and(|v| v.is_valid(document)) {
        return Vec::new();
    }
    let long_arrays: Vec<(usize, &JsonNode)> = (0..schema.itemwise_arrays().len())
        .filter_map(|index| {
            let array = document.get(schema.itemwise_arrays()[index])?;
            (array.as_array()?.len() > items_at_once).then_some((index, array))
        })
        .collect();
    let root = || Place::root(document);
    let mut found = if long_arrays.is_empty() {
        node_violations(schema, None, document, has_duplicate_keys, messages, root)
    } else {
        let is_long = |member: &JsonMember| {
            long_arrays
                .iter()
                .any(|(_, array)| std::ptr::eq(*array, &member.value))
        };
        let rest = document.hollowed(is_long);
        node_violations(schema, None, &rest, has_duplicate_keys, messages, root)
    };
    for &(index, array) in &long_arrays {
        for (item, node) in array.as_array().unwrap_or_default().iter().enumerate() {
            let place = || Place::item(schema, index, item, node);
            found.extend(node_violations(
                schema,
                Some(index),
                node,
                has_duplicate_keys,
                messages,
                place,
            ));
        }
    }
    found.sort_by_key(|violation| (violation.span.start, violation.span.end));
    found.retain(|violation| !violation.is_reported_elsewhere());
    found
}

/// The violations of `node` against the whole schema (`items_of` `None`) or the
/// items schema of [`PayloadSchema::itemwise_arrays`]'s array number `items_of`,
/// placed by `place` (made only for a node that breaks the schema); validated as
/// its `serde_json` copy when `as_serde` (a document with duplicate keys).
fn node_violations<'p>(
    schema: PayloadSchema,
    items_of: Option<usize>,
    node: &JsonNode,
    as_serde: bool,
    messages: Messages,
    place: impl FnOnce() -> Place<'p>,
) -> Vec<Violation> {
    if as_serde {
        let validator = match items_of {
            None => schema.serde_validator(),
            Some(index) => schema.serde_item_validator(index),
        };
        let value = node.to_serde();
        match validator.filter(|validator| !validator.is_valid(&value)) {
            Some(validator) => {
                violations(schema, &place(), messages, validator.iter_errors(&value))
            }
            None => Vec::new(),
        }
    } else {
        let validator = match items_of {
            None => schema.validator(),
            Some(index) => schema.item_validator(index),
        };
        match validator.filter(|validator| !validator.is_valid(node)) {
            Some(validator) => violations(schema, &place(), messages, validator.iter_errors(node)),
            None => Vec::new(),
        }
    }
}

/// What a validator was given: the node its errors' instance paths start from, with
/// that node's pointer in the document and its schema's pointer in the whole schema.
struct Place<'d> {
    node: &'d JsonNode,
    pointer: String,
    schema_path: String,
}

impl<'d> Place<'d> {
    fn root(document: &'d JsonNode) -> Place<'d> {
        Place {
            node: document,
            pointer: String::new(),
            schema_path: String::new(),
        }
    }

    /// Item number `item` of [`PayloadSchema::itemwise_arrays`]'s array number `index`.
    fn item(schema: PayloadSchema, index: usize, item: usize, node: &'d JsonNode) -> Place<'d> {
        Place {
            node,
            pointer: format!("/{}/{item}", schema.itemwise_arrays()[index]),
            schema_path: schema.items_schema(index).0,
        }
    }
}

/// Places each validation error on the bytes of `place` it is about, worded as
/// `messages` says.
fn violations<'i>(
    schema: PayloadSchema,
    place: &Place,
    messages: Messages,
    errors: impl Iterator<Item = ValidationError<'i>>,
) -> Vec<Violation> {
    let worded = messages == Messages::Worded;
    let word = |message: &dyn Fn() -> String| if worded { message() } else { String::new() };
    let mut violations = Vec::new();
    for error in errors {
        let relative = error.instance_path().as_str();
        let pointer = format!("{}{relative}", place.pointer);
        let schema_path = format!("{}{}", place.schema_path, error.schema_path().as_str());
        let schema_path = schema_path.as_str();
        let node = place.node.pointer(relative).unwrap_or(place.node);
        let keyword = schema_path.rsplit('/').next().unwrap_or("").to_string();
        let place = || schema.describe_pointer(&pointer);
        match error.kind() {
            ValidationErrorKind::AdditionalProperties { unexpected } => {
                let allowed = || {
                    let parent = schema_path
                        .strip_suffix("/additionalProperties")
                        .unwrap_or("");
                    schema
                        .value()
                        .pointer(&format!("{parent}/properties"))
                        .and_then(Value::as_object)
                        .map(|properties| {
                            properties
                                .keys()
                                .map(|key| format!("`{key}`"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        })
                        .unwrap_or_default()
                };
                let allowed = word(&allowed);
                for member in node.members() {
                    if !unexpected.iter().any(|key| *key == member.key) {
                        continue;
                    }
                    violations.push(Violation {
                        pointer: format!("{pointer}/{}", escape_token(&member.key)),
                        keyword: keyword.clone(),
                        null: member.value.is_null(),
                        span: member.key_span.clone(),
                        message: word(&|| {
                            format!(
                                "unknown field `{}` in {}: the schema allows only {allowed}",
                                member.key,
                                place()
                            )
                        }),
                    });
                }
            }
            ValidationErrorKind::Required { property } => {
                let name = property.as_str().unwrap_or("");
                violations.push(Violation {
                    message: word(&|| schema.lacks(&pointer, name)),
                    pointer,
                    keyword,
                    null: node.is_null(),
                    span: node.span.clone(),
                });
            }
            kind => {
                let wanted = || match kind {
                    ValidationErrorKind::Type { .. } => Some(
                        schema
                            .value()
                            .pointer(schema_path)
                            .map(type_names)
                            .unwrap_or_else(|| "another type".to_string()),
                    ),
                    ValidationErrorKind::Pattern { pattern } => {
                        Some(format!("a string matching `{pattern}`"))
                    }
                    ValidationErrorKind::Minimum { limit } => {
                        Some(format!("a number of at least {limit}"))
                    }
                    ValidationErrorKind::Maximum { limit } => {
                        Some(format!("a number of at most {limit}"))
                    }
                    _ => None,
                };
                let message = word(&|| match wanted() {
                    Some(wanted) => {
                        format!(
                            "{}: expected {wanted}, found {}",
                            place(),
                            describe_node(node)
                        )
                    }
                    None => format!("{}: {error}", place()),
                });
                violations.push(Violation {
                    pointer,
                    keyword,
                    null: node.is_null(),
                    span: node.span.clone(),
                    message,
                });
            }
        }
    }
    violations.sort_by_key(|violation| (violation.span.start, violation.span.end));
    violations
}

/// Whether `pointer` is named by `pattern`, where a `*` token matches any array index.
pub fn pointer_matches(pattern: &str, pointer: &str) -> bool {
    let mut tokens = pointer.split('/');
    let mut wanted = pattern.split('/');
    loop {
        match (wanted.next(), tokens.next()) {
            (None, None) => return true,
            (Some("*"), Some(token)) => {
                if token.is_empty() || !token.bytes().all(|b| b.is_ascii_digit()) {
                    return false;
                }
            }
            (Some(a), Some(b)) if a == b => {}
            _ => return false,
        }
    }
}

fn escape_token(key: &str) -> std::borrow::Cow<'_, str> {
    if key.contains(['~', '/']) {
        key.replace('~', "~0").replace('/', "~1").into()
    } else {
        key.into()
    }
}

/// A value of a schema's `type` keyword in words: `a string`, `an integer or null`.
pub fn type_names(types: &Value) -> String {
    let name = |t: &str| match t {
        "integer" => "an integer".to_string(),
        "array" => "an array".to_string(),
        "object" => "an object".to_string(),
        "null" => "null".to_string(),
        other => format!("a {other}"),
    };
    match types {
        Value::String(t) => name(t),
        Value::Array(list) => list
            .iter()
            .filter_map(Value::as_str)
            .map(name)
            .collect::<Vec<_>>()
            .join(" or "),
        _ => "another type".to_string(),
    }
}

/// A found value for messages: its type, and short scalars themselves.
fn describe_node(node: &JsonNode) -> String {
    use crate::syntax::json::JsonValue;
    match &node.value {
        JsonValue::Null => "null".to_string(),
        JsonValue::Bool(value) => format!("`{value}`"),
        JsonValue::Number(text) => format!("`{}`", shorten(text)),
        JsonValue::String(text) => {
            let quoted = serde_json::to_string(text.as_str()).unwrap_or_default();
            format!("the string `{}`", shorten(&quoted))
        }
        JsonValue::Array(_) | JsonValue::Object(_) => node.type_name().to_string(),
    }
}

fn shorten(text: &str) -> String {
    if text.chars().count() <= 40 {
        text.to_string()
    } else {
        let mut short: String = text.chars().take(39).collect();
        short.push('…');
        short
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::json::parse_json;

    const IR: PayloadSchema = PayloadSchema::IrDocument;

    /// Each violation of `text` against `schema`: its pointer, text and message.
    fn check_against(schema: PayloadSchema, text: &str) -> Vec<(String, String, String)> {
        let root = parse_json(text, 0).value.expect("valid JSON");
        let has_duplicate_keys = !root.duplicate_keys().is_empty();
        validate(schema, &root, has_duplicate_keys, Messages::Worded)
            .into_iter()
            .map(|v| (v.pointer, text[v.span].to_string(), v.message))
            .collect()
    }

    fn check(text: &str) -> Vec<(String, String, String)> {
        check_against(IR, text)
    }

    #[test]
    fn the_bundled_schemas_compile() {
        for schema in [IR, PayloadSchema::JsonFrontend] {
            assert!(schema.validator().is_some(), "{schema:?}");
            assert!(schema.serde_validator().is_some(), "{schema:?}");
        }
    }

    #[test]
    fn a_valid_document_has_no_violations() {
        assert!(check(r#"{"intent":"!START","meta":{"req_id":"ab12cd34"}}"#).is_empty());
    }

    #[test]
    fn violations_point_at_keys_objects_and_values() {
        let text = r#"{"intent":"!START","meta":{"confidence":1.5,"priority":"high"},"bogus":1}"#;
        let found = check(text);
        assert_eq!(found.len(), 4, "{found:#?}");
        assert_eq!(found[0].0, "/meta");
        assert_eq!(found[0].1, r#"{"confidence":1.5,"priority":"high"}"#);
        assert_eq!(found[0].2, "`/meta` lacks the required field `req_id`");
        assert_eq!(found[1].1, "1.5");
        assert_eq!(
            found[1].2,
            "`/meta/confidence`: expected a number of at most 1, found `1.5`"
        );
        assert_eq!(found[2].1, "\"high\"");
        assert_eq!(
            found[2].2,
            "`/meta/priority`: expected an integer, found the string `\"high\"`"
        );
        assert_eq!(found[3].0, "/bogus");
        assert_eq!(found[3].1, "\"bogus\"");
        assert_eq!(
            found[3].2,
            "unknown field `bogus` in the IR document: the schema allows only `alternatives`, \
             `constraints`, `entities`, `intent`, `meta`, `silp`, `version`"
        );
        let missing = check(r#"{"meta":{"req_id":"ab12"}}"#);
        assert_eq!(
            missing[0].2,
            "the IR document lacks the required field `intent`"
        );
        assert_eq!(missing[0].1, r#"{"meta":{"req_id":"ab12"}}"#);
        let pattern = check(r#"{"silp":"1","intent":"!START","meta":{"req_id":"ab12"}}"#);
        assert_eq!(
            pattern[0].2,
            "`/silp`: expected a string matching `^v\\d+$`, found the string `\"1\"`"
        );
    }

    /// Both representations see a document alike: the parsed tree validated in place
    /// reports exactly what its `serde_json` copy does.
    fn both_ways(schema: PayloadSchema, document: &JsonNode) -> (Vec<Violation>, Vec<Violation>) {
        let spanned = schema.validator().expect("schema compiles");
        let serde = schema.serde_validator().expect("schema compiles");
        let instance = document.to_serde();
        assert_eq!(spanned.is_valid(document), serde.is_valid(&instance));
        (
            violations(
                schema,
                &Place::root(document),
                Messages::Worded,
                spanned.iter_errors(document),
            ),
            violations(
                schema,
                &Place::root(document),
                Messages::Worded,
                serde.iter_errors(&instance),
            ),
        )
    }

    #[test]
    fn numbers_validate_alike_in_both_representations() {
        for number in [
            "0",
            "1",
            "-0",
            "1.0",
            "1e0",
            "0.5",
            "1.5",
            "-1",
            "1e400",
            "-1e400",
            "2",
            "1E-2",
            "12345678901234567890123",
        ] {
            for field in ["priority", "confidence", "seq"] {
                let text = format!(
                    r#"{{"intent":"!START","meta":{{"req_id":"ab12","{field}":{number}}}}}"#
                );
                let document = parse_json(&text, 0).value.expect("valid JSON");
                let (spanned, serde) = both_ways(IR, &document);
                assert_eq!(spanned, serde, "{text}");
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        #[test]
        fn the_parsed_tree_validates_like_its_serde_copy(document in ir_like_documents()) {
            let text = serde_json::to_string(&document).unwrap_or_default();
            let parsed = parse_json(&text, 0).value.expect("serde_json output parses");
            let (spanned, serde) = both_ways(IR, &parsed);
            proptest::prop_assert_eq!(spanned, serde, "{}", text);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]
        /// Validated an item at a time, the items of every array (`items_at_once`
        /// 0) give what the whole document's validation gives, in both
        /// representations and against both schemas; unworded, the same
        /// violations with empty messages.
        #[test]
        fn arrays_validated_an_item_at_a_time_give_the_whole_validation(
            document in ir_like_documents()
        ) {
            let text = serde_json::to_string(&document).unwrap_or_default();
            let parsed = parse_json(&text, 0).value.expect("serde_json output parses");
            for schema in [IR, PayloadSchema::JsonFrontend] {
                for serde in [false, true] {
                    let whole = validate_in_parts(schema, &parsed, serde, Messages::Worded, usize::MAX);
                    proptest::prop_assert_eq!(
                        &validate_in_parts(schema, &parsed, serde, Messages::Worded, 0),
                        &whole,
                        "{:?} {}", schema, text
                    );
                    // Unworded, the same violations in the same places.
                    let unworded: Vec<Violation> = whole
                        .into_iter()
                        .map(|violation| Violation { message: String::new(), ..violation })
                        .collect();
                    proptest::prop_assert_eq!(
                        validate_in_parts(schema, &parsed, serde, Messages::Omitted, 0),
                        unworded,
                        "{:?} {}", schema, text
                    );
                }
            }
        }
    }

    /// What makes an item-at-a-time validation equal to the whole one: the array's
    /// schema holds no keyword but its type and items (and annotations), and no
    /// `patternProperties` pattern also names the member.
    #[test]
    fn the_arrays_validated_an_item_at_a_time_are_plain_arrays_of_one_schema() {
        for schema in [IR, PayloadSchema::JsonFrontend] {
            let patterns: Vec<Validator> = schema
                .value()
                .get("patternProperties")
                .and_then(Value::as_object)
                .into_iter()
                .flatten()
                .map(|(pattern, _)| {
                    jsonschema::draft202012::new(&serde_json::json!({ "pattern": pattern }))
                        .expect("pattern compiles")
                })
                .collect();
            for (index, key) in schema.itemwise_arrays().iter().enumerate() {
                let array = schema
                    .value()
                    .pointer(&format!("/properties/{key}"))
                    .and_then(Value::as_object)
                    .expect("the array is a root property");
                assert_eq!(array.get("type"), Some(&Value::from("array")), "{key}");
                for keyword in array.keys() {
                    assert!(
                        ["type", "items", "description", "default", "title"]
                            .contains(&keyword.as_str()),
                        "{schema:?} {key}: {keyword}"
                    );
                }
                assert!(
                    patterns.iter().all(|p| !p.is_valid(&Value::from(*key))),
                    "{key}"
                );
                assert!(schema.item_validator(index).is_some(), "{key}");
                assert!(schema.serde_item_validator(index).is_some(), "{key}");
            }
        }
    }

    /// A long array, past the length validated whole, with items wrong in every way
    /// the schema knows, and a document that also breaks the schema outside it.
    #[test]
    fn a_long_array_reports_what_the_whole_validation_reports() {
        let items: Vec<String> = (0..3 * ITEMS_AT_ONCE)
            .map(|i| match i % 5 {
                0 => r#"{"id":"a","value":"b"}"#.to_string(),
                1 => r#"{"id":"a"}"#.to_string(),
                2 => r#"{"id":1,"value":null,"action":"!x"}"#.to_string(),
                3 => "7".to_string(),
                _ => r#"{"value":"b","action":"!GO"}"#.to_string(),
            })
            .collect();
        let text = format!(
            r#"{{"intent":"go","entities":[{}],"alternatives":[{{}}],"meta":{{"confidence":2}},"x":1}}"#,
            items.join(",")
        );
        let document = parse_json(&text, 0).value.expect("valid JSON");
        for serde in [false, true] {
            let found = validate_in_parts(IR, &document, serde, Messages::Worded, ITEMS_AT_ONCE);
            assert_eq!(
                found,
                validate_in_parts(IR, &document, serde, Messages::Worded, usize::MAX)
            );
            assert_eq!(found, validate(IR, &document, serde, Messages::Worded));
            assert!(found.len() > 3 * ITEMS_AT_ONCE, "{}", found.len());
            assert_eq!(found.last().map(|v| v.pointer.as_str()), Some("/x"));
        }
    }

    /// Documents shaped like the schema, most fields right and some wrong: a bad
    /// type, a pattern or bound broken, a field missing, a field unknown.
    fn ir_like_documents() -> impl proptest::strategy::Strategy<Value = Value> {
        use proptest::prelude::*;
        use serde_json::json;
        fn leaf() -> BoxedStrategy<Value> {
            prop_oneof![
                Just(Value::Null),
                any::<bool>().prop_map(Value::Bool),
                any::<i64>().prop_map(|n| json!(n)),
                (-2.0f64..2.0).prop_map(|n| json!(n)),
                "[a-z!_A-Z0-9é]{0,6}".prop_map(Value::String),
                Just(json!([])),
                Just(json!({})),
            ]
            .boxed()
        }
        fn mostly(good: Vec<Value>) -> BoxedStrategy<Value> {
            prop_oneof![20 => proptest::sample::select(good), 1 => leaf()].boxed()
        }
        fn object(fields: Vec<(&'static str, BoxedStrategy<Value>)>) -> BoxedStrategy<Value> {
            let members: Vec<_> = fields
                .into_iter()
                .map(|(key, value)| {
                    proptest::option::weighted(0.95, value.prop_map(move |v| (key, v)))
                })
                .collect();
            (members, proptest::option::weighted(0.05, leaf()))
                .prop_map(|(members, unknown)| {
                    let mut map = serde_json::Map::new();
                    for (key, value) in members.into_iter().flatten() {
                        map.insert(key.to_string(), value);
                    }
                    if let Some(value) = unknown {
                        map.insert("bogus".to_string(), value);
                    }
                    Value::Object(map)
                })
                .boxed()
        }
        fn list(item: BoxedStrategy<Value>) -> BoxedStrategy<Value> {
            prop_oneof![
                6 => proptest::collection::vec(item, 0..3).prop_map(Value::Array),
                1 => leaf(),
            ]
            .boxed()
        }
        let verb = || {
            mostly(vec![
                json!("!START"),
                json!("!BOOK"),
                json!("START"),
                json!("!lower"),
            ])
        };
        let text = || mostly(vec![json!("hike"), json!("t+1"), json!(""), json!("北京")]);
        let entity = object(vec![("id", text()), ("value", text()), ("action", verb())]);
        let constraint = object(vec![("type", text()), ("value", text()), ("time", text())]);
        let alternative = object(vec![
            ("action", verb()),
            ("target", text()),
            ("location", text()),
        ]);
        let number = || {
            mostly(vec![
                json!(0),
                json!(1),
                json!(1.0),
                json!(0.5),
                json!(1.5),
                json!(-1),
                json!(7),
            ])
        };
        let meta = object(vec![
            (
                "req_id",
                mostly(vec![
                    json!("ab12cd34"),
                    json!("ab12"),
                    json!("AB12"),
                    json!("ab1"),
                    json!("ab12cd345"),
                ]),
            ),
            ("session_id", text()),
            ("priority", number()),
            ("confidence", number()),
            ("seq", mostly(vec![json!([]), json!(["a", "b"])])),
            (
                "out",
                mostly(vec![json!("code"), json!("json"), json!("natural")]),
            ),
            ("next_agent", text()),
        ]);
        object(vec![
            ("silp", mostly(vec![json!("v1"), json!("v12"), json!("1")])),
            ("version", text()),
            ("intent", verb()),
            ("entities", list(entity)),
            ("constraints", list(constraint)),
            ("alternatives", list(alternative)),
            ("meta", meta),
        ])
    }

    #[test]
    fn pointer_patterns_match_indices() {
        assert!(pointer_matches("/entities/*/action", "/entities/12/action"));
        assert!(!pointer_matches("/entities/*/action", "/entities/x/action"));
        assert!(!pointer_matches("/entities/*/action", "/entities/1"));
        assert!(pointer_matches("/meta/next_agent", "/meta/next_agent"));
    }

    fn check_frontend(text: &str) -> Vec<(String, String, String)> {
        check_against(PayloadSchema::JsonFrontend, text)
    }

    #[test]
    fn frontend_payloads_that_convert_refused_are_violations() {
        let cases = [
            (
                r#"{"act":"flight"}"#,
                "",
                r#"{"act":"flight"}"#,
                "the payload has no `intent`, which a JSON-frontend payload requires",
            ),
            (
                r#"{"intent":5,"act":"flight"}"#,
                "/intent",
                "5",
                "`/intent`: expected a string, found `5`",
            ),
            (
                r#"{"intent":"!BOOK","act":"x","constraints":"loc"}"#,
                "/constraints",
                r#""loc""#,
                "`/constraints`: expected an array, found the string `\"loc\"`",
            ),
            (
                r#"{"intent":"!BOOK","act":"x","constraints":[{"type":"loc"}]}"#,
                "/constraints/0",
                r#"{"type":"loc"}"#,
                "`/constraints/0` lacks the required field `value`",
            ),
            (
                r#"{"intent":"!BOOK","act":"x","alternatives":[{"target":"y"}]}"#,
                "/alternatives/0",
                r#"{"target":"y"}"#,
                "`/alternatives/0` lacks the required field `action`",
            ),
            (
                r#"{"intent":"!BOOK","act":true}"#,
                "/act",
                "true",
                "`/act`: expected a string or a number, found `true`",
            ),
            (
                r#"{"intent":"!BOOK","act":{"v":1}}"#,
                "/act",
                r#"{"v":1}"#,
                "`/act`: expected a string or a number, found an object",
            ),
            (
                r#"{"intent":"!BOOK","action_email":{"to":"x"}}"#,
                "/action_email",
                r#"{"to":"x"}"#,
                "`/action_email`: expected a string or an array, found an object",
            ),
            (
                r#"{"intent":"!BOOK","action_email":["a",5]}"#,
                "/action_email/1",
                "5",
                "`/action_email/1`: expected a string, found `5`",
            ),
        ];
        for (text, pointer, at, message) in cases {
            let found = check_frontend(text);
            assert_eq!(
                found,
                [(pointer.to_string(), at.to_string(), message.to_string())],
                "{text}"
            );
        }
    }

    #[test]
    fn valid_frontend_payloads_and_what_other_rules_report_pass() {
        for text in [
            r#"{"intent":"!CANCEL","act":"flight","action_email":["zhangsan"],"constraints":[{"type":"loc","value":"Beijing","time":"t+1am","subject":"me"}]}"#,
            r#"{"intent":"!BOOK","nights":2,"rating":4.5,"action_email":"ops","constraints":[],"alternatives":[{"action":"!SEARCH","target":"hostel","rank":2}]}"#,
            // Action-code spelling is SL103's, `null` in an optional field SL408's.
            r#"{"intent":"!book","alternatives":[{"action":"SEARCH","target":null}],"constraints":[{"type":"x","value":"y","time":null}]}"#,
            // `action_` alone names no action: it is an entity slot.
            r#"{"intent":"!BOOK","action_":"x"}"#,
            // The last of two keys counts, as JSON parsers read it.
            r#"{"intent":5,"intent":"!BOOK"}"#,
        ] {
            assert_eq!(check_frontend(text), [], "{text}");
        }
        assert_eq!(
            check_frontend(r#"{"intent":"!BOOK","action_\nx":"y","action_":[]}"#)[0].0,
            "/action_"
        );
    }

    /// The frontend's constraints and alternatives are the IR's: the two schemas
    /// cannot drift apart.
    #[test]
    fn the_frontend_shares_the_ir_item_shapes() {
        for field in ["constraints", "alternatives"] {
            let pointer = format!("/properties/{field}/items");
            assert_eq!(
                PayloadSchema::JsonFrontend.value().pointer(&pointer),
                IR.value().pointer(&pointer),
                "{field}"
            );
            assert!(IR.value().pointer(&pointer).is_some());
        }
        assert_eq!(
            PayloadSchema::JsonFrontend
                .value()
                .pointer("/properties/intent/pattern"),
            IR.value().pointer("/properties/intent/pattern")
        );
    }

    #[test]
    fn frontend_payloads_validate_alike_in_both_representations() {
        for text in [
            r#"{"act":"flight","n":1}"#,
            r#"{"intent":"!BOOK","act":true,"x":null,"y":[1],"action_a":[1,"b",null],"action_b":{}}"#,
            r#"{"intent":["!BOOK"],"constraints":[{"type":1},7],"alternatives":{"action":"!X"}}"#,
            r#"{"intent":"!BOOK","constraints":[{"type":"t","value":"v","time":3,"extra":[]}]}"#,
        ] {
            let document = parse_json(text, 0).value.expect("valid JSON");
            let (spanned, serde) = both_ways(PayloadSchema::JsonFrontend, &document);
            assert!(!spanned.is_empty(), "{text}");
            assert_eq!(spanned, serde, "{text}");
        }
    }
}
