//! Small edits that turn a text into another, for results the library computes as a
//! whole new text (fix-all runs the CLI's fix engine): the lines that differ, each
//! replaced from the first to the last changed word, so the client is sent what
//! changed rather than the document.
//!
//! Linear: lines are matched in order, and where they differ the next matching
//! pair is looked for at most [`LOOKAHEAD`] lines ahead on either side (a fix
//! changes a few lines in place); past that the lines are paired as they come,
//! which still gives correct, if larger, edits.

use crate::diagnostics::Edit;
use crate::source::LineIndex;

/// How far ahead, in lines, a changed region looks for the texts to agree again.
const LOOKAHEAD: usize = 8;

/// Edits, sorted and not overlapping, that turn `old` into `new`.
pub fn edits(old: &str, new: &str) -> Vec<Edit> {
    let (old_lines, new_lines) = (lines(old), lines(new));
    // For each distance, the splits between the two sides, balanced ones first (a
    // changed line is likelier than a moved one).
    let splits: Vec<Vec<usize>> = (0..=2 * LOOKAHEAD)
        .map(|distance| {
            let mut splits: Vec<usize> = (0..=distance).collect();
            splits.sort_by_key(|&a| (2 * a).abs_diff(distance));
            splits
        })
        .collect();
    let (mut i, mut j) = (0, 0);
    let mut out = Vec::new();
    while i < old_lines.len() || j < new_lines.len() {
        if i < old_lines.len() && j < new_lines.len() && old_lines[i] == new_lines[j] {
            i += 1;
            j += 1;
            continue;
        }
        let (skip_old, skip_new) = realign(&old_lines[i..], &new_lines[j..], &splits);
        let old_part = &old_lines[i..i + skip_old];
        let new_part = &new_lines[j..j + skip_new];
        if skip_old == skip_new {
            // Lines changed in place: one edit per line.
            for (a, b) in old_part.iter().zip(new_part) {
                out.push(word_edit(old, a.text, b.text));
            }
        } else {
            let start = match (old_part.first(), i.checked_sub(1)) {
                (Some(first), _) => offset_in(old, first.text),
                (None, Some(before)) => {
                    offset_in(old, old_lines[before].text) + old_lines[before].text.len()
                }
                (None, None) => 0,
            };
            let length: usize = old_part.iter().map(|l| l.text.len()).sum();
            let new_text: String = new_part.iter().map(|l| l.text).collect();
            out.push(word_edit(old, &old[start..start + length], &new_text));
        }
        i += skip_old;
        j += skip_new;
    }
    out
}

/// How many lines of each side to replace before they agree again: the nearest
/// matching pair within [`LOOKAHEAD`], both ends, or one line for one line.
fn realign(old: &[Line], new: &[Line], splits: &[Vec<usize>]) -> (usize, usize) {
    for (distance, splits) in splits.iter().enumerate().skip(1) {
        for &a in splits {
            let b = distance - a;
            let both_end = a == old.len() && b == new.len();
            if both_end || (a < old.len() && b < new.len() && old[a] == new[b]) {
                return (a, b);
            }
        }
    }
    match (old.is_empty(), new.is_empty()) {
        (false, false) => (1, 1),
        _ => (old.len(), new.len()),
    }
}

/// A line with its line ending, and its hash to compare lines quickly.
struct Line<'t> {
    text: &'t str,
    hash: u64,
}

impl PartialEq for Line<'_> {
    fn eq(&self, other: &Line) -> bool {
        self.hash == other.hash && self.text == other.text
    }
}

fn lines(text: &str) -> Vec<Line<'_>> {
    let index = LineIndex::new(text);
    (0..index.line_count())
        .map(|line| &text[index.line_start(line, text)..index.line_start(line + 1, text)])
        .filter(|line| !line.is_empty())
        .map(|line| {
            let mut hasher = std::hash::DefaultHasher::new();
            std::hash::Hash::hash(line, &mut hasher);
            Line {
                text: line,
                hash: std::hash::Hasher::finish(&hasher),
            }
        })
        .collect()
}

