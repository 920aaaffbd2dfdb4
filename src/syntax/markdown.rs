//! Markdown pages: the fenced blocks tagged `silp`, `slip` or `silp-json`, whose
//! payloads are linted with positions in the page. pulldown-cmark decides what is
//! a fence (CommonMark: fences in list items and block quotes count, fences in raw
//! HTML do not) and which bytes of each line belong to the block.

use std::borrow::Cow;

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

use crate::source::{FileKind, Span};
use crate::syntax::lines::{line_around, lines, terminator_len};

/// A fenced block's content and the kind its tag names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    pub kind: FileKind,
    /// The bytes between the opening fence line and the closing one (or the end of
    /// the block), container prefixes (`> `, list indentation) included.
    pub content: Span,
    /// Each content line's own bytes: without its container's prefix, the fence's
    /// indentation (CommonMark strips it) or the line terminator.
    pub lines: Vec<Span>,
    /// The opening fence line, for errors about the block itself.
    pub opening: Span,
    /// Whether a closing fence ends the block (CommonMark also ends an unclosed
    /// block at the end of its container or of the page).
    pub closed: bool,
}

/// The payload fences of a Markdown page, in page order. Blocks with other tags
/// are skipped.
pub fn fences(text: &str) -> Vec<Fence> {
    let mut found = Vec::new();
    let mut open: Option<Fence> = None;
    // The open fence's text, in the runs of contiguous bytes the parser gave.
    let mut segments: Vec<Span> = Vec::new();
    let parsed = with_lone_crs_as_lfs(text);
    for (event, range) in Parser::new(&parsed).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(info))) => {
                let tag = info
                    .split(|c: char| c.is_whitespace() || c == '{' || c == ',')
                    .next()
                    .unwrap_or("");
                let kind = match tag {
                    "silp" => FileKind::Silp,
                    "slip" => FileKind::Slip,
                    "silp-json" => FileKind::SilpJson,
                    _ => continue,
                };
                let opening_end = line_around(text, range.start).end;
                let content_start =
                    (opening_end + terminator_len(text, opening_end)).min(range.end);
                open = Some(Fence {
                    kind,
                    content: content_start..range.end,
                    lines: Vec::new(),
                    opening: range.start..opening_end,
                    closed: false,
                });
            }
            Event::Text(_) if open.is_some() => match segments.last_mut() {
                // pulldown-cmark gives a CRLF line's text and its `\n` apart.
                Some(last) if matches!(text.get(last.end..range.start), Some("" | "\r")) => {
                    last.end = range.end
                }
                _ => segments.push(range),
            },
            Event::End(TagEnd::CodeBlock) => {
                if let Some(mut fence) = open.take() {
                    for segment in segments.drain(..) {
                        let lines = lines(&text[segment.clone()], segment.start);
                        fence
                            .lines
                            .extend(lines.filter(|l| l.start < segment.end).map(|l| l.span()));
                    }
                    let last_line_start = line_around(text, range.end).start;
                    let closing = &text[last_line_start..range.end];
                    let marker = text[range.start..].chars().next().unwrap_or('`');
                    // A closing fence is never the block's text: a last line that is
                    // (`` >``` `` ending a page, in a block that no quote contains) only
                    // looks like one.
                    let last_line_is_text = fence
                        .lines
                        .last()
                        .is_some_and(|line| line.start >= last_line_start);
                    fence.closed = last_line_start > range.start
                        && !last_line_is_text
                        && is_closing_fence(closing, marker);
                    if fence.closed {
                        fence.content.end = last_line_start.max(fence.content.start);
                    }
                    found.push(fence);
                }
            }
            _ => {}
        }
    }
    found
}

/// The page with each lone CR as an LF: CommonMark ends lines there too, but
/// pulldown-cmark does not. One byte for one byte, so every offset stays the page's.
fn with_lone_crs_as_lfs(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let lone_crs =
        || memchr::memchr_iter(b'\r', bytes).filter(|&i| bytes.get(i + 1) != Some(&b'\n'));
    if lone_crs().next().is_none() {
        return Cow::Borrowed(text);
    }
    let mut changed = bytes.to_vec();
    for i in lone_crs() {
        changed[i] = b'\n';
    }
    String::from_utf8(changed).map_or(Cow::Borrowed(text), Cow::Owned)
}

