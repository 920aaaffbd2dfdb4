//! silp-lint: a linter, formatter and language server for the payload languages LLM
//! agents send each other: SILP (code frontend, JSON frontend, IR documents),
//! Slipstream SLIP v1 lines and NLIP envelopes.
//!
//! Layers, each depending only on those before it:
//! [`source`] and [`syntax`] (text, lexers, parsers, spans) → [`ir`] (the semantic
//! model) → [`rules`] → [`diagnostics`] → [`lint`] (the one entry point that the CLI
//! and the language server both call).

pub mod config;
pub mod convert;
pub mod diagnostics;
pub mod driver;
pub mod fix;
pub mod format;
pub mod fs;
pub mod ir;
pub mod lint;
pub mod lsp;
pub mod meaning;
pub mod memory;
pub mod relint;
pub mod render;
pub mod repeats;
pub mod rules;
pub mod schema;
pub mod settings;
pub mod source;
pub mod syntax;
pub mod unicode;
pub mod vocabulary;
pub mod walk;
