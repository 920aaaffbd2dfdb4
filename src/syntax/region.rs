//! Where a file's payloads are: the body of a payload file, or each tagged fence of
//! a Markdown page. Linting, `fmt`, the meaning check of `--fix` and `convert` all
//! walk the same regions, so they cannot disagree about what a payload is.

use std::borrow::Cow;

use crate::source::{FileKind, Span};
use crate::syntax::lines::{lines, Line};
use crate::syntax::markdown;

/// How much of a line-oriented file one thread reads at a time: a file larger than
/// this is cut into pieces of whole lines ([`Region::pieces`]) that the lint, `fmt`
/// and the fix engine's meaning check read in parallel. Most files are one piece.
pub const PIECE_BYTES: usize = 1 << 20;

/// One stretch of payloads of one kind.
#[derive(Clone, Debug)]
pub struct Region<'p> {
    pub kind: FileKind,
    /// The region's bytes in the file.
    pub span: Span,
    page: &'p str,
    /// A fence's own line spans; a file body is split into lines as it is.
    fence_lines: Option<Vec<Span>>,
    /// The opening line of a fence that no closing fence ends.
    pub unclosed_fence: Option<Span>,
    /// Whether the payloads are carried inside a JSON string (an NLIP message, an
    /// MCP wrapper, an A2A message).
    pub carried: bool,
    /// Whether the region is the SLIP text of an A2A message, where the SLIP-A2A
    /// extension's token profile applies.
    pub a2a: bool,
}

/// The payload regions of a file of `kind`, in file order: a Markdown page's tagged
/// fences, or the whole body of any other file (a byte-order mark is no payload's).
pub fn regions(page: &str, kind: FileKind) -> Vec<Region<'_>> {
    if kind == FileKind::Markdown {
        return markdown::fences(page)
            .into_iter()
            .map(|fence| Region {
                kind: fence.kind,
                span: fence.content,
                page,
                fence_lines: Some(fence.lines),
                unclosed_fence: (!fence.closed).then_some(fence.opening),
                carried: false,
                a2a: false,
            })
            .collect();
    }
    let body_start = if page.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    };
    vec![Region {
        kind,
        span: body_start..page.len(),
        page,
        fence_lines: None,
        unclosed_fence: None,
        carried: false,
        a2a: false,
    }]
}

impl<'p> Region<'p> {
    /// The payloads of `kind` written verbatim at `span` of a file (a JSON string);
    /// `a2a` when they are an A2A message's SLIP text.
    pub fn within(page: &'p str, kind: FileKind, span: Span, a2a: bool) -> Region<'p> {
        Region {
            kind,
            span,
            page,
            fence_lines: None,
            unclosed_fence: None,
            carried: true,
            a2a,
        }
    }

    /// The whole file the region lies in.
    pub fn page(&self) -> &'p str {
        self.page
    }

    /// The region's lines, each without terminator and, in a fence, without its
    /// container's prefix or the fence's indentation.
    pub fn lines(&self) -> Box<dyn Iterator<Item = Line<'p>> + '_> {
        let page = self.page;
        match &self.fence_lines {
            Some(spans) => Box::new(spans.iter().enumerate().map(move |(number, span)| Line {
                text: &page[span.clone()],
                start: span.start,
                number,
            })),
            None => Box::new(lines(&page[self.span.clone()], self.span.start)),
        }
    }

