//! Human reports on long lines. ariadne prints each line a report shows whole and
//! draws every label's arrow across it, so one report on a 10 MB line (a minified
//! document, a generated payload) prints tens of megabytes, and ten thousand of
//! them took seven minutes and 24 GB. A report that shows a line longer than
//! [`LONG_LINE`] bytes reads a text of its own instead: blank lines up to its
//! lines, so ariadne numbers them as the file does, then its lines, each long one
//! cut to the bytes within [`WINDOW`] of the ends of the labels on it, the cuts
//! marked `…`. Its header names the column in the whole line, as any report's.
//!
//! ariadne indexes every line of the text it reads, blank ones too, so a report on
//! a long line far into a long file costs that file's lines. [`FILE_BLANK_LINES`]
//! bounds that per file: past it, a report is written without its lines, its
//! place in a note.

use super::ShownLines;
use crate::source::{ceil_char_boundary, floor_char_boundary, Span};
use std::cell::Cell;

/// Lines longer than this many bytes (without their line break) are cut.
const LONG_LINE: usize = 400;

/// Bytes of a long line shown on each side of a label's start and end.
const WINDOW: usize = 60;

/// What stands for the bytes cut from a long line.
const ELISION: &str = "…";

/// The most blank lines one windowed report may read before its own lines (ariadne
/// keeps 32 bytes per line: 32 MiB).
const REPORT_BLANK_LINES: usize = 1 << 20;

/// The most blank lines all of a file's windowed reports may read together.
const FILE_BLANK_LINES: usize = 1 << 24;

/// The line breaks ariadne reads (`\r\n` is one).
const LINE_BREAKS: [char; 7] = [
    '\r', '\n', '\u{0B}', '\u{0C}', '\u{85}', '\u{2028}', '\u{2029}',
];

/// A text's lines as ariadne splits them, for a text with a long line.
pub(super) struct LongLines {
    /// Where each line starts; each ends where the next starts, the last at the end.
    starts: Vec<usize>,
    /// The indexes of the lines longer than [`LONG_LINE`], in order.
    long: Vec<usize>,
    /// How many blank lines the file's windowed reports may still read.
    blank_budget: Cell<usize>,
    /// The last header column counted: its offset and its characters from the start
    /// of its line. Reports come in the order of their spans, so each line's
    /// characters are counted once, however many reports it has.
    column: Cell<(usize, usize)>,
}

/// What a report on a long line reads.
pub(super) enum Windowed {
    /// Its own text, where its spans are, and where its header's column is.
    Shown {
        text: String,
        shown: ShownLines,
        header: Header,
    },
    /// Nothing: its lines are too far into the file (see [`FILE_BLANK_LINES`]).
    TooFar { line: usize, column: usize },
}

/// The header ariadne writes for a windowed report (`path:line:column`), with the
/// column counted in the window, and the column in the whole line to write instead.
pub(super) struct Header {
    line: usize,
    windowed_column: usize,
    column: usize,
}

impl LongLines {
    /// The lines of `text`, when one is longer than [`LONG_LINE`] bytes.
    pub(super) fn new(text: &str) -> Option<LongLines> {
        let bytes = text.as_bytes();
        // Nearly every file has no long line: learn that a window at a time, without
        // visiting each line. ariadne's lines are runs without `\n` or shorter.
        let mut line_start = 0;
        loop {
            let window = bytes.get(line_start..line_start + LONG_LINE + 1)?;
            match memchr::memrchr(b'\n', window) {
                Some(last_break) => line_start += last_break + 1,
                None => break,
            }
        }
        let starts: Vec<usize> = if breaks_only_at_line_feeds(text) {
            std::iter::once(0)
                .chain(memchr::memchr_iter(b'\n', bytes).map(|i| i + 1))
                .filter(|&start| start < bytes.len())
                .collect()
        } else {
            // ariadne's own split, `\r\n` taken as one break.
            let mut starts = vec![0];
            let mut at = 0;
            let mut lines = text.split_inclusive(LINE_BREAKS).peekable();
            while let Some(line) = lines.next() {
                at += line.len();
                if line.ends_with('\r') && lines.next_if_eq(&"\n").is_some() {
                    at += 1;
                }
                starts.push(at);
            }
            starts.pop();
            starts
        };
        let lines = LongLines {
            long: Vec::new(),
            starts,
            blank_budget: Cell::new(FILE_BLANK_LINES),
            column: Cell::new((0, 0)),
        };
        let long: Vec<usize> = (0..lines.starts.len())
            .filter(|&line| {
                let (start, _) = lines.bounds(text, line);
                lines.content_end(text, line) - start > LONG_LINE
            })
            .collect();
        (!long.is_empty()).then_some(LongLines { long, ..lines })
    }

