//! Suppression comments: `# silp-lint: ignore[SL101,SL302] reason`, on the line
//! before a payload (`.silp`, `.slip`, Markdown fences) or at the end of a `.silp`
//! payload after ` #`.

use crate::source::Span;

/// One suppression comment and the payload line it covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suppression {
    /// The comment, from `#` to its end.
    pub comment: Span,
    /// What to delete to remove the comment: its whole line (terminator included)
    /// when it stands alone, else the comment and the white space before it.
    pub removal: Span,
    /// The codes listed, each with its span.
    pub codes: Vec<(String, Span)>,
    /// The bytes of the payload line whose diagnostics it suppresses.
    pub target: Span,
}

const MARKER: &str = "silp-lint:";

/// Whether `text` may hold a suppression comment: its marker, or a `\u` escape,
/// which may spell one inside a JSON string. A quick test, for what is only
/// needed when a file has suppressions.
pub fn may_hold_suppression(text: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), MARKER.as_bytes()).is_some()
        || memchr::memmem::find(text.as_bytes(), b"\\u").is_some()
}

/// Parses the text after `#` of a comment starting at byte `hash` (the `#`):
/// `Some(codes)` when it is a suppression.
pub fn parse_codes(comment: &str, hash: usize) -> Option<Vec<(String, Span)>> {
    let body = comment.strip_prefix('#')?;
    let after_space = body.trim_start();
    let rest = after_space.strip_prefix(MARKER)?.trim_start();
    let list = rest.strip_prefix("ignore[")?;
    let close = list.find(']')?;
    let list_start = hash + comment.len() - list.len();
    let mut codes = Vec::new();
    let mut offset = 0;
    for part in list[..close].split(',') {
        let trimmed = part.trim();
        if !trimmed.is_empty() {
            let start = list_start + offset + (part.len() - part.trim_start().len());
            codes.push((trimmed.to_string(), start..start + trimmed.len()));
        }
        offset += part.len() + 1;
    }
    Some(codes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_codes_with_spans_and_ignores_reasons() {
        let comment = "# silp-lint: ignore[SL101, SL302] legacy payloads";
        let codes = parse_codes(comment, 10).unwrap();
        assert_eq!(codes[0], ("SL101".to_string(), 30..35));
        assert_eq!(
            &comment[codes[1].1.start - 10..codes[1].1.end - 10],
            "SL302"
        );
        assert!(parse_codes("# just a comment", 0).is_none());
        assert!(parse_codes("# silp-lint: ignore SL101", 0).is_none());
        assert_eq!(parse_codes("#silp-lint:ignore[]", 0).unwrap(), vec![]);
    }
}
