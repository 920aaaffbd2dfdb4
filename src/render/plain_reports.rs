//! Human reports without colour, drawn byte for byte as ariadne draws them, for
//! the reports nearly every run prints: each label on one line.
//!
//! ariadne writes a report a character at a time through the formatting machinery
//! and scans every label for every column it draws; that was over a third of a
//! human run. Here a line of text is appended whole, and a row of arrows a column
//! at a time with the widths ariadne gives characters (`char_width`: a tab to the
//! next multiple of 4, other whitespace 1, the rest their Unicode width). Anything
//! else (colour, labels over several lines, line breaks other than `\n`, positions
//! at the end of the text) is left to ariadne: [`write`] says whether it drew the
//! report. The text's lines must break at `\n` alone (`HumanSource` checks), so
//! that a [`LineIndex`] splits them as ariadne does. The tests compare both
//! renderers on generated reports.

use crate::source::{LineIndex, Span};
use unicode_width::UnicodeWidthChar;

/// The 0-based line of `index` holding `offset` (before the text's end), and its
/// bytes with its `\n`: a line as ariadne splits a text that `\n` alone breaks.
fn line_of(index: &LineIndex, text: &str, offset: usize) -> (usize, Span) {
    let line = index.line_of(offset);
    (line, line_bytes(index, text, line))
}

fn line_bytes(index: &LineIndex, text: &str, line: usize) -> Span {
    index.line_start(line, text)..index.line_start(line + 1, text)
}

/// What heads a report: `[code] kind: message`.
pub(super) struct Heading<'a> {
    pub code: &'a str,
    /// As ariadne names it: `Error`, `Warning`, or a custom kind's name.
    pub kind: &'a str,
    pub message: &'a str,
}

/// A label placed on its line: characters from the line's start, as ariadne
/// counts columns.
struct Placed<'a> {
    line: usize,
    start: usize,
    end: usize,
    message: &'a str,
    /// Where the label's arrow drops: the middle of its span.
    column: usize,
}

/// Appends the report to `out` and returns `true`, or returns `false` and appends
/// nothing when ariadne must draw it. `labels` are spans of `text` with their
/// messages, the diagnostic's own first.
pub(super) fn write<'a>(
    out: &mut Vec<u8>,
    text: &str,
    lines: &LineIndex,
    path: &str,
    heading: &Heading,
    labels: impl Iterator<Item = (Span, &'a str)>,
    footer: [(&str, Option<&str>); 2],
) -> bool {
    let Some(placed) = labels
        .map(|(span, message)| place(text, lines, span, message))
        .collect::<Option<Vec<Placed>>>()
    else {
        return false;
    };
    let Some(first) = placed.first() else {
        return false;
    };
    // ariadne groups the labels in their order, starting a group wherever a label
    // lies on a line before the last one's.
    let mut groups: Vec<&[Placed]> = Vec::new();
    let mut group_start = 0;
    for i in 1..=placed.len() {
        if i == placed.len() || placed[i].line < placed[i - 1].line {
            groups.push(&placed[group_start..i]);
            group_start = i;
        }
    }
    let width = groups
        .iter()
        .map(|group| digits(group[group.len() - 1].line + 1))
        .max()
        .unwrap_or(1);
    let mut number = itoa::Buffer::new();
    out.push(b'[');
    out.extend_from_slice(heading.code.as_bytes());
    out.extend_from_slice(b"] ");
    out.extend_from_slice(heading.kind.as_bytes());
    out.extend_from_slice(b": ");
    out.extend_from_slice(heading.message.as_bytes());
    out.push(b'\n');
    let blank_margin = |out: &mut Vec<u8>| {
        spaces(out, width + 2);
        out.extend_from_slice("│ ".as_bytes());
    };
    for (index, group) in groups.iter().enumerate() {
        // Every group names the report's own position.
        spaces(out, width + 2);
        out.extend_from_slice(if index == 0 { "╭─[ " } else { "├─[ " }.as_bytes());
        out.extend_from_slice(path.as_bytes());
        out.push(b':');
        out.extend_from_slice(number.format(first.line + 1).as_bytes());
        out.push(b':');
        out.extend_from_slice(number.format(first.start + 1).as_bytes());
        out.extend_from_slice(" ]\n".as_bytes());
        spaces(out, width + 2);
        out.extend_from_slice("│\n".as_bytes());
        // The group's labels lie on non-decreasing lines: each run of them on one
        // line is drawn with it, and a run of lines without labels between two is
        // one blank margin.
        let mut run_start = 0;
        while run_start < group.len() {
            let line = group[run_start].line;
            let run_end = run_start
                + group[run_start..]
                    .iter()
                    .take_while(|l| l.line == line)
                    .count();
            if run_start > 0 && line > group[run_start - 1].line + 1 {
                blank_margin(out);
                out.push(b'\n');
            }
            let mut on_line: Vec<&Placed> = group[run_start..run_end].iter().collect();
            on_line.sort_by_key(|l| (l.column, std::cmp::Reverse(l.start)));
            draw_line(out, text, lines, line, &on_line, width, &blank_margin);
            run_start = run_end;
        }
        if index + 1 < groups.len() {
            spaces(out, width + 2);
            out.extend_from_slice("│\n".as_bytes());
            continue;
        }
        for (name, body) in footer {
            let Some(body) = body else { continue };
            blank_margin(out);
            out.push(b'\n');
            for (i, body_line) in body.lines().enumerate() {
                blank_margin(out);
                if i == 0 {
                    out.extend_from_slice(name.as_bytes());
                    out.extend_from_slice(b": ");
                } else {
                    spaces(out, name.len() + 2);
                }
                out.extend_from_slice(body_line.as_bytes());
                out.push(b'\n');
            }
        }
        out.extend_from_slice("─".repeat(width + 2).as_bytes());
        out.extend_from_slice("╯\n".as_bytes());
    }
    true
}

