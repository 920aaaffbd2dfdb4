//! Validation of IR documents against the draft's normative JSON Schema
//! (`data/silp-ir.schema.json`, Draft 2020-12), with each violation placed on the
//! bytes it is about: an unexpected key, a missing field's object, a wrong value.

use crate::source::Span;
use crate::syntax::json::JsonNode;
use jsonschema::error::ValidationErrorKind;
use jsonschema::Validator;
use serde_json::Value;
use std::sync::OnceLock;

/// The normative schema, verbatim from the draft.
pub const SCHEMA_TEXT: &str = include_str!("../data/silp-ir.schema.json");

/// The optional string fields of the IR, as JSON pointers (`*` for any array
/// index): `null` in them is SL408's to report, not the schema rule's.
pub const OPTIONAL_STRING_FIELDS: [&str; 6] = [
    "/meta/next_agent",
    "/meta/session_id",
    "/constraints/*/time",
    "/alternatives/*/target",
    "/alternatives/*/location",
    "/entities/*/action",
];

/// One way a document breaks the schema.
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

/// The parsed schema.
pub fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| serde_json::from_str(SCHEMA_TEXT).unwrap_or(Value::Bool(true)))
}

/// The validator, compiled once. `None` only if the bundled schema failed to compile,
/// which the unit tests rule out.
fn validator() -> Option<&'static Validator> {
    static VALIDATOR: OnceLock<Option<Validator>> = OnceLock::new();
    VALIDATOR
        .get_or_init(|| jsonschema::draft202012::new(schema()).ok())
        .as_ref()
}

/// Every schema violation of an IR document, in document order.
pub fn validate(document: &JsonNode) -> Vec<Violation> {
    let Some(validator) = validator() else {
        return Vec::new();
    };
    let instance = document.to_serde();
    if validator.is_valid(&instance) {
        return Vec::new();
    }
    let mut violations = Vec::new();
    for error in validator.iter_errors(&instance) {
        let pointer = error.instance_path().as_str().to_string();
        let schema_path = error.schema_path().as_str();
        let node = document.pointer(&pointer).unwrap_or(document);
        let keyword = schema_path.rsplit('/').next().unwrap_or("").to_string();
        let place = describe_pointer(&pointer);
        match error.kind() {
            ValidationErrorKind::AdditionalProperties { unexpected } => {
                let parent = schema_path
                    .strip_suffix("/additionalProperties")
                    .unwrap_or("");
                let allowed = schema()
                    .pointer(&format!("{parent}/properties"))
                    .and_then(Value::as_object)
                    .map(|properties| {
                        properties
                            .keys()
                            .map(|key| format!("`{key}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    })
                    .unwrap_or_default();
                for member in node.members() {
                    if !unexpected.contains(&member.key) {
                        continue;
                    }
                    violations.push(Violation {
                        pointer: format!("{pointer}/{}", escape_token(&member.key)),
                        keyword: keyword.clone(),
                        null: member.value.is_null(),
                        span: member.key_span.clone(),
                        message: format!(
                            "unknown field `{}` in {place}: the schema allows only {allowed}",
                            member.key
                        ),
                    });
                }
            }
            ValidationErrorKind::Required { property } => {
                let name = property.as_str().unwrap_or("");
                violations.push(Violation {
                    pointer: pointer.clone(),
                    keyword,
                    null: node.is_null(),
                    span: node.span.clone(),
                    message: format!("{place} lacks the required field `{name}`"),
                });
            }
            kind => {
                let wanted = match kind {
                    ValidationErrorKind::Type { .. } => Some(
                        schema()
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
                let message = match wanted {
                    Some(wanted) => {
                        format!("{place}: expected {wanted}, found {}", describe_node(node))
                    }
                    None => format!("{place}: {error}"),
                };
                violations.push(Violation {
                    pointer: pointer.clone(),
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

/// A JSON pointer as messages show it.
pub fn describe_pointer(pointer: &str) -> String {
    if pointer.is_empty() {
        "the IR document".to_string()
    } else {
        format!("`{pointer}`")
    }
}

fn escape_token(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// A value of a schema's `type` keyword in words: `a string`, `an integer or null`.
fn type_names(types: &Value) -> String {
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
            let quoted = serde_json::to_string(text).unwrap_or_default();
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

    fn check(text: &str) -> Vec<(String, String, String)> {
        let root = parse_json(text, 0).value.expect("valid JSON");
        validate(&root)
            .into_iter()
            .map(|v| (v.pointer, text[v.span].to_string(), v.message))
            .collect()
    }

    #[test]
    fn the_bundled_schema_compiles() {
        assert!(validator().is_some());
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

    #[test]
    fn pointer_patterns_match_indices() {
        assert!(pointer_matches("/entities/*/action", "/entities/12/action"));
        assert!(!pointer_matches("/entities/*/action", "/entities/x/action"));
        assert!(!pointer_matches("/entities/*/action", "/entities/1"));
        assert!(pointer_matches("/meta/next_agent", "/meta/next_agent"));
    }
}
