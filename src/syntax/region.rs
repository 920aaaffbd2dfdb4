//! Where a file's payloads are: the body of a payload file, or each tagged fence of
//! a Markdown page. Linting, `fmt`, the meaning check of `--fix` and `convert` all
//! walk the same regions, so they cannot disagree about what a payload is.

use std::borrow::Cow;

use crate::source::{FileKind, Span};
use crate::syntax::lines::{lines, Line};
use crate::syntax::markdown;

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
}
