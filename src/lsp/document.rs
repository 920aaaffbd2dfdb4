//! Open documents: a version's text with its line index and its parse (made once,
//! on first use, and shared by every request on that version, as taplo's document
//! state holds parse and DOM together), incremental edits, and conversion between
//! LSP positions (UTF-16 or UTF-8 units) and byte offsets.

use crate::source::{FileKind, LineIndex, Span};
use crate::syntax::{Document, OwnedDocument};
use std::sync::{Arc, OnceLock};
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};

/// How the client counts columns: UTF-16 code units (the LSP default) or UTF-8 bytes
/// (when the client offers `utf-8` in `general.positionEncodings`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Utf16,
    Utf8,
}

impl Encoding {
    fn utf16(self) -> bool {
        self == Encoding::Utf16
    }
}

/// One version of a document: its text, line index and (once asked for) parse,
/// shared cheaply between the server and the tasks that answer requests.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub text: Arc<str>,
    pub kind: FileKind,
    pub index: Arc<LineIndex>,
    parsed: Arc<OnceLock<OwnedDocument>>,
}

impl Snapshot {
    pub fn new(text: String, kind: FileKind) -> Snapshot {
        let index = LineIndex::new(&text);
        Snapshot {
            text: Arc::from(text),
            kind,
            index: Arc::new(index),
            parsed: Arc::new(OnceLock::new()),
        }
    }

    /// The parsed document: parsed on first use, then shared by every clone.
    pub fn document(&self) -> &Document<'_> {
        self.parsed
            .get_or_init(|| OwnedDocument::parse(self.text.clone(), self.kind))
            .document()
    }

    /// The LSP position of byte `offset` (clamped to the text and to a char boundary).
    pub fn position(&self, offset: usize, encoding: Encoding) -> Position {
        let (line, character) = self
            .index
            .lsp_position(&self.text, offset, encoding.utf16());
        Position { line, character }
    }

    /// The LSP range of a byte span.
    pub fn range(&self, span: &Span, encoding: Encoding) -> Range {
        let start = self.position(span.start, encoding);
        let end = self.position(span.end.max(span.start), encoding);
        Range { start, end }
    }

    /// The byte offset of an LSP position: columns past a line's end clamp to the end
    /// of the line, lines past the end to the end of the text.
    pub fn offset(&self, position: Position, encoding: Encoding) -> usize {
        self.index.offset_of_lsp_position(
            &self.text,
            position.line,
            position.character,
            encoding.utf16(),
        )
    }

    /// The byte span of an LSP range (start and end swapped when reversed).
    pub fn span(&self, range: Range, encoding: Encoding) -> Span {
        let a = self.offset(range.start, encoding);
        let b = self.offset(range.end, encoding);
        a.min(b)..a.max(b)
    }
}

/// Applies content changes in order, each against the text the previous one left.
pub fn apply_changes(
    text: &str,
    changes: &[TextDocumentContentChangeEvent],
    encoding: Encoding,
) -> String {
    let mut current = text.to_string();
    for change in changes {
        match change.range {
            None => current = change.text.clone(),
            Some(range) => {
                let index = LineIndex::new(&current);
                let utf16 = encoding.utf16();
                let at = |p: Position| {
                    index.offset_of_lsp_position(&current, p.line, p.character, utf16)
                };
                let (a, b) = (at(range.start), at(range.end));
                current.replace_range(a.min(b)..a.max(b), &change.text);
            }
        }
    }
    current
}

/// The kind of a document from its language id, else from its URI's file name:
/// every kind `check` lints, Markdown pages included (their payload fences, and
/// invisible characters anywhere).
pub fn document_kind(language_id: &str, uri: &str) -> Option<FileKind> {
    FileKind::from_language_id(language_id).or_else(|| {
        let path = uri.split(['?', '#']).next().unwrap_or(uri);
        FileKind::from_path(path)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(
        range: Option<((u32, u32), (u32, u32))>,
        text: &str,
    ) -> TextDocumentContentChangeEvent {
        TextDocumentContentChangeEvent {
            range: range.map(|(s, e)| Range {
                start: Position::new(s.0, s.1),
                end: Position::new(e.0, e.1),
            }),
            range_length: None,
            text: text.to_string(),
        }
    }

    #[test]
    fn changes_apply_in_order_against_the_previous_text() {
        let text = "ab\r\ncd";
        let changes = [
            change(Some(((0, 1), (0, 1))), "X"),
            change(Some(((1, 0), (1, 1))), "😀"),
            change(Some(((1, 2), (1, 2))), "Y"),
        ];
        assert_eq!(
            apply_changes(text, &changes, Encoding::Utf16),
            "aXb\r\n😀Yd"
        );
        assert_eq!(
            apply_changes(text, &[change(None, "new")], Encoding::Utf16),
            "new"
        );
    }

    #[test]
    fn out_of_range_and_reversed_ranges_clamp() {
        let changes = [change(Some(((9, 9), (0, 1))), "!")];
        assert_eq!(apply_changes("ab", &changes, Encoding::Utf16), "a!");
        let changes = [change(Some(((0, 99), (0, 99))), "!")];
        assert_eq!(apply_changes("ab\ncd", &changes, Encoding::Utf8), "ab!\ncd");
    }

    #[test]
    fn kinds_come_from_language_id_or_file_name() {
        assert_eq!(document_kind("silp", "untitled:1"), Some(FileKind::Silp));
        assert_eq!(
            document_kind("json", "file:///a/b.silp.json"),
            Some(FileKind::SilpJson)
        );
        assert_eq!(
            document_kind("json", "file:///a/m.nlip.json"),
            Some(FileKind::Nlip)
        );
        assert_eq!(
            document_kind("markdown", "file:///a/README.md"),
            Some(FileKind::Markdown)
        );
        assert_eq!(
            document_kind("plaintext", "file:///a/notes.md"),
            Some(FileKind::Markdown)
        );
        assert_eq!(document_kind("plaintext", "file:///a/x.txt"), None);
    }
}
