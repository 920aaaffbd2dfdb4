//! Source files: what kind of payload file a path is, and byte offset <-> line/column
//! conversion (characters for the CLI, UTF-16 or UTF-8 units for editors).

use std::cell::{Cell, OnceCell};
use std::ops::Range;

/// A byte range into the text of one file.
pub type Span = Range<usize>;

/// The kinds of file silp-lint reads (cli.md, "Files it reads").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FileKind {
    /// `*.silp`: one code-frontend payload (or `//ping` probe) per line.
    Silp,
    /// `*.slip`: one Slipstream message per line.
    Slip,
    /// `*.silp.json`: one JSON object or an array of them (IR or JSON frontend).
    SilpJson,
    /// `*.silp.jsonl`: one JSON object per line.
    SilpJsonl,
    /// `*.nlip.json`: one NLIP message.
    Nlip,
    /// `*.mcp-call.json`: MCP JSON-RPC messages (or tool arguments) carrying SILP
    /// payloads in `silp_encoding`/`silp_payload` wrappers.
    McpCall,
    /// `*.a2a.json`: A2A messages, requests and Agent Cards using the Slipstream
    /// extension.
    A2a,
    /// `*.md`: fenced `silp`, `slip` and `silp-json` blocks.
    Markdown,
}

impl FileKind {
    /// Recognises a file kind from a file name, as cli.md specifies.
    pub fn from_path(path: &str) -> Option<FileKind> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        let lower = name.to_ascii_lowercase();
        if lower.ends_with(".silp.jsonl") {
            Some(FileKind::SilpJsonl)
        } else if lower.ends_with(".silp.json") {
            Some(FileKind::SilpJson)
        } else if lower.ends_with(".nlip.json") {
            Some(FileKind::Nlip)
        } else if lower.ends_with(".mcp-call.json") {
            Some(FileKind::McpCall)
        } else if lower.ends_with(".a2a.json") {
            Some(FileKind::A2a)
        } else if lower.ends_with(".silp") {
            Some(FileKind::Silp)
        } else if lower.ends_with(".slip") {
            Some(FileKind::Slip)
        } else if lower.ends_with(".md") {
            Some(FileKind::Markdown)
        } else {
            None
        }
    }

    /// The fence tag or language id that selects this kind inside Markdown or an editor.
    pub fn from_language_id(id: &str) -> Option<FileKind> {
        match id {
            "silp" => Some(FileKind::Silp),
            "slip" => Some(FileKind::Slip),
            "silp-json" | "silp.json" => Some(FileKind::SilpJson),
            "silp-jsonl" => Some(FileKind::SilpJsonl),
            "nlip" | "nlip-json" => Some(FileKind::Nlip),
            "mcp-call-json" => Some(FileKind::McpCall),
            "a2a-json" => Some(FileKind::A2a),
            "markdown" => Some(FileKind::Markdown),
            _ => None,
        }
    }
}

/// A 1-based line and 1-based column in Unicode scalar values, plus the byte offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Location {
    pub line: usize,
    pub column: usize,
    pub offset: usize,
}

impl Location {
    /// The location of `offset` of `text`, on 0-based `line` and `column` characters
    /// from that line's start.
    fn at(text: &str, line: usize, column: usize, offset: usize) -> Location {
        // Editors hide a byte-order mark: line 1's columns start after it.
        let bom = line == 0 && offset > 0 && text.starts_with('\u{feff}');
        Location {
            line: line + 1,
            column: column + 1 - usize::from(bom),
            offset,
        }
    }
}

/// The positions of many offsets of one text, asked for in order (a file's sorted
/// diagnostics, its `req_id`s): lines and characters are counted on from the last
/// offset asked for, so positions cost the text up to the last of them, once, and
/// many on one long line cost linear time, not quadratic. The line index is built
/// only when an offset comes before the previous one or the text holds a `\r`.
pub struct Locator<'t> {
    text: &'t str,
    /// Whether the text has a `\r`, which may or may not end a line on its own.
    has_cr: bool,
    index: OnceCell<LineIndex>,
    last: Cell<Cursor>,
}

/// The last offset located: its 0-based line, and its characters from the line's start.
#[derive(Clone, Copy, Default)]
struct Cursor {
    offset: usize,
    line: usize,
    column: usize,
}

