//! Re-linting only what changed, for editors: part of the lint layer so the server
//! holds no lint logic. In the line-oriented kinds (`.silp`, `.slip`,
//! `.silp.jsonl`) every payload is one line and the rules see one payload at a time,
//! so after an edit the server lints a window of whole lines around the change with
//! the same [`lint_text`] call and keeps the earlier diagnostics of the other lines
//! (shifted past the edit). The window reaches one line beyond the change on both
//! sides, so a suppression comment on the line before a payload, or a line ending
//! that an edit splits or joins, is linted with its neighbours.
//!
//! Whenever the earlier result cannot be split cleanly at the window (a diagnostic,
//! related place, fix or `req_id` crossing its edges), the whole text is linted
//! again. `tests/lsp.rs` checks by property that the result equals a full lint.

use crate::diagnostics::{shifted, Diagnostic};
use crate::lint::{lint_text, sort_and_dedup, FileLint};
use crate::rules::{ReqIdFact, MAX_PER_RULE};
use crate::settings::Settings;
use crate::source::{FileKind, LineIndex, Span};

/// Lints `new` (whose line index is `index`), reusing `previous`, the lint of `old`.
pub fn relint(
    old: &str,
    previous: &FileLint,
    new: &str,
    index: &LineIndex,
    kind: FileKind,
    settings: &Settings,
) -> FileLint {
    let edit = Edit {
        old,
        previous,
        new,
        index,
    };
    relint_window(&edit, kind, settings, usize::MAX)
        .unwrap_or_else(|| lint_text(new, kind, settings))
}

/// An edit to re-lint: the text before it with its lint, the text after it with its
/// line index.
pub struct Edit<'a> {
    pub old: &'a str,
    pub previous: &'a FileLint,
    pub new: &'a str,
    pub index: &'a LineIndex,
}

/// The lint of the edited text by a window of lines around the edit, when the kind
/// is line-oriented, the earlier result splits cleanly at the window and the window
/// holds at most `max_window` bytes; `None` when the whole text must be linted. The
/// server runs this on its own thread for a small window (a keystroke's lines take
/// microseconds, and a hand-off to the blocking pool took half a millisecond).
pub fn relint_window(
    edit: &Edit<'_>,
    kind: FileKind,
    settings: &Settings,
    max_window: usize,
) -> Option<FileLint> {
    if !matches!(kind, FileKind::Silp | FileKind::Slip | FileKind::SilpJsonl) {
        return None;
    }
    window_relint(edit, kind, settings, max_window)
}

/// How many bytes the prefix and suffix comparisons compare at once: slice equality
/// is a `memcmp`, where a byte loop over a 10,000-line document took longer than
/// linting the lines an edit touched.
const COMPARED_AT_ONCE: usize = 64;

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut same = 0;
    while same + COMPARED_AT_ONCE <= n
        && a[same..same + COMPARED_AT_ONCE] == b[same..same + COMPARED_AT_ONCE]
    {
        same += COMPARED_AT_ONCE;
    }
    same + a[same..n]
        .iter()
        .zip(&b[same..n])
        .take_while(|(x, y)| x == y)
        .count()
}

/// The length of the common suffix of `a` and `b`, at most `limit`.
fn common_suffix(a: &[u8], b: &[u8], limit: usize) -> usize {
    let n = limit.min(a.len()).min(b.len());
    let (a_end, b_end) = (a.len(), b.len());
    let mut same = 0;
    while same + COMPARED_AT_ONCE <= n
        && a[a_end - same - COMPARED_AT_ONCE..a_end - same]
            == b[b_end - same - COMPARED_AT_ONCE..b_end - same]
    {
        same += COMPARED_AT_ONCE;
    }
    same + a[..a_end - same]
        .iter()
        .rev()
        .zip(b[..b_end - same].iter().rev())
        .take(n - same)
        .take_while(|(x, y)| x == y)
        .count()
}

/// Where an old span lies against the old window `[start, end)`.
enum Place {
    Before,
    After,
    Inside,
    Crossing,
}

fn place(span: &Span, start: usize, end: usize, window_reaches_eof: bool) -> Place {
    if span.end <= start && span.start < start {
        Place::Before
    } else if span.start >= end && !window_reaches_eof {
        Place::After
    } else if span.start >= start && span.end <= end {
        Place::Inside
    } else if span.start >= end {
        // A zero-width span at the end of the text, inside a window reaching it.
        Place::Inside
    } else {
        Place::Crossing
    }
}

