//! Decoding JSON payload objects (IR documents and JSON-frontend payloads) to the IR.

use crate::ir::Ir;
use crate::syntax::json::JsonNode;

/// Whether an object is an IR document (holds `silp`, `version`, `entities` or
/// `meta`) rather than a flat JSON-frontend payload.
pub fn is_ir_document(object: &JsonNode) -> bool {
    let _ = object;
    false
}

/// Decodes one payload object, skipping fields whose JSON type is wrong (the schema
/// rule reports those).
pub fn decode(object: &JsonNode) -> Ir {
    let _ = object;
    Ir::default()
}