    /// The line `offset` is on.
    fn line_of(&self, offset: usize) -> usize {
        self.starts
            .partition_point(|&start| start <= offset)
            .saturating_sub(1)
    }

    /// Where `line` starts and ends, its line break included.
    fn bounds(&self, text: &str, line: usize) -> (usize, usize) {
        let end = self.starts.get(line + 1).copied().unwrap_or(text.len());
        (self.starts[line], end)
    }

    /// Where `line` ends without its line break.
    fn content_end(&self, text: &str, line: usize) -> usize {
        let (start, end) = self.bounds(text, line);
        let line_text = &text[start..end];
        if line_text.ends_with("\r\n") {
            return end - 2;
        }
        match line_text.chars().next_back() {
            Some(last) if LINE_BREAKS.contains(&last) => end - last.len_utf8(),
            _ => end,
        }
    }

    /// The text a report whose labels cover `spans` (the first its own) reads, when
    /// one of the lines it shows is long; `None` when none is, and the file's shared
    /// text serves it. `text` is the file's, without its byte-order mark.
    pub(super) fn window(&self, text: &str, spans: &[Span]) -> Option<Windowed> {
        // The lines the report shows, as the shared text keeps them: from the line
        // of the byte before each span to the line its end is on.
        let mut runs: Vec<(usize, usize)> = spans
            .iter()
            .map(|span| {
                (
                    self.line_of(span.start.saturating_sub(1)),
                    self.line_of(span.end),
                )
            })
            .collect();
        runs.sort_unstable();
        let mut merged: Vec<(usize, usize)> = Vec::with_capacity(runs.len());
        for (first, last) in runs {
            match merged.last_mut() {
                Some(run) if first <= run.1 + 1 => run.1 = run.1.max(last),
                _ => merged.push((first, last)),
            }
        }
        let shows_long_line = merged.iter().any(|&(first, last)| {
            let next_long = self.long.partition_point(|&line| line < first);
            self.long.get(next_long).is_some_and(|&line| line <= last)
        });
        if !shows_long_line {
            return None;
        }
        let main = spans.first()?;
        let line = self.line_of(main.start);
        let column = self.column_of(text, line, main.start);
        // Every line before the last shown is a blank line or a shown one.
        let lines_read = merged.last().map_or(0, |&(_, last)| last);
        let budget = self.blank_budget.get();
        if lines_read > REPORT_BLANK_LINES || lines_read > budget {
            return Some(Windowed::TooFar {
                line: line + 1,
                column: column + 1,
            });
        }
        self.blank_budget.set(budget - lines_read);

        let mut shown = ShownLines { starts: Vec::new() };
        let mut shown_text = String::new();
        let mut main_line_start = 0;
        let mut next_line = 0;
        for (first, last) in merged {
            shown_text.extend(std::iter::repeat_n('\n', first - next_line));
            for shown_line in first..=last {
                if shown_line == line {
                    main_line_start = shown_text.len();
                }
                self.push_line(text, shown_line, spans, &mut shown, &mut shown_text);
            }
            next_line = last + 1;
        }
        let main_in_window = shown.offset(main.start);
        let windowed_column = shown_text
            .get(main_line_start..main_in_window)
            .map_or(0, |before| before.chars().count());
        Some(Windowed::Shown {
            text: shown_text,
            shown,
            header: Header {
                line: line + 1,
                windowed_column: windowed_column + 1,
                column: column + 1,
            },
        })
    }

    /// Appends `line` to `shown_text`: whole when short, else the bytes within
    /// [`WINDOW`] of the ends of `spans` on it (its start when none is), the cuts
    /// marked [`ELISION`].
    fn push_line(
        &self,
        text: &str,
        line: usize,
        spans: &[Span],
        shown: &mut ShownLines,
        shown_text: &mut String,
    ) {
        let (start, end) = self.bounds(text, line);
        let content_end = self.content_end(text, line);
        if content_end - start <= LONG_LINE {
            shown.starts.push((start, shown_text.len()));
            shown_text.push_str(&text[start..end]);
            return;
        }
        let mut ends: Vec<usize> = spans
            .iter()
            .flat_map(|span| [span.start, span.end])
            .filter(|&at| (start..=end).contains(&at) && (at < end || end == text.len()))
            .map(|at| at.min(content_end))
            .collect();
        if ends.is_empty() {
            ends.push(start);
        }
        ends.sort_unstable();
        let mut windows: Vec<Span> = Vec::new();
        for at in ends {
            let from = floor_char_boundary(text, at.saturating_sub(WINDOW).max(start));
            let to = ceil_char_boundary(text, (at + WINDOW).min(content_end));
            match windows.last_mut() {
                // A gap no longer than the mark is shown rather than marked.
                Some(window) if from <= window.end + ELISION.len() => {
                    window.end = window.end.max(to)
                }
                _ => windows.push(from..to),
            }
        }
        let mut at = start;
        for window in windows {
            if window.start > at {
                shown_text.push_str(ELISION);
            }
            shown.starts.push((window.start, shown_text.len()));
            shown_text.push_str(&text[window.clone()]);
            at = window.end;
        }
        if at < content_end {
            shown_text.push_str(ELISION);
        }
        shown.starts.push((content_end, shown_text.len()));
        shown_text.push_str(&text[content_end..end]);
    }

