//! Open documents: a version's text with its line index and its parse (made once,
//! on first use, and shared by every request on that version, as taplo's document
//! state holds parse and DOM together), incremental edits, and conversion between
//! LSP positions (UTF-16 or UTF-8 units) and byte offsets.
//!
//! Both directions stay cheap on long non-ASCII lines: a byte offset's UTF-16 column
//! far into a line is read off [`Utf16Columns`] (counted once per version, and only
//! for a version that has such a position) rather than counted from the line start,
//! and a `didChange` of several changes is applied to a rope, where each position
//! is found in logarithmic time (one change is spliced in directly).

use crate::diagnostics::Edit;
use crate::format;
use crate::lint::{lint_document, lint_text, FileLint};
use crate::lsp::completion;
use crate::lsp::semantic::{self, Outline, Token};
use crate::settings::Settings;
use crate::source::{FileKind, LineIndex, Span, Utf16Columns};
use crate::syntax::document::{is_line_oriented, parse_lines_at};
use crate::syntax::region::PIECE_BYTES;
use crate::syntax::{Document, OwnedDocument};
use ropey::Rope;
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

/// One version of a document: its text, line index and (once asked for) parse and
/// UTF-16 columns, shared cheaply between the server and the tasks that answer
/// requests.
#[derive(Clone, Debug)]
pub struct Snapshot {
    pub text: Arc<str>,
    pub kind: FileKind,
    pub index: Arc<LineIndex>,
    parsed: Arc<OnceLock<OwnedDocument>>,
    columns: Arc<OnceLock<Utf16Columns>>,
}

impl Snapshot {
    pub fn new(text: String, kind: FileKind) -> Snapshot {
        let index = LineIndex::new(&text);
        Snapshot::indexed(text, kind, index)
    }

    fn indexed(text: String, kind: FileKind, index: LineIndex) -> Snapshot {
        Snapshot {
            text: Arc::from(text),
            kind,
            index: Arc::new(index),
            parsed: Arc::new(OnceLock::new()),
            columns: Arc::new(OnceLock::new()),
        }
    }

    /// The next version: this one with `changes` applied in order. One change (a
    /// keystroke) is spliced in at the offsets this version's index gives, and the
    /// index is edited rather than rebuilt; several go through a rope.
    pub fn changed(
        &self,
        changes: &[TextDocumentContentChangeEvent],
        encoding: Encoding,
    ) -> Snapshot {
        let [TextDocumentContentChangeEvent {
            range: Some(range),
            text: inserted,
            ..
        }] = changes
        else {
            return Snapshot::new(apply_changes(&self.text, changes, encoding), self.kind);
        };
        let replaced = self.span(*range, encoding);
        let mut text = String::with_capacity(self.text.len() - replaced.len() + inserted.len());
        text.push_str(&self.text[..replaced.start]);
        text.push_str(inserted);
        text.push_str(&self.text[replaced.end..]);
        let index = self.index.edited(&text, replaced, inserted.len());
        Snapshot::indexed(text, self.kind, index)
    }