/// `span` on its line, or `None` when ariadne must draw it: a span over several
/// lines, one at the text's end, or an empty one at a line's start (ariadne labels
/// it on the line before too).
fn place<'a>(text: &str, lines: &LineIndex, span: Span, message: &'a str) -> Option<Placed<'a>> {
    if span.start >= text.len() || span.end < span.start || span.end > text.len() {
        return None;
    }
    let (line, bytes) = line_of(lines, text, span.start);
    if span.end > bytes.end || (span.is_empty() && span.start == bytes.start && line > 0) {
        return None;
    }
    let chars_to = |offset: usize| {
        let before = &text.as_bytes()[bytes.start..offset];
        if before.is_ascii() {
            before.len()
        } else {
            text[bytes.start..offset].chars().count()
        }
    };
    let (start, end) = (chars_to(span.start), chars_to(span.end));
    Some(Placed {
        line,
        start,
        end,
        message,
        column: (start + end) / 2,
    })
}

/// One line of the text and its labels' arrows, as ariadne draws labels that each
/// lie on one line: a row of underlines, then a row per label (in `on_line`'s
/// order) ending in its message, with a bar down from every label still to come.
/// Each column is as wide as the line's character above it (a column past the
/// line's end, 1): its first cell holds the column's mark, the others its tail.
fn draw_line(
    out: &mut Vec<u8>,
    text: &str,
    lines: &LineIndex,
    line: usize,
    on_line: &[&Placed],
    width: usize,
    blank_margin: &dyn Fn(&mut Vec<u8>),
) {
    let bytes = line_bytes(lines, text, line);
    let content = text[bytes].trim_end();
    let mut number = itoa::Buffer::new();
    let number = number.format(line + 1);
    spaces(out, width - number.len() + 1);
    out.extend_from_slice(number.as_bytes());
    out.extend_from_slice(" │ ".as_bytes());
    // Columns' widths, when a character of the line is not one column wide.
    let mut widths: Option<Vec<usize>> = None;
    if content.bytes().all(|b| (b' '..=b'~').contains(&b)) {
        out.extend_from_slice(content.as_bytes());
    } else {
        let widths = widths.insert(Vec::new());
        for (column, c) in content.chars().enumerate() {
            let width = char_width(c, column);
            widths.push(width);
            if c.is_whitespace() {
                spaces(out, width);
            } else {
                let mut utf8 = [0; 4];
                out.extend_from_slice(c.encode_utf8(&mut utf8).as_bytes());
            }
        }
    }
    out.push(b'\n');
    let width_of = |column: usize| {
        widths
            .as_ref()
            .and_then(|w| w.get(column).copied())
            .unwrap_or(1)
    };
    let arrow_len = on_line.iter().map(|l| l.end).max().unwrap_or(0) + 2;
    let drops_below = |column: usize, row: usize| on_line[row..].iter().any(|l| l.column == column);
    for (row, label) in on_line.iter().enumerate() {
        blank_margin(out);
        for column in 0..arrow_len {
            let under = row == 0 && on_line.iter().any(|l| (l.start..l.end).contains(&column));
            let (mark, tail) = match (drops_below(column, row), under) {
                (true, true) => ('┬', '─'),
                (true, false) => ('│', ' '),
                (false, true) => ('─', '─'),
                (false, false) => (' ', ' '),
            };
            push_column(out, mark, tail, width_of(column));
        }
        out.push(b'\n');
        blank_margin(out);
        for column in 0..arrow_len {
            let (mark, tail) = if column == label.column {
                ('╰', '─')
            } else if column > label.column {
                ('─', '─')
            } else if drops_below(column, row) {
                ('│', ' ')
            } else {
                (' ', ' ')
            };
            push_column(out, mark, tail, width_of(column));
        }
        out.push(b' ');
        out.extend_from_slice(label.message.as_bytes());
        out.push(b'\n');
    }
}