impl<'t> Locator<'t> {
    pub fn new(text: &'t str) -> Locator<'t> {
        Locator {
            text,
            has_cr: memchr::memchr(b'\r', text.as_bytes()).is_some(),
            index: OnceCell::new(),
            last: Cell::new(Cursor::default()),
        }
    }

    pub fn location(&self, offset: usize) -> Location {
        let text = self.text;
        let at = self.last.get();
        let offset = floor_char_boundary(text, offset);
        if self.has_cr || offset < at.offset || self.index.get().is_some() {
            return self.location_by_index(offset);
        }
        let between = &text.as_bytes()[at.offset..offset];
        let cursor = match memchr::memrchr(b'\n', between) {
            None => Cursor {
                offset,
                line: at.line,
                column: at.column + text[at.offset..offset].chars().count(),
            },
            Some(last_break) => Cursor {
                offset,
                line: at.line + line_feeds_in(between),
                column: text[at.offset + last_break + 1..offset].chars().count(),
            },
        };
        self.last.set(cursor);
        Location::at(text, cursor.line, cursor.column, offset)
    }

    fn location_by_index(&self, offset: usize) -> Location {
        let text = self.text;
        let index = self.index.get_or_init(|| LineIndex::new(text));
        let at = self.last.get();
        let line = index.line_of(offset);
        let start = index.line_start(line, text);
        let column = if index.is_ascii() {
            offset - start
        } else if at.line != line {
            text[start..offset].chars().count()
        } else if at.offset <= offset {
            at.column + text[at.offset..offset].chars().count()
        } else {
            at.column - text[offset..at.offset].chars().count()
        };
        self.last.set(Cursor {
            offset,
            line,
            column,
        });
        Location::at(text, line, column, offset)
    }
}

/// The `\n`s in `bytes`, counted in byte-wide sums the compiler vectorises.
fn line_feeds_in(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|chunk| usize::from(chunk.iter().fold(0u8, |sum, &b| sum + u8::from(b == b'\n'))))
        .sum()
}

/// Line starts of a text, for converting byte offsets to positions. Lines end at
/// `\n`, `\r\n` or a lone `\r`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineIndex {
    starts: Vec<usize>,
    ascii: bool,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        for i in memchr::memchr2_iter(b'\n', b'\r', bytes) {
            if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                continue;
            }
            starts.push(i + 1);
        }
        LineIndex {
            starts,
            ascii: text.is_ascii(),
        }
    }

    /// The index of `text`, which is the indexed text with the bytes in `replaced`
    /// (old offsets) replaced by the `inserted` bytes now at `replaced.start`: the
    /// starts before the edit are kept, those after it shifted, and only the inserted
    /// bytes are searched (an editor's keystroke, where a new index of a large
    /// document cost more than linting the lines around it).
    pub fn edited(&self, text: &str, replaced: Span, inserted: usize) -> LineIndex {
        let bytes = text.as_bytes();
        let inserted_end = replaced.start + inserted;
        // A line break at byte `i` depends on bytes `i` and `i + 1` (`\r\n` is one
        // break), so the byte before the edit is searched again with the insertion.
        let searched_from = replaced.start.saturating_sub(1);
        let kept = self.starts.partition_point(|&start| start <= searched_from);
        let shifted = self.starts.partition_point(|&start| start <= replaced.end);
        let mut starts = Vec::with_capacity(kept + (self.starts.len() - shifted) + 1);
        starts.extend_from_slice(&self.starts[..kept]);
        for i in memchr::memchr2_iter(b'\n', b'\r', &bytes[searched_from..inserted_end]) {
            let i = searched_from + i;
            if bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n') {
                continue;
            }
            starts.push(i + 1);
        }
        starts.extend(
            self.starts[shifted..]
                .iter()
                .map(|&start| start - replaced.end + inserted_end),
        );
        LineIndex {
            starts,
            // Removing bytes cannot make ASCII text non-ASCII.
            ascii: if self.ascii {
                bytes[replaced.start..inserted_end].is_ascii()
            } else {
                text.is_ascii()
            },
        }
    }

    /// Whether the text is ASCII (every column is a byte offset from the line start).
    pub fn is_ascii(&self) -> bool {
        self.ascii
    }

    /// Number of lines (a trailing newline opens an empty last line).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// The 0-based line holding `offset`.
    pub fn line_of(&self, offset: usize) -> usize {
        match self.starts.binary_search(&offset) {
            Ok(line) => line,
            Err(next) => next - 1,
        }
    }

    /// Byte offset where 0-based `line` starts; the text length past the end.
    pub fn line_start(&self, line: usize, text: &str) -> usize {
        self.starts.get(line).copied().unwrap_or(text.len())
    }

    /// Byte range of 0-based `line`, without its line terminator.
    pub fn line_range(&self, line: usize, text: &str) -> Span {
        let start = self.line_start(line, text);
        let mut end = self.line_start(line + 1, text);
        let bytes = text.as_bytes();
        if end > start && end <= bytes.len() && line + 1 < self.starts.len() {
            if bytes[end - 1] == b'\n' {
                end -= 1;
            }
            if end > start && bytes[end - 1] == b'\r' {
                end -= 1;
            }
        }
        start..end.max(start)
    }

    /// Converts a byte offset (clamped to the text, and back to a char boundary) into
    /// a 1-based line and character column.
    pub fn location(&self, text: &str, offset: usize) -> Location {
        let offset = floor_char_boundary(text, offset);
        let line = self.line_of(offset);
        let start = self.starts[line];
        let column = if self.ascii {
            offset - start
        } else {
            text[start..offset].chars().count()
        };
        Location::at(text, line, column, offset)
    }

    /// 0-based line and column in UTF-16 code units (`utf16 == true`) or UTF-8 bytes.
    pub fn lsp_position(&self, text: &str, offset: usize, utf16: bool) -> (u32, u32) {
        let offset = floor_char_boundary(text, offset);
        let line = self.line_of(offset);
        let start = self.starts[line];
        let column = if self.ascii || !utf16 {
            offset - start
        } else {
            text[start..offset].chars().map(char::len_utf16).sum()
        };
        (line as u32, column as u32)
    }

    /// The byte offset of a 0-based line and UTF-16 (or UTF-8) column. Positions past
    /// the end of a line clamp to its end, lines past the end to the end of the text,
    /// and a column inside a character to that character's start.
    pub fn offset_of_lsp_position(&self, text: &str, line: u32, column: u32, utf16: bool) -> usize {
        let line = line as usize;
        if line >= self.starts.len() {
            return text.len();
        }
        let range = self.line_range(line, text);
        let mut units = 0usize;
        for (i, ch) in text[range.clone()].char_indices() {
            let width = if utf16 { ch.len_utf16() } else { ch.len_utf8() };
            if units + width > column as usize {
                return range.start + i;
            }
            units += width;
        }
        range.end
    }
}