/// Whether a line (container prefix included) is a closing fence of `marker`s.
fn is_closing_fence(line: &str, marker: char) -> bool {
    let body = line.trim_start_matches([' ', '\t', '>']);
    let run = body.len() - body.trim_start_matches(marker).len();
    run >= 3 && body[run..].trim().is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line_texts<'p>(page: &'p str, fence: &Fence) -> Vec<&'p str> {
        fence.lines.iter().map(|s| &page[s.clone()]).collect()
    }

    #[test]
    fn finds_tagged_fences_with_content_spans() {
        let page =
            "# T\n\n```silp\ncancel(x)\n```\n\n```python\nx\n```\n~~~slip\nSLIP v1 a b MetaAck\n";
        let found = fences(page);
        assert_eq!(found.len(), 2);
        assert_eq!(&page[found[0].content.clone()], "cancel(x)\n");
        assert!(found[0].closed);
        assert_eq!(found[1].kind, FileKind::Slip);
        assert_eq!(&page[found[1].content.clone()], "SLIP v1 a b MetaAck\n");
        assert_eq!(line_texts(page, &found[1]), ["SLIP v1 a b MetaAck"]);
        assert!(!found[1].closed);
    }

    #[test]
    fn fences_in_list_items_and_block_quotes_lose_their_container_prefix() {
        let page = "1. item\n\n    ```silp\n    begin(x)\n      cancel(y)\n    ```\n";
        let found = fences(page);
        assert_eq!(line_texts(page, &found[0]), ["begin(x)", "  cancel(y)"]);
        assert!(found[0].closed);

        let page = "- ```slip\n  SLIP v1 a b MetaAck\n  ```\n";
        assert_eq!(line_texts(page, &fences(page)[0]), ["SLIP v1 a b MetaAck"]);

        let page = "> ```silp\r> begin(x)\r>\r> cancel(y)\r> ```\r";
        let found = fences(page);
        assert_eq!(line_texts(page, &found[0]), ["begin(x)", "", "cancel(y)"]);
        assert!(found[0].closed);

        let page = "> ```silp\r\n> begin(x)\r\n>\r\n> cancel(y)\r\n> ```\r\n";
        let found = fences(page);
        assert_eq!(line_texts(page, &found[0]), ["begin(x)", "", "cancel(y)"]);
        assert!(found[0].closed);
    }

    #[test]
    fn fences_that_commonmark_does_not_see_are_skipped() {
        assert!(fences("<div>\n```silp\nbegin(x)\n```\n</div>\n").is_empty());
        assert!(fences("```silp `x`\nbegin(x)\n```\n").is_empty());
        assert!(fences("    ```silp\n    begin(x)\n    ```\n").is_empty());
    }

    /// Found by fuzzing: the last line `` >``` `` of a page without a final line
    /// break, in a fence no block quote contains, is the fence's text. Taken for a
    /// closing fence, it ended the content before the line, and reading the
    /// region's text panicked.
    #[test]
    fn a_last_line_that_only_looks_like_a_closing_fence_is_text() {
        for page in ["```silp-json\n>```", "```silp\nbegin(x)\n> ```"] {
            let found = fences(page);
            assert!(!found[0].closed, "{page:?}");
            let last = found[0].lines.last().unwrap();
            assert!(found[0].content.end >= last.end, "{page:?}");
        }
        let quoted = "> ```silp\n> begin(x)\n> ```";
        let found = fences(quoted);
        assert!(found[0].closed);
        assert_eq!(line_texts(quoted, &found[0]), ["begin(x)"]);
    }

    #[test]
    fn a_fence_ended_by_its_list_item_is_not_closed() {
        let page = "* x\n\n  ```silp\n  cancel(a)\nbegin(x)\n";
        let found = fences(page);
        assert_eq!(line_texts(page, &found[0]), ["cancel(a)"]);
        assert!(!found[0].closed);
    }
}