    /// The characters from the start of `line` to `offset`, counted on from the last
    /// column asked for when it is on the same line before `offset`.
    fn column_of(&self, text: &str, line: usize, offset: usize) -> usize {
        let line_start = self.starts[line];
        let (last_offset, last_column) = self.column.get();
        let column = if (line_start..=offset).contains(&last_offset) {
            last_column + text[last_offset..offset].chars().count()
        } else {
            text[line_start..offset].chars().count()
        };
        self.column.set((offset, column));
        column
    }
}

/// Whether `text` breaks lines only with `\n`.
pub(super) fn breaks_only_at_line_feeds(text: &str) -> bool {
    let bytes = text.as_bytes();
    memchr::memchr3(b'\r', 0x0B, 0x0C, bytes).is_none()
        && (memchr::memchr2(0xC2, 0xE2, bytes).is_none()
            || !["\u{85}", "\u{2028}", "\u{2029}"]
                .iter()
                .any(|line_break| text.contains(line_break)))
}

/// Writes `column` for `header.windowed_column` in the header of the report that
/// starts at `report` in `out` (ariadne's second line, after the message's).
pub(super) fn correct_header(
    out: &mut Vec<u8>,
    report: usize,
    message: &str,
    path: &str,
    header: &Header,
) {
    if header.windowed_column == header.column {
        return;
    }
    let message_lines = message.matches('\n').count() + 1;
    let written = &out[report..];
    let Some(header_start) = memchr::memchr_iter(b'\n', written)
        .nth(message_lines - 1)
        .map(|i| report + i + 1)
    else {
        return;
    };
    let header_end =
        memchr::memchr(b'\n', &out[header_start..]).map_or(out.len(), |i| header_start + i);
    let windowed = format!(" {path}:{}:{} ", header.line, header.windowed_column);
    let Some(at) = memchr::memmem::find(&out[header_start..header_end], windowed.as_bytes()) else {
        return;
    };
    let at = header_start + at;
    let whole = format!(" {path}:{}:{} ", header.line, header.column);
    out.splice(at..at + windowed.len(), whole.into_bytes());
}

#[cfg(test)]
mod tests {
    use super::super::tests::{ariadne_only, reports};
    use super::super::{AriadneSource, FileDiagnostics, HumanSource};
    use super::*;
    use crate::diagnostics::{Diagnostic, Related, Severity};
    use proptest::prelude::*;
    use std::borrow::Cow;

    fn diagnostic(span: Span, related: Vec<Span>) -> Diagnostic {
        Diagnostic {
            rule: crate::rules::registry::RULES[0].meta(),
            severity: Severity::Error,
            message: "message".to_string(),
            help: Some("help".into()),
            span,
            fix: None,
            related: related
                .into_iter()
                .map(|span| Related {
                    path: None,
                    span,
                    message: "related".to_string(),
                })
                .collect(),
        }
    }

    /// The reports as ariadne writes them given the whole file.
    fn whole_file_reports(text: &str, diagnostics: &[Diagnostic]) -> Vec<String> {
        let file = FileDiagnostics {
            path: "t.silp",
            text,
            diagnostics,
        };
        let whole = HumanSource {
            long_lines: None,
            ..ariadne_only(&file)
        };
        whole
            .ariadne
            .set(AriadneSource {
                shown: None,
                source: ariadne::Source::from(Cow::Borrowed(whole.text)),
            })
            .ok()
            .unwrap();
        reports(&whole, diagnostics)
    }

    fn windowed_reports(text: &str, diagnostics: &[Diagnostic]) -> Vec<String> {
        let file = FileDiagnostics {
            path: "t.silp",
            text,
            diagnostics,
        };
        reports(&HumanSource::new(&file, false), diagnostics)
    }

