//! The syntax layer: lexers and parsers for each payload language. Every node
//! carries a byte span into the whole file; parsers take the offset of the text they
//! are given so embedded payloads (Markdown fences, lines) report file positions.

pub mod code;
pub mod json;
pub mod lines;
pub mod markdown;
pub mod nlip;
pub mod ping;
pub mod slip;
pub mod suppression;

use crate::source::Span;

/// Text that cannot continue the payload, and what was expected instead (SL001).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub span: Span,
    pub message: String,
}

impl SyntaxError {
    pub fn new(span: Span, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            span,
            message: message.into(),
        }
    }
}

/// Describes a found token or character for error messages: visible text in
/// backticks, invisible characters by code point.
pub fn describe_found(text: &str) -> String {
    if text.is_empty() {
        return "end of payload".to_string();
    }
    if text
        .chars()
        .all(|c| !c.is_whitespace() && !c.is_control() && c as u32 > 0x20)
    {
        let shown: String = text.chars().take(40).collect();
        format!("`{shown}`")
    } else {
        let cps: Vec<String> = text
            .chars()
            .take(4)
            .map(|c| format!("U+{:04X}", c as u32))
            .collect();
        cps.join(" ")
    }
}
