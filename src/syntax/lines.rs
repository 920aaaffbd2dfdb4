//! Splitting line-oriented files (`.silp`, `.slip`, `.silp.jsonl`) into lines.

use crate::source::Span;

/// One line of a text, without its terminator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line<'s> {
    pub text: &'s str,
    /// Where `text` starts in the file.
    pub start: usize,
    /// 0-based line number within the region that was split.
    pub number: usize,
}

impl Line<'_> {
    pub fn span(&self) -> Span {
        self.start..self.start + self.text.len()
    }

    /// Blank, or a comment: its first non-blank character is `#`.
    pub fn is_blank_or_comment(&self) -> bool {
        let trimmed = self.text.trim_start();
        trimmed.is_empty() || trimmed.starts_with('#')
    }
}

/// The range of the line holding byte `at` of `text`, without its terminator and
/// without a leading byte-order mark.
pub fn line_around(text: &str, at: usize) -> Span {
    let at = crate::source::floor_char_boundary(text, at);
    let bytes = text.as_bytes();
    let mut start = memchr::memrchr2(b'\n', b'\r', &bytes[..at]).map_or(0, |i| i + 1);
    let bom = '\u{feff}'.len_utf8();
    if start == 0 && text.starts_with('\u{feff}') && at >= bom {
        start = bom;
    }
    let end = memchr::memchr2(b'\n', b'\r', &bytes[at..]).map_or(text.len(), |i| at + i);
    start..end
}

/// How many bytes the line terminator at byte `at` takes: 2 for `\r\n`, 1 for
/// `\n` or a lone `\r`, 0 at the end of the text.
pub fn terminator_len(text: &str, at: usize) -> usize {
    match text.as_bytes().get(at..at + 2) {
        Some(b"\r\n") => 2,
        Some([b'\n', _]) | Some([b'\r', _]) => 1,
        _ => usize::from(at < text.len()),
    }
}

/// The lines of `text` (which starts at byte `base` of its file), split at `\n`,
/// `\r\n` and lone `\r`.
pub fn lines(text: &str, base: usize) -> impl Iterator<Item = Line<'_>> {
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut number = 0;
    let mut done = false;
    std::iter::from_fn(move || {
        if done {
            return None;
        }
        let (end, next) = match memchr::memchr2(b'\n', b'\r', &bytes[start..]) {
            Some(i) => {
                let end = start + i;
                let next = if bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n') {
                    end + 2
                } else {
                    end + 1
                };
                (end, next)
            }
            None => {
                done = true;
                if start == bytes.len() && number > 0 {
                    return None;
                }
                (bytes.len(), bytes.len())
            }
        };
        let line = Line {
            text: &text[start..end],
            start: base + start,
            number,
        };
        start = next;
        number += 1;
        Some(line)
    })
}

/// Splits a `.silp` line into its payload (trailing white space trimmed) and the
/// index of the `#` of a trailing comment: ` #` (white space, then `#`) starts one.
pub fn split_trailing_comment(line: &str) -> (&str, Option<usize>) {
    let bytes = line.as_bytes();
    for i in memchr::memchr_iter(b'#', bytes) {
        if i > 0 && (bytes[i - 1] == b' ' || bytes[i - 1] == b'\t') {
            return (line[..i].trim_end(), Some(i));
        }
    }
    (line.trim_end(), None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_around_skips_the_bom() {
        let text = "\u{feff}ab\r\ncd";
        assert_eq!(line_around(text, 4), 3..5);
        assert_eq!(line_around(text, 8), 7..9);
    }

    #[test]
    fn splits_on_every_line_ending_without_a_phantom_last_line() {
        let got: Vec<(&str, usize)> = lines("a\r\nb\rc\n", 10)
            .map(|l| (l.text, l.start))
            .collect();
        assert_eq!(got, vec![("a", 10), ("b", 13), ("c", 15)]);
        let got: Vec<&str> = lines("x", 0).map(|l| l.text).collect();
        assert_eq!(got, vec!["x"]);
        assert_eq!(lines("", 0).count(), 1);
    }
}