/// Where a slice of `text` starts in it.
fn offset_in(text: &str, part: &str) -> usize {
    part.as_ptr() as usize - text.as_ptr() as usize
}

/// The edit turning `old_part` (a slice of `old`) into `new_part`, from the first to
/// the last differing character, widened to whole words: `Cancel` → `cancel`, not
/// `C` → `c`.
fn word_edit(old: &str, old_part: &str, new_part: &str) -> Edit {
    let start = offset_in(old, old_part);
    let minimal = Edit::minimal(start, old_part, new_part);
    // The edit's ends, relative to each part (the rest is common to both).
    let prefix = minimal.span.start - start;
    let old_end = minimal.span.end - start;
    let new_end = prefix + minimal.content.len();
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let inside = |text: &str, at: usize| {
        text[..at].chars().next_back().is_some_and(is_word)
            && text[at..].chars().next().is_some_and(is_word)
    };
    let back = if inside(old_part, prefix) {
        old_part[..prefix].len() - old_part[..prefix].trim_end_matches(is_word).len()
    } else {
        0
    };
    let forward = if inside(old_part, old_end) {
        old_part[old_end..].len() - old_part[old_end..].trim_start_matches(is_word).len()
    } else {
        0
    };
    Edit::replace(
        start + prefix - back..start + old_end + forward,
        &new_part[prefix - back..new_end + forward],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostics::apply_edits;
    use proptest::prelude::*;

    fn texts(old: &str, new: &str) -> Vec<String> {
        let edits = edits(old, new);
        assert_eq!(apply_edits(old, &edits), new);
        edits.into_iter().map(|e| e.content).collect()
    }

    #[test]
    fn changed_lines_become_whole_word_edits() {
        assert_eq!(
            texts("Cancel(😀)\nStart(y)\n", "cancel(😀)\nstart(y)\n"),
            ["cancel", "start"]
        );
        assert_eq!(texts("a\nx\nb\n", "a\nb\n"), [""]);
        assert_eq!(texts("a\nb\n", "a\nx\nb\n"), ["x\n"]);
        assert_eq!(texts("a\r\nb", "a\r\nb\r\n"), ["\r\n"]);
        assert_eq!(texts("北京 a\rb", "北京 A\rb"), ["A"]);
        assert!(texts("same\n", "same\n").is_empty());
    }

    #[test]
    fn the_edits_stay_on_the_lines_that_changed() {
        let old: String = (0..1000).map(|i| format!("line {i}\n")).collect();
        let new = old.replace("line 10\n", "").replace("line 500", "Line 500");
        let edits = edits(&old, &new);
        assert_eq!(edits.len(), 2);
        assert_eq!(apply_edits(&old, &edits), new);
    }

    proptest! {
        #[test]
        fn the_edits_turn_the_old_text_into_the_new(
            old in prop::collection::vec(prop::sample::select(vec!["a", "B", " ", "é", "😀", "\n", "\r\n", "\r", "x\n"]), 0..40),
            changes in prop::collection::vec((any::<prop::sample::Index>(), prop::sample::select(vec!["", "b", "\n", "ö", "\r"])), 0..6),
        ) {
            let old = old.concat();
            let mut new = old.clone();
            for (at, insert) in changes {
                let boundaries: Vec<usize> = (0..=new.len()).filter(|&i| new.is_char_boundary(i)).collect();
                let at = *at.get(&boundaries);
                let end = boundaries.iter().copied().find(|&b| b > at).unwrap_or(at);
                new.replace_range(at..end, insert);
            }
            let edits = edits(&old, &new);
            prop_assert!(edits.windows(2).all(|w| w[0].span.end <= w[1].span.start));
            prop_assert_eq!(apply_edits(&old, &edits), new);
        }
    }
}
