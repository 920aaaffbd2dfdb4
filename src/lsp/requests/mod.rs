//! One file per request the server answers: its method name, what it adds to the
//! advertised capabilities, and its handler.

pub mod code_action;
pub mod code_action_resolve;
pub mod completion;
pub mod diagnostic;
pub mod document_symbol;
pub mod formatting;
pub mod hover;
pub mod initialize;
pub mod semantic_tokens;
pub mod shutdown;
