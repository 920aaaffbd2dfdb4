//! Markdown pages: the fenced blocks tagged `silp`, `slip` or `silp-json`, whose
//! payloads are linted with positions in the page.

use crate::source::{FileKind, Span};
use crate::syntax::lines::lines;

/// A fenced block's content and the kind its tag names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    pub kind: FileKind,
    /// The bytes between the opening and the closing fence lines.
    pub content: Span,
    /// The opening fence line, for errors about the block itself.
    pub opening: Span,
    /// Whether the block was closed before the end of the page.
    pub closed: bool,
    /// The opening fence's indentation: up to this many leading spaces of each
    /// content line are Markdown's, not the payload's (CommonMark).
    pub indent: usize,
}

/// The payload fences of a Markdown page (``` or ~~~, three or more, any indent
/// up to three spaces). Blocks with other tags are skipped.
pub fn fences(text: &str) -> Vec<Fence> {
    let mut found = Vec::new();
    let mut open: Option<(char, usize, Option<FileKind>, Span, usize, usize)> = None;
    for line in lines(text, 0) {
        let indent = line.text.len() - line.text.trim_start_matches(' ').len();
        let body = &line.text[indent..];
        let marker = body.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = marker.map_or(0, |m| body.len() - body.trim_start_matches(m).len());
        let next_line_start =
            line.start + line.text.len() + line_terminator_len(text, line.start + line.text.len());
        match (&open, marker) {
            (None, Some(m)) if indent <= 3 && run >= 3 => {
                let info = body[run..].trim();
                let tag = info
                    .split(|c: char| c.is_whitespace() || c == '{' || c == ',')
                    .next()
                    .unwrap_or("");
                let kind = match tag {
                    "silp" => Some(FileKind::Silp),
                    "slip" => Some(FileKind::Slip),
                    "silp-json" => Some(FileKind::SilpJson),
                    _ => None,
                };
                open = Some((m, run, kind, line.span(), next_line_start, indent));
            }
            (Some((m, len, kind, opening, content_start, fence_indent)), Some(c))
                if c == *m && indent <= 3 && run >= *len && body[run..].trim().is_empty() =>
            {
                if let Some(kind) = kind {
                    found.push(Fence {
                        kind: *kind,
                        content: *content_start..line.start.max(*content_start),
                        opening: opening.clone(),
                        closed: true,
                        indent: *fence_indent,
                    });
                }
                open = None;
            }
            _ => {}
        }
    }
    if let Some((_, _, Some(kind), opening, content_start, indent)) = open {
        found.push(Fence {
            kind,
            content: content_start.min(text.len())..text.len(),
            opening,
            closed: false,
            indent,
        });
    }
    found
}

fn line_terminator_len(text: &str, at: usize) -> usize {
    match text.as_bytes().get(at..at + 2) {
        Some(b"\r\n") => 2,
        Some([b'\n', _]) | Some([b'\r', _]) => 1,
        _ => usize::from(at < text.len()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_tagged_fences_with_content_spans() {
        let page =
            "# T\n\n```silp\ncancel(x)\n```\n\n```python\nx\n```\n~~~slip\nSLIP v1 a b MetaAck\n";
        let found = fences(page);
        assert_eq!(found.len(), 2);
        assert_eq!(&page[found[0].content.clone()], "cancel(x)\n");
        assert!(found[0].closed);
        assert_eq!(found[1].kind, FileKind::Slip);
        assert_eq!(&page[found[1].content.clone()], "SLIP v1 a b MetaAck\n");
        assert!(!found[1].closed);
    }
}
