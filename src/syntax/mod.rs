//! The syntax layer: lexers and parsers for each payload language. Every node
//! carries a byte span into the whole file; parsers take the offset of the text they
//! are given so embedded payloads (Markdown fences, lines) report file positions.

pub mod a2a;
pub mod code;
pub mod document;
pub mod json;
pub mod lines;
pub mod markdown;
pub mod mcp;
pub mod nlip;
pub mod ping;
pub mod region;
pub mod slip;
pub mod suppression;

pub use document::{parse, Document, OwnedDocument};

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

/// How many characters of a found token a message quotes; a longer one is cut
/// there and ends with `…`.
const SHOWN_CHARS: usize = 40;

/// Describes a found token or character for error messages: the token in
/// backticks, with control, invisible and bidi characters (and white space at its
/// ends) written `<U+XXXX>` (`RequestTask<U+0000>`); one such character alone by its
/// code point (`U+200B`). A long token is shortened to its first 40 characters.
pub fn describe_found(text: &str) -> String {
    let mut chars = text.chars();
    let (Some(first), rest) = (chars.next(), chars.as_str()) else {
        return "end of payload".to_string();
    };
    let hidden = |c: char| {
        c.is_control()
            || (c.is_whitespace() && c != ' ')
            || crate::unicode::is_reported(c)
            || crate::unicode::is_variation_selector(c)
    };
    if rest.is_empty() && (hidden(first) || first == ' ') {
        return crate::unicode::code_point(first);
    }
    // Spaces are shown as they are between visible characters, escaped at the ends
    // where backticks would not show them.
    let inner = text.trim_matches(' ');
    let inner_start = text.len() - text.trim_start_matches(' ').len();
    let inner_end = inner_start + inner.len();
    let mut shown = String::with_capacity(text.len().min(4 * SHOWN_CHARS) + 2);
    shown.push('`');
    for (count, (at, c)) in text.char_indices().enumerate() {
        if count == SHOWN_CHARS {
            shown.push('…');
            break;
        }
        let at_an_end = c == ' ' && (at < inner_start || at >= inner_end);
        if hidden(c) || at_an_end {
            shown.push_str(&format!("<U+{:04X}>", c as u32));
        } else {
            shown.push(c);
        }
    }
    shown.push('`');
    shown
}

#[cfg(test)]
mod tests {
    use super::describe_found;

    #[test]
    fn visible_tokens_are_quoted() {
        assert_eq!(describe_found(""), "end of payload");
        assert_eq!(describe_found("Foo"), "`Foo`");
        assert_eq!(describe_found("a b"), "`a b`");
    }

    #[test]
    fn hidden_characters_are_escaped_in_place() {
        assert_eq!(describe_found("RequestTask\u{0}"), "`RequestTask<U+0000>`");
        assert_eq!(
            describe_found("Eval\u{200B}Approve"),
            "`Eval<U+200B>Approve`"
        );
        assert_eq!(describe_found("a\tb\r"), "`a<U+0009>b<U+000D>`");
        assert_eq!(describe_found(" x "), "`<U+0020>x<U+0020>`");
        assert_eq!(describe_found("\u{202E}"), "U+202E");
        assert_eq!(describe_found(" "), "U+0020");
    }

    #[test]
    fn long_tokens_are_shortened() {
        let long = "A".repeat(100);
        assert_eq!(describe_found(&long), format!("`{}…`", "A".repeat(40)));
        let hidden = "\u{0}".repeat(100);
        let shown = describe_found(&hidden);
        assert_eq!(shown.matches("<U+0000>").count(), 40);
        assert!(shown.ends_with("…`"));
    }
}