    /// The parsed document: parsed on first use, then shared by every clone.
    pub fn document(&self) -> &Document<'_> {
        self.parsed
            .get_or_init(|| OwnedDocument::parse(self.text.clone(), self.kind))
            .document()
    }

    /// Whether the lint, the outline, the semantic tokens and formatting read this
    /// version a line at a time, as `check` and `fmt` do, and completion only the
    /// line it is asked about, rather than through its tree: a
    /// line-oriented document over 1 MiB, whose tree would take far more memory
    /// than its text (and be built again for each version as the user types).
    fn walks_lines(&self) -> bool {
        is_line_oriented(self.kind) && self.text.len() > PIECE_BYTES
    }

    /// What `read` gives of this version read a line at a time, and the pages it
    /// freed given back: a line's tree was freed on a thread of the blocking pool,
    /// which may not allocate again for a while, and one line of a million calls
    /// has a tree of about 230 MiB.
    fn reading_lines<T>(read: impl FnOnce() -> T) -> T {
        let answer = read();
        crate::memory::return_freed_pages();
        answer
    }

    /// This version's semantic tokens: at least the first `limit` of them, when it
    /// has that many (see [`Snapshot::walks_lines`]).
    pub fn tokens(&self, limit: usize) -> Vec<Token> {
        if self.walks_lines() {
            Self::reading_lines(|| semantic::line_tokens(&self.text, self.kind, limit))
        } else {
            semantic::tokens(self.document(), None)
        }
    }

    /// The semantic token at byte `offset`, for hover (see
    /// [`Snapshot::walks_lines`]: a large line-oriented document has only the line
    /// there parsed).
    pub fn token_at(&self, offset: usize) -> Option<Token> {
        if self.walks_lines() {
            Self::reading_lines(|| {
                let line = parse_lines_at(&self.text, self.kind, offset);
                semantic::token_at_offset(&line, offset)
            })
        } else {
            semantic::token_at_offset(self.document(), offset)
        }
    }

    /// This version's outline, its first `limit` payloads listed (see
    /// [`Snapshot::walks_lines`]).
    pub fn symbols(&self, limit: usize) -> Outline {
        if self.walks_lines() {
            Self::reading_lines(|| semantic::line_symbols(&self.text, self.kind, limit))
        } else {
            semantic::symbols(self.document(), limit)
        }
    }

    /// The completions at byte `offset` (see [`Snapshot::walks_lines`]: a large
    /// line-oriented document has only the line there parsed).
    pub fn complete(&self, offset: usize, settings: &Settings) -> Vec<completion::Item> {
        if self.walks_lines() {
            Self::reading_lines(|| {
                let line = parse_lines_at(&self.text, self.kind, offset);
                completion::complete(&line, offset, settings)
            })
        } else {
            completion::complete(self.document(), offset, settings)
        }
    }

    /// The edits that format this version, as `silp-lint fmt` makes them (see
    /// [`Snapshot::walks_lines`]: a large line-oriented document is formatted a line
    /// at a time, as `fmt` formats it).
    pub fn format_edits(&self) -> Vec<Edit> {
        if self.walks_lines() {
            Self::reading_lines(|| format::format_edits(&self.text, self.kind))
        } else {
            format::format_document(self.document())
        }
    }

    /// This version linted whole. A line-oriented document over 1 MiB is linted as
    /// `check` lints it, a line at a time in pieces on all threads, so its tree is
    /// not built for the lint (only a request that reads it builds it); any other
    /// through the parse the requests share. Both give the same lint.
    pub fn lint(&self, settings: &Settings) -> FileLint {
        if self.walks_lines() {
            // The messages that brought the text were parsed and freed on other
            // threads (40 MiB of a 10 MB line), and the walk frees its trees and
            // IRs as it goes: without giving their pages back, the server holds
            // them beside whatever it builds next (a request's parse).
            crate::memory::return_freed_pages();
            let lint = lint_text(&self.text, self.kind, settings);
            crate::memory::return_freed_pages();
            lint
        } else {
            lint_document(self.document(), settings)
        }
    }

    /// The LSP position of byte `offset` (clamped to the text and to a char boundary),
    /// in constant time on any line, in any order.
    pub fn position(&self, offset: usize, encoding: Encoding) -> Position {
        let (line, character) = if encoding.utf16() && !self.index.is_ascii() {
            self.index.utf16_position(&self.text, offset, || {
                self.columns.get_or_init(|| Utf16Columns::new(&self.text))
            })
        } else {
            // UTF-8 and ASCII columns are byte distances: nothing to count.
            self.index
                .lsp_position(&self.text, offset, encoding.utf16())
        };
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
/// The changes go into a rope, where finding a position and editing cost logarithmic
/// time, so a batch costs O(size + changes × log size) (a line index rebuilt per
/// change made thousands of changes to a large document take seconds).
fn apply_changes(
    text: &str,
    changes: &[TextDocumentContentChangeEvent],
    encoding: Encoding,
) -> String {
    // A full replacement overwrites everything before it.
    let (base, edits) = match changes.iter().rposition(|c| c.range.is_none()) {
        Some(last) => (changes[last].text.as_str(), &changes[last + 1..]),
        None => (text, changes),
    };
    if edits.is_empty() {
        return base.to_string();
    }
    let mut rope = Rope::from_str(base);
    for (range, insert) in edits.iter().filter_map(|c| Some((c.range?, &c.text))) {
        let a = char_at(&rope, range.start, encoding);
        let b = char_at(&rope, range.end, encoding);
        let start = a.min(b);
        rope.remove(start..a.max(b));
        rope.insert(start, insert);
    }
    rope.to_string()
}

/// The char index of an LSP position in a rope, clamped as
/// [`LineIndex::offset_of_lsp_position`] clamps: columns past a line's end to its end,
/// lines past the end to the end of the text, a column inside a character to its start.
fn char_at(rope: &Rope, position: Position, encoding: Encoding) -> usize {
    let line = position.line as usize;
    if line >= rope.len_lines() {
        return rope.len_chars();
    }
    let start = rope.line_to_char(line);
    let mut end = rope.len_chars();
    if line + 1 < rope.len_lines() {
        end = rope.line_to_char(line + 1);
        // Lines end at `\n`, `\r\n` or a lone `\r`, as in the line index.
        if end > start && rope.char(end - 1) == '\n' {
            end -= 1;
        }
        if end > start && rope.char(end - 1) == '\r' {
            end -= 1;
        }
    }
    // Chars to columns and back (a column inside a character gives that character).
    let (to_units, to_char): (RopeIndex, RopeIndex) = match encoding {
        Encoding::Utf16 => (Rope::char_to_utf16_cu, Rope::utf16_cu_to_char),
        Encoding::Utf8 => (Rope::char_to_byte, Rope::byte_to_char),
    };
    let target = to_units(rope, start) + position.character as usize;
    if target >= to_units(rope, end) {
        end
    } else {
        to_char(rope, target)
    }
}

/// One of ropey's conversions between char indices and another unit.
type RopeIndex = fn(&Rope, usize) -> usize;

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

    /// A large line-oriented document is linted without building its tree, and
    /// finds what its tree's lint finds.
    #[test]
    fn a_large_payload_file_is_linted_without_its_tree() {
        let settings = Settings::default();
        let text = "Cancel(x)\nstart(y)\n".repeat(PIECE_BYTES / 19 + 1);
        let snapshot = Snapshot::new(text, FileKind::Silp);
        assert!(snapshot.walks_lines());
        let lint = snapshot.lint(&settings);
        assert!(snapshot.parsed.get().is_none());
        let whole = lint_document(snapshot.document(), &settings);
        assert_eq!(
            format!("{:?}", lint.diagnostics),
            format!("{:?}", whole.diagnostics)
        );
        assert!(!lint.diagnostics.is_empty());
        // A small one goes through the parse the requests share.
        let small = Snapshot::new("Cancel(x)\n".to_string(), FileKind::Silp);
        assert!(!small.walks_lines());
        small.lint(&settings);
        assert!(small.parsed.get().is_some());
    }

    /// A large line-oriented document is formatted as `fmt` formats its text,
    /// without building its tree.
    #[test]
    fn a_large_payload_file_is_formatted_without_its_tree() {
        let text = "cancel( x )\nstart(y)\n".repeat(PIECE_BYTES / 21 + 1);
        let snapshot = Snapshot::new(text.clone(), FileKind::Silp);
        assert!(snapshot.walks_lines());
        let edits = snapshot.format_edits();
        assert!(snapshot.parsed.get().is_none());
        assert_eq!(edits.len(), PIECE_BYTES / 21 + 1);
        assert_eq!(edits, format::format_document(snapshot.document()));
        assert_eq!(
            crate::diagnostics::apply_edits(&text, &edits),
            format::format_text(&text, FileKind::Silp)
        );
    }

    /// Positions on short non-ASCII lines are counted from their line start: a
    /// keystroke's new version does not count its whole text. A position far into
    /// a long line reads the checkpoints.
    #[test]
    fn utf16_columns_are_counted_once_a_position_is_far_into_a_line() {
        let short = Snapshot::new("# 北京\nstart(😀)\n".repeat(1000), FileKind::Silp);
        let last = short.text.len() - 2;
        assert_eq!(
            short.position(last, Encoding::Utf16),
            Position::new(1999, 8)
        );
        assert!(short.columns.get().is_none());
        let long = Snapshot::new(format!("# {}\n", "北".repeat(2000)), FileKind::Silp);
        let far = long.text.len() - 1;
        assert_eq!(long.position(far, Encoding::Utf16), Position::new(0, 2002));
        assert!(long.columns.get().is_some());
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

    proptest::proptest! {
        #[test]
        fn one_change_spliced_in_is_the_change_applied_in_a_rope(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "a", "😀", "北", "e\u{301}", "\n", "\r\n", "\r",
            ]), 0..20),
            inserted in proptest::sample::select(vec!["", "x", "\n", "\r", "😀\r\n北"]),
            start in (0u32..8, 0u32..8),
            end in (0u32..8, 0u32..8),
            utf8 in proptest::bool::ANY,
        ) {
            let text = pieces.concat();
            let encoding = if utf8 { Encoding::Utf8 } else { Encoding::Utf16 };
            let changes = [change(Some((start, end)), inserted)];
            let spliced = Snapshot::new(text.clone(), FileKind::Silp).changed(&changes, encoding);
            let applied = apply_changes(&text, &changes, encoding);
            proptest::prop_assert_eq!(&*spliced.text, applied.as_str());
            proptest::prop_assert_eq!(&*spliced.index, &LineIndex::new(&applied));
        }
    }

    #[test]
    fn out_of_range_and_reversed_ranges_clamp() {
        let changes = [change(Some(((9, 9), (0, 1))), "!")];
        assert_eq!(apply_changes("ab", &changes, Encoding::Utf16), "a!");
        let changes = [change(Some(((0, 99), (0, 99))), "!")];
        assert_eq!(apply_changes("ab\ncd", &changes, Encoding::Utf8), "ab!\ncd");
    }

    proptest::proptest! {
        #[test]
        fn rope_positions_clamp_as_the_line_index_does(
            pieces in proptest::collection::vec(proptest::sample::select(vec![
                "a", "(", "😀", "\u{E0041}", "北", "e\u{301}", "\n", "\r\n", "\r",
            ]), 0..30),
        ) {
            let text = pieces.concat();
            let index = LineIndex::new(&text);
            let rope = Rope::from_str(&text);
            for line in 0..index.line_count() as u32 + 2 {
                for character in 0..text.len() as u32 + 2 {
                    for encoding in [Encoding::Utf16, Encoding::Utf8] {
                        let expected =
                            index.offset_of_lsp_position(&text, line, character, encoding.utf16());
                        let got = rope.char_to_byte(char_at(&rope, Position::new(line, character), encoding));
                        proptest::prop_assert_eq!(got, expected, "{:?} at {}:{} {:?}", text, line, character, encoding);
                    }
                }
            }
        }
    }

    #[test]
    fn thousands_of_changes_in_one_notification_apply_in_order() {
        // One long non-ASCII line: each change upper-cases the `s` of a `start(😀)`,
        // positions counted in UTF-16 units after the previous changes.
        let count = 8_000;
        let text = "start(😀);".repeat(count);
        let changes: Vec<_> = (0..count as u32)
            .map(|i| change(Some(((0, i * 10), (0, i * 10 + 1))), "S"))
            .collect();
        let got = apply_changes(&text, &changes, Encoding::Utf16);
        assert_eq!(got, "Start(😀);".repeat(count));
        // In UTF-8 the emoji takes four columns.
        let changes: Vec<_> = (0..count as u32)
            .map(|i| change(Some(((0, i * 12), (0, i * 12 + 1))), "S"))
            .collect();
        assert_eq!(
            apply_changes(&text, &changes, Encoding::Utf8),
            "Start(😀);".repeat(count)
        );
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