    #[test]
    fn a_report_on_a_long_line_shows_the_bytes_around_its_labels() {
        let text = format!(
            "{}Start(b); {}\nnext\n",
            "start(a); ".repeat(300),
            "é".repeat(500)
        );
        let at = text.find("Start").unwrap();
        let first_call = Span::from(6..7);
        let diagnostics = [diagnostic(at..at + 5, vec![first_call])];
        let [report] = &windowed_reports(&text, &diagnostics)[..] else {
            panic!()
        };
        // The header names the column in the whole line: characters, not bytes.
        assert!(report.contains("╭─[ t.silp:1:3001 ]"), "{report}");
        let shown = report.lines().find(|line| line.contains(" 1 │ ")).unwrap();
        assert_eq!(
            shown,
            format!(
                " 1 │ {}start(a…{}Start(b); {}…",
                // 60 bytes on each side of each label's ends, on char boundaries.
                "start(a); ".repeat(6),
                "start(a); ".repeat(6),
                "é".repeat(28)
            )
        );
        assert!(
            report.lines().all(|line| line.chars().count() < 300),
            "{report}"
        );
        assert!(report.contains("Help: help"));
    }

    #[test]
    fn long_lines_are_found_as_ariadne_splits_lines() {
        let long = "x".repeat(LONG_LINE + 1);
        for (text, line) in [
            (format!("a\n{long}\nb"), 1),
            (format!("a\r\n{long}\r\nb"), 1),
            (format!("a\rb\u{2028}{long}\u{85}c"), 2),
            (long.clone(), 0),
        ] {
            let lines = LongLines::new(&text).unwrap();
            assert_eq!(lines.long, [line], "{text:?}");
            let start = text.find('x').unwrap();
            assert_eq!(lines.line_of(start), line);
            assert_eq!(lines.content_end(&text, line), start + long.len());
        }
        let short = "x".repeat(LONG_LINE);
        for text in [
            format!("{short}\n{short}"),
            format!("{short}\r\n{short}\r\n"),
            String::new(),
        ] {
            assert!(LongLines::new(&text).is_none());
        }
    }

    #[test]
    fn a_long_line_past_the_blank_line_budget_is_named_not_shown() {
        let text = format!(
            "{}{}Start(b)\n",
            "\n".repeat(REPORT_BLANK_LINES + 1),
            "start(a); ".repeat(50)
        );
        let at = text.find("Start").unwrap();
        let diagnostics = [diagnostic(at..at + 5, Vec::new())];
        let [report] = &windowed_reports(&text, &diagnostics)[..] else {
            panic!()
        };
        assert_eq!(
            report,
            &format!(
                "[SL001] Error: message\n at t.silp:{}:501: the line is too long to show \
                 this far into the file\n Help: help\n",
                REPORT_BLANK_LINES + 2
            )
        );
    }

    proptest! {
        /// A windowed report says what the whole file's report says: the same
        /// header (line and column), the same rows of labels and notes, each line
        /// a few windows wide, with line breaks of every kind ariadne reads.
        #[test]
        fn windowed_reports_place_labels_as_the_whole_file_does(
            pieces in proptest::collection::vec(
                prop_oneof![
                    "[a-z é北;()]{1,8}".prop_map(|s| s.repeat(100)),
                    "[a-z é北]{0,12}",
                    Just("\n".to_string()),
                    Just("\r\n".to_string()),
                    Just("\u{2028}".to_string()),
                ],
                1..12,
            ),
            spans in proptest::collection::vec(
                ((0usize..4000, 0usize..200), proptest::collection::vec((0usize..4000, 0usize..30), 0..3)),
                1..5,
            ),
        ) {
            let text: String = pieces.concat();
            let span = |(start, length): (usize, usize)| {
                let start = floor_char_boundary(&text, start);
                start..floor_char_boundary(&text, start + length)
            };
            let mut diagnostics: Vec<Diagnostic> = spans
                .into_iter()
                .map(|(primary, related)| diagnostic(span(primary), related.into_iter().map(span).collect()))
                .collect();
            diagnostics.sort_by_key(|d| (d.span.start, d.span.end));
            let windowed = windowed_reports(&text, &diagnostics);
            let whole = whole_file_reports(&text, &diagnostics);
            for ((windowed, whole), d) in windowed.iter().zip(&whole).zip(&diagnostics) {
                let header = |report: &str| report.lines().take(2).map(str::to_string).collect::<Vec<_>>();
                prop_assert_eq!(header(windowed), header(whole));
                prop_assert_eq!(windowed.lines().count(), whole.lines().count(), "{}\n{}", windowed, whole);
                // In characters, as ariadne draws: a margin, a label's name, and
                // the shown bytes (a short line whole, or a window at each label end).
                let label_ends = 2 * (1 + d.related.len());
                let widest = 40 + LONG_LINE + label_ends * (2 * WINDOW + 8);
                prop_assert!(
                    windowed.lines().all(|line| line.chars().count() <= widest),
                    "{}",
                    windowed
                );
            }
        }
    }
}