/// How many columns ariadne gives `c` at `column` (its `Config::char_width`, with
/// tabs 4 wide).
fn char_width(c: char, column: usize) -> usize {
    match c {
        '\t' => (column / 4 + 1) * 4 - column,
        c if c.is_whitespace() => 1,
        c => c.width().unwrap_or(1),
    }
}

/// Appends a column `width` cells wide: `mark`, then `tail` in the other cells.
fn push_column(out: &mut Vec<u8>, mark: char, tail: char, width: usize) {
    if width > 0 {
        push_drawn(out, mark);
    }
    for _ in 1..width {
        push_drawn(out, tail);
    }
}

/// Appends a space or a box-drawing character (three bytes of UTF-8): a copy of a
/// known length, where a `&str` of either length costs a call to `memcpy`.
fn push_drawn(out: &mut Vec<u8>, drawn: char) {
    if drawn == ' ' {
        out.push(b' ');
    } else {
        let mut utf8 = [0; 3];
        drawn.encode_utf8(&mut utf8);
        out.extend_from_slice(&utf8);
    }
}

fn spaces(out: &mut Vec<u8>, count: usize) {
    out.resize(out.len() + count, b' ');
}

/// The digits of `n`, as ariadne counts them for the margin's width.
fn digits(n: usize) -> usize {
    itoa::Buffer::new().format(n).len()
}

#[cfg(test)]
mod tests {
    use super::super::tests::ariadne_only;
    use super::super::{human, plain_report, FileDiagnostics, HumanSource};
    use crate::diagnostics::{Diagnostic, Fix, Related, Severity};
    use proptest::prelude::*;

    /// The report of `d` drawn here, or `None` when it is left to ariadne.
    fn drawn_here(file: &FileDiagnostics, d: &Diagnostic) -> Option<String> {
        let source = HumanSource::new(file, false);
        let mut out = Vec::new();
        plain_report(&mut out, &source, source.plain_lines.as_ref()?, d)
            .then(|| String::from_utf8(out).unwrap())
    }

    fn drawn_by_ariadne(file: &FileDiagnostics, d: &Diagnostic) -> String {
        let mut out = Vec::new();
        human(&mut out, &ariadne_only(file), d, false).unwrap();
        String::from_utf8(out).unwrap()
    }

    fn severity() -> impl Strategy<Value = Severity> {
        prop_oneof![
            Just(Severity::Error),
            Just(Severity::Warning),
            Just(Severity::Info),
            Just(Severity::Hint),
        ]
    }

    /// A label's text: printable, sometimes with a colour sequence (reports of
    /// custom kinds are stripped of those) or a second line.
    const MESSAGE: &str = "[ -~]{0,10}(\u{1b}\\[1m|\n[ -~]{0,6})?";

    fn diagnostic(
        severity: Severity,
        span: std::ops::Range<usize>,
        related: Vec<(std::ops::Range<usize>, String)>,
        help: Option<String>,
        fix: bool,
    ) -> Diagnostic {
        Diagnostic {
            rule: crate::rules::registry::RULES[0].meta(),
            severity,
            message: "a `message`".to_string(),
            help: help.map(Into::into),
            span,
            fix: fix.then(|| Box::new(Fix::safe("replace it", Vec::new()))),
            related: related
                .into_iter()
                .map(|(span, message)| Related {
                    path: None,
                    span,
                    message,
                })
                .collect(),
        }
    }