    /// The lines of the piece of the region at `piece`, one of several
    /// [`Region::pieces`] (only a file body has several; a fence's lines are
    /// [`Region::lines`]).
    pub fn lines_of(&self, piece: Span) -> impl Iterator<Item = Line<'p>> {
        lines(&self.page[piece.clone()], piece.start)
    }

    /// The region cut into pieces of whole lines, each at least `piece_bytes` long
    /// but the last, for the threads of a run to take one each. A piece never
    /// starts after a comment line, which may be a suppression waiting for the next
    /// payload line, so each piece's lines are linted alone as they would be in
    /// order. A fence, or a region of at most `piece_bytes`, is one piece.
    pub fn pieces(&self, piece_bytes: usize) -> Vec<Span> {
        let piece_bytes = piece_bytes.max(1);
        let Span { start, end } = self.span.clone();
        if self.fence_lines.is_some() || end - start <= piece_bytes {
            return vec![self.span.clone()];
        }
        let bytes = self.page.as_bytes();
        let mut pieces = Vec::new();
        let mut piece_start = start;
        let mut at = start + piece_bytes;
        while at < end {
            // A cut just after `\n` starts a line: `\r\n` stays whole.
            let Some(newline) = memchr::memchr(b'\n', &bytes[at..end]).map(|i| at + i) else {
                break;
            };
            let cut = newline + 1;
            if cut >= end {
                break;
            }
            let line_end = if bytes[newline - 1] == b'\r' {
                newline - 1
            } else {
                newline
            };
            let line_start = memchr::memrchr2(b'\n', b'\r', &bytes[piece_start..line_end])
                .map_or(piece_start, |i| piece_start + i + 1);
            let line = &self.page[line_start..line_end];
            if line.trim_start().starts_with('#') {
                at = cut;
                continue;
            }
            pieces.push(piece_start..cut);
            piece_start = cut;
            at = cut + piece_bytes;
        }
        pieces.push(piece_start..end);
        pieces
    }

    /// The spans of a fence's lines; `None` for a file body, whose lines are whole.
    pub fn fence_lines(&self) -> Option<&[Span]> {
        self.fence_lines.as_deref()
    }

    /// The lines of a `silp-json` fence whose first non-blank character is `#`:
    /// comments (suppressions) in a Markdown page, which JSON itself has none of.
    pub fn json_comment_lines(&self) -> Vec<Line<'p>> {
        if self.kind != FileKind::SilpJson || self.fence_lines.is_none() {
            return Vec::new();
        }
        self.lines()
            .filter(|line| line.text.trim_start().starts_with('#'))
            .collect()
    }

    /// The region's text, to be read at the file's offsets from `span.start`: in a
    /// fence, container prefixes (`> `) and the comment lines of a `silp-json`
    /// fence read as spaces, so that a JSON block quoted in the page parses as
    /// written.
    pub fn text(&self) -> Cow<'p, str> {
        let raw = &self.page[self.span.clone()];
        let Some(spans) = &self.fence_lines else {
            return Cow::Borrowed(raw);
        };
        let base = self.span.start;
        let mut kept = vec![false; raw.len()];
        for span in spans {
            kept[span.start - base..span.end - base].fill(true);
        }
        for comment in self.json_comment_lines() {
            kept[comment.start - base..comment.start + comment.text.len() - base].fill(false);
        }
        if raw
            .bytes()
            .zip(&kept)
            .all(|(b, keep)| *keep || matches!(b, b' ' | b'\n' | b'\r'))
        {
            return Cow::Borrowed(raw);
        }
        let mut masked = String::with_capacity(raw.len());
        for (i, c) in raw.char_indices() {
            if kept[i] || c == '\n' || c == '\r' {
                masked.push(c);
            } else {
                masked.extend(std::iter::repeat_n(' ', c.len_utf8()));
            }
        }
        Cow::Owned(masked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quoted_json_fence_reads_with_its_prefixes_blanked() {
        let page = "> ```silp-json\n> {\"intent\": \"!CANCEL\",\n>  \"act\": \"x\"}\n> ```\n";
        let region = &regions(page, FileKind::Markdown)[0];
        assert_eq!(
            region.text(),
            "  {\"intent\": \"!CANCEL\",\n   \"act\": \"x\"}\n"
        );
        assert_eq!(region.text().len(), region.span.len());
    }

    #[test]
    fn a_payload_file_is_one_region_after_its_byte_order_mark() {
        let page = "\u{feff}cancel(x)\nstart(y)";
        let found = regions(page, FileKind::Silp);
        assert_eq!(found.len(), 1);
        let texts: Vec<&str> = found[0].lines().map(|l| l.text).collect();
        assert_eq!(texts, ["cancel(x)", "start(y)"]);
        assert!(matches!(found[0].text(), Cow::Borrowed(_)));
    }

    /// Pieces cover the region end to end, each of whole lines, none starting
    /// after a comment line, each but the last at least the size asked for.
    #[test]
    fn pieces_are_whole_lines_not_cut_after_a_comment() {
        let text = format!(
            "\u{feff}{}",
            "a(x)\r\n# c\r\nb(y)\n  # d\nc(z)\rd(w)\n\ne(v)\n".repeat(20)
        );
        let region = &regions(&text, FileKind::Silp)[0];
        for piece_bytes in [0, 1, 5, 64, text.len()] {
            let pieces = region.pieces(piece_bytes);
            assert_eq!(pieces.first().unwrap().start, region.span.start);
            assert_eq!(pieces.last().unwrap().end, region.span.end);
            for pair in pieces.windows(2) {
                assert_eq!(pair[0].end, pair[1].start);
                assert!(pair[0].len() >= piece_bytes);
                assert!(text[..pair[0].end].ends_with('\n'));
                let before = text[..pair[0].end].trim_end();
                let line = before.rsplit(['\n', '\r']).next().unwrap();
                assert!(!line.trim_start().starts_with('#'), "cut after {line:?}");
            }
            let spans = |lines: Vec<Line>| lines.iter().map(Line::span).collect::<Vec<_>>();
            let in_pieces = pieces.iter().flat_map(|p| region.lines_of(p.clone()));
            assert_eq!(
                spans(in_pieces.collect()),
                spans(region.lines().collect()),
                "in pieces of {piece_bytes}"
            );
        }
        assert!(regions(&text, FileKind::Silp)[0].pieces(5).len() > 20);
        assert_eq!(regions("a(x)\n", FileKind::Silp)[0].pieces(1).len(), 1);
    }
}