/// Every own-file span a diagnostic carries: its range, related places in the same
/// file, and its fix's edits.
fn spans_of(d: &Diagnostic) -> impl Iterator<Item = &Span> {
    std::iter::once(&d.span)
        .chain(
            d.related
                .iter()
                .filter(|r| r.path.is_none())
                .map(|r| &r.span),
        )
        .chain(d.fix.iter().flat_map(|f| f.edits.iter().map(|e| &e.span)))
}

fn shift_diagnostic(d: &Diagnostic, by: isize) -> Diagnostic {
    let mut d = d.clone();
    d.shift(by);
    d
}

fn window_relint(
    edit: &Edit<'_>,
    kind: FileKind,
    settings: &Settings,
    max_window: usize,
) -> Option<FileLint> {
    let &Edit {
        old,
        previous,
        new,
        index,
    } = edit;
    // A result that left diagnostics out cannot be patched: which ones were shown
    // depends on the whole file.
    if previous.capped() {
        return None;
    }
    let (a, b) = (old.as_bytes(), new.as_bytes());
    let prefix = common_prefix(a, b);
    if prefix == a.len() && prefix == b.len() {
        return Some(FileLint {
            diagnostics: previous.diagnostics.clone(),
            req_ids: previous.req_ids.clone(),
            most_reported: previous.most_reported,
            meanings: None,
            fixes: Vec::new(),
        });
    }
    let suffix = common_suffix(a, b, a.len().min(b.len()) - prefix);
    let changed_end = b.len() - suffix;
    // A suppression comment covers the next payload line, past other comment lines:
    // the window takes in whole runs of comment lines on both sides.
    let is_comment = |line: usize| {
        new[index.line_range(line, new)]
            .trim_start()
            .starts_with('#')
    };
    let mut first = index.line_of(prefix).saturating_sub(1);
    while first > 0 && is_comment(first - 1) {
        first -= 1;
    }
    let mut last = index.line_of(changed_end) + 1;
    while last < index.line_count() && is_comment(last) {
        last += 1;
    }
    let start = index.line_start(first, new);
    let end = index.line_start(last + 1, new);
    let delta = b.len() as isize - a.len() as isize;
    let old_end = (end as isize - delta) as usize;
    let reaches_eof = end >= b.len();
    if start > prefix || old_end < a.len() - suffix || old_end > a.len() {
        return None;
    }
    if end - start > max_window {
        return None;
    }

    let mut diagnostics = Vec::with_capacity(previous.diagnostics.len());
    for d in &previous.diagnostics {
        let places: Vec<Place> = spans_of(d)
            .map(|s| place(s, start, old_end, reaches_eof))
            .collect();
        if places.iter().all(|p| matches!(p, Place::Before)) {
            diagnostics.push(d.clone());
        } else if places.iter().all(|p| matches!(p, Place::After)) {
            diagnostics.push(shift_diagnostic(d, delta));
        } else if places.iter().all(|p| matches!(p, Place::Inside)) {
            // Linted again below.
        } else {
            return None;
        }
    }
    let mut req_ids: Vec<(Box<str>, Span)> = Vec::with_capacity(previous.req_ids.len());
    let mut after_ids = Vec::new();
    for fact in &previous.req_ids {
        match place(&fact.span, start, old_end, reaches_eof) {
            Place::Before => req_ids.push((fact.value.clone(), fact.span.clone())),
            Place::After => after_ids.push((fact.value.clone(), shifted(&fact.span, delta))),
            Place::Inside => {}
            Place::Crossing => return None,
        }
    }

    // A newline before a window that starts mid-file keeps its first character from
    // being read as a byte-order mark.
    let (window, base) = if start == 0 {
        (lint_text(&new[..end], kind, settings), 0isize)
    } else {
        let mut text = String::with_capacity(end - start + 1);
        text.push('\n');
        text.push_str(&new[start..end]);
        (lint_text(&text, kind, settings), start as isize - 1)
    };
    // Whether a full lint would leave a rule's diagnostics out depends on how many
    // it reported, suppressed ones too: the lines kept reported at most what the
    // whole text did before.
    let most_reported = previous.most_reported + window.most_reported;
    if most_reported > MAX_PER_RULE {
        return None;
    }
    diagnostics.extend(window.diagnostics.iter().map(|d| shift_diagnostic(d, base)));
    req_ids.extend(
        window
            .req_ids
            .iter()
            .map(|fact| (fact.value.clone(), shifted(&fact.span, base))),
    );
    req_ids.extend(after_ids);
    sort_and_dedup(&mut diagnostics);
    // Lines and columns move with the edit: take them from the new text.
    let req_ids = req_ids
        .into_iter()
        .map(|(value, span)| {
            let at = index.location(new, span.start);
            ReqIdFact::new(value, span, at)
        })
        .collect();
    Some(FileLint {
        diagnostics,
        req_ids,
        most_reported,
        meanings: None,
        fixes: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes_and_spans(lint: &FileLint) -> Vec<(&'static str, Span, String)> {
        lint.diagnostics
            .iter()
            .map(|d| (d.code(), d.span.clone(), d.message.clone()))
            .collect()
    }

    #[test]
    fn common_prefixes_and_suffixes_across_whole_chunks() {
        let base: Vec<u8> = (0..300u32).map(|i| (i % 251) as u8).collect();
        for at in [0, 1, 63, 64, 65, 128, 200, 299] {
            let mut changed = base.clone();
            changed[at] ^= 0xFF;
            assert_eq!(common_prefix(&base, &changed), at);
            assert_eq!(common_suffix(&base, &changed, usize::MAX), 299 - at);
            assert_eq!(common_suffix(&base, &changed, 70), (299 - at).min(70));
        }
        assert_eq!(common_prefix(&base, &base[..130]), 130);
        assert_eq!(common_suffix(&base, &base[170..], usize::MAX), 130);
        assert_eq!(common_prefix(&base, &base), 300);
    }

    #[test]
    fn an_edit_in_the_middle_relints_its_lines_only_and_matches_a_full_lint() {
        let settings = Settings::default();
        let old = "Cancel(a)\nstart(b)\nstart(c)\nStart(d)\n";
        let new = "Cancel(a)\nstart(b)\nstrt(cc)\nStart(d)\n";
        let previous = lint_text(old, FileKind::Silp, &settings);
        let index = LineIndex::new(new);
        let edit = Edit {
            old,
            previous: &previous,
            new,
            index: &index,
        };
        let got = relint_window(&edit, FileKind::Silp, &settings, usize::MAX)
            .expect("the window path, not a full lint");
        let full = lint_text(new, FileKind::Silp, &settings);
        assert_eq!(codes_and_spans(&got), codes_and_spans(&full));
        assert_eq!(full.diagnostics.len(), 3);
        // The window is the changed line and one on each side: 27 bytes.
        assert!(relint_window(&edit, FileKind::Silp, &settings, 27).is_some());
        assert!(relint_window(&edit, FileKind::Silp, &settings, 26).is_none());
    }

    /// Suppressed diagnostics count towards their rule's limit: a line added to a
    /// file at the limit, one of whose findings is suppressed, takes the file past
    /// it, and the note saying how many were left out comes with it.
    #[test]
    fn suppressed_diagnostics_count_towards_the_limit_after_an_edit() {
        let settings = Settings::default();
        let old = format!(
            "# silp-lint: ignore[SL104]\n{}",
            "Cancel(x)\n".repeat(MAX_PER_RULE)
        );
        let new = format!("{old}Cancel(y)\n");
        let previous = lint_text(&old, FileKind::Silp, &settings);
        assert!(!previous.capped());
        let index = LineIndex::new(&new);
        let got = relint(&old, &previous, &new, &index, FileKind::Silp, &settings);
        let full = lint_text(&new, FileKind::Silp, &settings);
        assert!(full.capped());
        assert_eq!(codes_and_spans(&got), codes_and_spans(&full));
    }

    #[test]
    fn a_zero_width_no_break_space_starting_a_line_is_not_a_byte_order_mark() {
        let settings = Settings::default();
        let old = "start(a)\nstart(b)\nstart(c)\nstart(d)\n";
        let new = "start(a)\nstart(b)\nstart(c)\n\u{feff}start(d)\n";
        let previous = lint_text(old, FileKind::Silp, &settings);
        let index = LineIndex::new(new);
        let got = relint(old, &previous, new, &index, FileKind::Silp, &settings);
        let full = lint_text(new, FileKind::Silp, &settings);
        assert_eq!(codes_and_spans(&got), codes_and_spans(&full));
    }
}