    proptest! {
        /// Reports whose labels each lie on one line are drawn here, and byte for
        /// byte as ariadne draws them: several labels on a line, labels on lines
        /// before the report's own (a second group), lines between labels, empty
        /// spans, spans over a line's break, characters wider or narrower than a
        /// column (tabs, CJK, combining and zero-width ones, controls), trailing
        /// whitespace, a byte-order mark, help and fix notes of one or two lines.
        #[test]
        fn reports_on_single_lines_are_drawn_as_ariadne_draws_them(
            lines in proptest::collection::vec("([ -~]|[é北\t\u{200b}\u{a0}\u{3000}\u{301}\u{1}]){0,16}", 1..30),
            trailing_newline in any::<bool>(),
            bom in any::<bool>(),
            severity in severity(),
            labels in proptest::collection::vec((any::<usize>(), any::<usize>(), 0usize..6, MESSAGE), 1..5),
            help in proptest::option::of(MESSAGE),
            fix in any::<bool>(),
        ) {
            let mut text = if bom { "\u{feff}".to_string() } else { String::new() };
            let mut line_starts = Vec::new();
            for (i, line) in lines.iter().enumerate() {
                line_starts.push(text.len());
                text.push_str(line);
                if i + 1 < lines.len() || trailing_newline {
                    text.push('\n');
                }
            }
            let mut in_domain = true;
            let mut spans = Vec::new();
            for (line_pick, start_pick, length, message) in labels {
                let line = line_pick % lines.len();
                // The line's character boundaries, its break's end last.
                let mut boundaries: Vec<usize> = lines[line].char_indices().map(|(i, _)| i).collect();
                boundaries.push(lines[line].len());
                if line + 1 < lines.len() || trailing_newline {
                    boundaries.push(lines[line].len() + 1);
                }
                let first = start_pick % (lines[line].chars().count() + 1);
                let last = (first + length).min(boundaries.len() - 1);
                let (start, end) = (boundaries[first], boundaries[last]);
                // The labels ariadne alone draws: at the text's end, or empty at
                // the start of a line after the first.
                in_domain &= first + 1 < boundaries.len() && !(start == end && start == 0 && line > 0);
                spans.push((line_starts[line] + start..line_starts[line] + end, message));
            }
            let (span, _) = spans.remove(0);
            let diagnostics = [diagnostic(severity, span, spans, help, fix)];
            let file = FileDiagnostics { path: "t.silp", text: &text, diagnostics: &diagnostics };
            let here = drawn_here(&file, &diagnostics[0]);
            prop_assert!(here.is_some() || !in_domain, "not drawn: {:?}", diagnostics[0]);
            if let Some(here) = here {
                prop_assert_eq!(here, drawn_by_ariadne(&file, &diagnostics[0]));
            }
        }

        /// Whatever the text and spans (other characters and line breaks, spans
        /// over lines, past the end, off character boundaries), a report drawn here
        /// is the one ariadne draws.
        #[test]
        fn any_report_drawn_here_is_the_one_ariadne_draws(
            lines in proptest::collection::vec("[a-z é北{}\"\t\u{200b}]{0,12}", 1..20),
            line_break in prop_oneof![Just("\n"), Just("\r\n"), Just("\r")],
            bom in any::<bool>(),
            severity in severity(),
            span in (0usize..300, 0usize..30),
            related in proptest::collection::vec(((0usize..300, 0usize..30), MESSAGE), 0..3),
            help in proptest::option::of(MESSAGE),
        ) {
            let mut text = if bom { "\u{feff}".to_string() } else { String::new() };
            text.push_str(&lines.join(line_break));
            let span_of = |(start, length): (usize, usize)| start..start + length;
            let related = related.into_iter().map(|(at, message)| (span_of(at), message)).collect();
            let diagnostics = [diagnostic(severity, span_of(span), related, help, false)];
            let file = FileDiagnostics { path: "t.silp", text: &text, diagnostics: &diagnostics };
            if let Some(here) = drawn_here(&file, &diagnostics[0]) {
                prop_assert_eq!(here, drawn_by_ariadne(&file, &diagnostics[0]));
            }
        }
    }

    #[test]
    fn reports_with_colour_or_a_multi_line_label_are_left_to_ariadne() {
        let text = "start(a)\nstart(b)\n";
        let diagnostics = [diagnostic(Severity::Error, 6..15, Vec::new(), None, false)];
        let file = FileDiagnostics {
            path: "t.silp",
            text,
            diagnostics: &diagnostics,
        };
        assert_eq!(drawn_here(&file, &diagnostics[0]), None);
        assert!(HumanSource::new(&file, true).plain_lines.is_none());
    }
}
