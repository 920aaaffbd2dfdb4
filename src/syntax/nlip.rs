//! NLIP messages (`*.nlip.json`): the envelope's messages and submessages, and the
//! SILP/SLIP payloads they carry (languages.md §6).

use crate::source::FileKind;
use crate::syntax::json::{JsonNode, JsonValue};

/// The NLIP `format` values.
pub const FORMATS: [&str; 7] = [
    "text",
    "token",
    "structured",
    "binary",
    "location",
    "error",
    "generic",
];

/// A message and its submessages (each an object of the `submessages` array), in
/// document order.
pub fn messages(root: &JsonNode) -> Vec<&JsonNode> {
    let mut found = vec![root];
    if let Some(JsonValue::Array(items)) = root.get("submessages").map(|n| &n.value) {
        found.extend(items.iter().filter(|item| item.is_object()));
    }
    found
}

/// The payload a message carries, if any: a `content` string starting with
/// `SLIP v` is a Slipstream message; with `subformat` `silp`, a `content` string is
/// a code-frontend payload and a `content` object an IR or JSON-frontend one.
pub fn carried_payload(message: &JsonNode) -> Option<(FileKind, &JsonNode)> {
    let content = message.get("content")?;
    let is_silp = || {
        message
            .get("subformat")
            .and_then(JsonNode::as_str)
            .is_some_and(|subformat| subformat.eq_ignore_ascii_case("silp"))
    };
    match content.as_str() {
        Some(text) if text.trim_start().starts_with("SLIP v") => Some((FileKind::Slip, content)),
        Some(_) => is_silp().then_some((FileKind::Silp, content)),
        None => (content.is_object() && is_silp()).then_some((FileKind::SilpJson, content)),
    }
}