/// Bytes between two checkpoints of [`Utf16Columns`].
const CHECKPOINT_STRIDE: usize = 64;

/// UTF-16 columns of a text at any offsets, in any order, in constant time each:
/// the UTF-16 units before every 64th byte are counted once, so a column costs a
/// binary search for its line and at most two 64-byte counts. (Counting from the line
/// start each time made many positions on one long line quadratic.)
#[derive(Clone, Debug)]
pub struct Utf16Columns {
    /// `units[k]`: the UTF-16 units of the characters that start before byte `64 k`.
    units: Vec<usize>,
}

impl Utf16Columns {
    pub fn new(text: &str) -> Utf16Columns {
        let mut units = Vec::with_capacity(text.len() / CHECKPOINT_STRIDE + 1);
        let mut total = 0;
        units.push(0);
        for chunk in text.as_bytes().chunks(CHECKPOINT_STRIDE) {
            total += utf16_units_starting_in(chunk);
            units.push(total);
        }
        Utf16Columns { units }
    }

    /// The UTF-16 units of `text[..offset]` (`offset` on a char boundary of the text
    /// the checkpoints were counted in).
    fn units_before(&self, text: &str, offset: usize) -> usize {
        let checkpoint = offset / CHECKPOINT_STRIDE;
        let from = checkpoint * CHECKPOINT_STRIDE;
        self.units[checkpoint] + utf16_units_starting_in(&text.as_bytes()[from..offset])
    }
}

/// How far into its line a UTF-16 column is counted from the line start: a few
/// hundred nanoseconds at most, where [`Utf16Columns`] costs a pass over the whole
/// text, once per version of a document.
const COUNTED_FROM_LINE_START: usize = 1024;

impl LineIndex {
    /// [`LineIndex::lsp_position`] in UTF-16 units, in constant time: counted from
    /// the line start up to [`COUNTED_FROM_LINE_START`] bytes into a line, read off
    /// `columns` (made on first need) further in, so that a document of short
    /// lines never counts its whole text and many positions on one long line cost
    /// no more than they would on short ones.
    pub fn utf16_position<'c>(
        &self,
        text: &str,
        offset: usize,
        columns: impl FnOnce() -> &'c Utf16Columns,
    ) -> (u32, u32) {
        self.utf16_position_counting(text, offset, COUNTED_FROM_LINE_START, columns)
    }

    fn utf16_position_counting<'c>(
        &self,
        text: &str,
        offset: usize,
        counted_from_line_start: usize,
        columns: impl FnOnce() -> &'c Utf16Columns,
    ) -> (u32, u32) {
        let offset = floor_char_boundary(text, offset);
        let line = self.line_of(offset);
        let start = self.line_start(line, text);
        let column = if offset - start <= counted_from_line_start {
            utf16_units_starting_in(&text.as_bytes()[start..offset])
        } else {
            let columns = columns();
            columns.units_before(text, offset) - columns.units_before(text, start)
        };
        (line as u32, column as u32)
    }
}

