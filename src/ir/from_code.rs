//! Decoding code-frontend syntax trees to the IR (languages.md §2, "Decode").

use crate::ir::Ir;
use crate::syntax::code::Payload;

/// Decodes a payload's syntax tree to the IR.
pub fn decode(payload: &Payload) -> Ir {
    let _ = payload;
    Ir::default()
}