/// The UTF-16 units of the characters whose first byte is in `bytes`: one for each
/// byte that is not a continuation byte, and one more for a four-byte character.
fn utf16_units_starting_in(bytes: &[u8]) -> usize {
    #[cfg(test)]
    tests::COUNTED.with(|counted| counted.set(counted.get() + bytes.len()));
    // Most of a prompt library is ASCII, and `is_ascii` reads a word at a time.
    if bytes.is_ascii() {
        return bytes.len();
    }
    // Byte-wide sums, which the compiler vectorises: 64 bytes count at most 128.
    bytes
        .chunks(64)
        .map(|chunk| {
            let units = chunk.iter().fold(0u8, |sum, &b| {
                sum + u8::from(b & 0xC0 != 0x80) + u8::from(b >= 0xF0)
            });
            usize::from(units)
        })
        .sum()
}

/// The largest char boundary not after `offset` (clamped to the text length).
pub fn floor_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// The smallest char boundary not before `offset` (clamped to the text length).
pub fn ceil_char_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset += 1;
    }
    offset
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::cell::Cell;

    thread_local! {
        /// Bytes [`Utf16Columns`] counted on this thread: its work, for the bounds below.
        pub static COUNTED: Cell<usize> = const { Cell::new(0) };
    }

    #[test]
    fn kinds_from_paths() {
        assert_eq!(FileKind::from_path("a/b.silp"), Some(FileKind::Silp));
        assert_eq!(FileKind::from_path("x.SILP.JSON"), Some(FileKind::SilpJson));
        assert_eq!(
            FileKind::from_path("x.silp.jsonl"),
            Some(FileKind::SilpJsonl)
        );
        assert_eq!(FileKind::from_path("m.nlip.json"), Some(FileKind::Nlip));
        assert_eq!(
            FileKind::from_path("book.mcp-call.json"),
            Some(FileKind::McpCall)
        );
        assert_eq!(FileKind::from_path("send.A2A.json"), Some(FileKind::A2a));
        // An MCP client's configuration is not a payload file.
        assert_eq!(FileKind::from_path(".mcp.json"), None);
        assert_eq!(FileKind::from_path("plain.json"), None);
    }

    #[test]
    fn locations_count_characters_on_every_line_ending() {
        let text = "ab\r\nçd\re\nf";
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 4);
        let at = |o| {
            let l = index.location(text, o);
            (l.line, l.column)
        };
        assert_eq!(at(0), (1, 1));
        assert_eq!(at(4), (2, 1));
        assert_eq!(at(6), (2, 2)); // after the two-byte ç
        assert_eq!(at(8), (3, 1));
        assert_eq!(at(10), (4, 1));
        assert_eq!(index.line_range(0, text), 0..2);
        assert_eq!(index.line_range(1, text), 4..7);
    }

    #[test]
    fn a_locator_agrees_with_the_line_index_in_any_order() {
        let text = "\u{feff}Ив_ан a\r\n北京 é\rx😀y\n\nend";
        let index = LineIndex::new(text);
        let locator = Locator::new(text);
        let offsets: Vec<usize> = (0..=text.len()).collect();
        // Forwards, backwards and jumping between lines, as overlapping spans do.
        let order = offsets
            .iter()
            .chain(offsets.iter().rev())
            .chain(offsets.iter().step_by(7))
            .chain(offsets.iter().rev().step_by(3));
        for &offset in order {
            assert_eq!(
                locator.location(offset),
                index.location(text, offset),
                "{offset}"
            );
        }
    }

    #[test]
    fn utf16_positions_round_trip_and_clamp() {
        let text = "a😀b\n北京";
        let index = LineIndex::new(text);
        let b = text.find('b').unwrap();
        assert_eq!(index.lsp_position(text, b, true), (0, 3));
        assert_eq!(index.lsp_position(text, b, false), (0, 5));
        assert_eq!(index.offset_of_lsp_position(text, 0, 3, true), b);
        // inside the surrogate pair: snaps to the emoji's start
        assert_eq!(index.offset_of_lsp_position(text, 0, 2, true), 1);
        assert_eq!(index.offset_of_lsp_position(text, 0, 99, true), b + 1);
        assert_eq!(index.offset_of_lsp_position(text, 9, 0, true), text.len());
    }

    /// Text from pieces that stress UTF-16 columns: a byte-order mark, emoji (a
    /// surrogate pair), a tag character, CJK, a combining mark and every line ending.
    fn stressing_text() -> impl Strategy<Value = String> {
        let pieces = prop::sample::select(vec![
            "a",
            " ",
            "(",
            "\u{feff}",
            "😀",
            "\u{E0041}",
            "北京",
            "e\u{301}",
            "é",
            "\n",
            "\r\n",
            "\r",
        ]);
        prop::collection::vec(pieces, 0..200).prop_map(|v| v.concat())
    }

    proptest! {
        #[test]
        fn an_edited_index_is_the_index_of_the_edited_text(
            text in stressing_text(),
            inserted in stressing_text(),
            a in any::<prop::sample::Index>(),
            b in any::<prop::sample::Index>(),
        ) {
            let boundaries: Vec<usize> =
                (0..=text.len()).filter(|&i| text.is_char_boundary(i)).collect();
            let (a, b) = (a.get(&boundaries), b.get(&boundaries));
            let replaced = *a.min(b)..*a.max(b);
            let edited = format!(
                "{}{inserted}{}",
                &text[..replaced.start],
                &text[replaced.end..]
            );
            prop_assert_eq!(
                LineIndex::new(&text).edited(&edited, replaced, inserted.len()),
                LineIndex::new(&edited)
            );
        }

        #[test]
        fn a_locator_agrees_with_the_line_index_forwards_then_in_any_order(
            text in stressing_text(),
            without_cr in any::<bool>(),
            forwards in prop::collection::vec(any::<prop::sample::Index>(), 0..60),
            then in prop::collection::vec(any::<prop::sample::Index>(), 0..20),
        ) {
            // Without a `\r`, sorted offsets are counted on from each other; the
            // first offset before its predecessor, or any `\r`, brings in the index.
            let text = if without_cr { text.replace('\r', "") } else { text };
            let index = LineIndex::new(&text);
            let locator = Locator::new(&text);
            let mut offsets: Vec<usize> =
                forwards.iter().map(|i| i.index(text.len() + 2)).collect();
            offsets.sort_unstable();
            offsets.extend(then.iter().map(|i| i.index(text.len() + 2)));
            for offset in offsets {
                prop_assert_eq!(
                    locator.location(offset),
                    index.location(&text, offset),
                    "offset {}", offset
                );
            }
        }

        #[test]
        fn utf16_columns_agree_with_counting_from_the_line_start_in_any_order(
            text in stressing_text(),
            order in prop::collection::vec(any::<prop::sample::Index>(), 0..300),
        ) {
            let index = LineIndex::new(&text);
            let columns = Utf16Columns::new(&text);
            // Every offset (inside characters too) forwards, then a random order;
            // through the checkpoints alone, counted from the line start alone,
            // and as positions are found.
            let offsets = (0..=text.len()).chain(order.iter().map(|i| i.index(text.len() + 1)));
            for offset in offsets {
                let counted = index.lsp_position(&text, offset, true);
                for counted_from_line_start in [0, usize::MAX, COUNTED_FROM_LINE_START] {
                    prop_assert_eq!(
                        index.utf16_position_counting(&text, offset, counted_from_line_start, || &columns),
                        counted,
                        "offset {} counted up to {}", offset, counted_from_line_start
                    );
                }
            }
        }
    }

    #[test]
    fn a_utf16_column_on_a_long_line_counts_at_most_two_strides() {
        let text = format!("é{}\r\n北京", "start(😀);".repeat(100_000));
        let index = LineIndex::new(&text);
        let columns = Utf16Columns::new(&text);
        let position = |offset| index.utf16_position(&text, offset, || &columns);
        let offsets: Vec<usize> = (COUNTED_FROM_LINE_START + 1..text.len())
            .step_by(97)
            .collect();
        COUNTED.with(|counted| counted.set(0));
        // Backwards: the worst order for counting on from the previous offset.
        for &offset in offsets.iter().rev() {
            position(offset);
        }
        let counted = COUNTED.with(Cell::get);
        assert!(
            counted <= offsets.len() * 2 * CHECKPOINT_STRIDE,
            "{counted} bytes counted for {} offsets",
            offsets.len()
        );
        let last = text.len() - "北京".len();
        assert_eq!(position(last), (1, 0));
        assert_eq!(
            position(last - 2),
            index.lsp_position(&text, last - 2, true)
        );
    }
}
