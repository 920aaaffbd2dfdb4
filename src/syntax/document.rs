//! One parsed document: what [`parse`] returns for a file's text and every consumer
//! reads — linting, `fmt`, the meaning check of `--fix`, `convert` and each feature
//! of the language server — so they cannot disagree about where a payload is or
//! what it holds.
//!
//! A document is its payload regions (the file body, or each tagged fence of a
//! Markdown page) and, in each, its items in file order: blank and comment lines,
//! and payloads with their parse (a code-frontend line, a `//ping` probe, a SLIP
//! line, a JSON text, an NLIP message with the payloads it carries). Every parse
//! keeps going past errors and every span is a byte range of the whole file.

use std::sync::Arc;

use crate::source::{FileKind, Span};
use crate::syntax::code::{self, CodeParse};
use crate::syntax::json::{parse_json, parse_json_recovering, JsonNode, JsonParse};
use crate::syntax::lines::{split_trailing_comment, Line};
use crate::syntax::ping::{self, Probe};
use crate::syntax::region::{regions, Region};
use crate::syntax::slip::{self, SlipParse};
use crate::syntax::{nlip, suppression, SyntaxError};

/// The parsed payloads of one file.
#[derive(Debug)]
pub struct Document<'t> {
    /// The whole file; every span indexes into it.
    pub text: &'t str,
    pub kind: FileKind,
    /// The payload regions, in file order.
    pub blocks: Vec<Block<'t>>,
}

/// One region of payloads of one kind, and what it holds.
#[derive(Debug)]
pub struct Block<'t> {
    pub region: Region<'t>,
    pub items: Vec<Item<'t>>,
}

/// A suppression comment's codes, each with its span.
pub type Codes = Vec<(String, Span)>;

/// One line of a line-oriented region, or one JSON text.
#[derive(Debug)]
pub enum Item<'t> {
    /// A line of white space only.
    Blank(Line<'t>),
    /// A line whose first non-blank character is `#` (in a `silp-json` fence too);
    /// `codes` when it is a suppression comment.
    Comment {
        line: Line<'t>,
        codes: Option<Codes>,
    },
    /// A `.silp` payload line: a code-frontend payload or a `//ping` probe.
    Silp(SilpLine<'t>),
    /// A Slipstream line.
    Slip {
        line: Line<'t>,
        parse: SlipParse<'t>,
    },
    /// A JSON text: a `.silp.json` body or fence, or a `.silp.jsonl` line.
    Json(JsonText),
    /// An NLIP message and the payloads it carries.
    Nlip(NlipMessage<'t>),
}

/// A `.silp` payload line.
#[derive(Debug)]
pub struct SilpLine<'t> {
    pub line: Line<'t>,
    /// The line before a trailing comment, trailing white space trimmed; it starts
    /// where the line does.
    pub payload: &'t str,
    /// The index in the line of the `#` of a trailing comment (` # …`).
    pub comment: Option<usize>,
    /// The codes of a trailing suppression comment.
    pub suppression: Option<Codes>,
    pub body: SilpBody<'t>,
}

/// What a `.silp` payload line holds.
#[derive(Debug)]
pub enum SilpBody<'t> {
    Code(CodeParse<'t>),
    Probe {
        probe: Option<Probe<'t>>,
        errors: Vec<SyntaxError>,
    },
}

/// A JSON text holding one payload object, or (in `.silp.json`) an array of them.
#[derive(Debug)]
pub struct JsonText {
    /// Where the text lies in the file.
    pub span: Span,
    /// Whether the top level may be an array of payloads (`.silp.json`; a
    /// `.silp.jsonl` line holds one object). Such a text is parsed recovering: an
    /// error inside one element costs only that element.
    pub allow_array: bool,
    pub parse: JsonParse,
    /// Whether the text holds a `\`: only then can a string be written with escapes.
    pub has_escapes: bool,
}

/// An NLIP message (`.nlip.json`).
#[derive(Debug)]
pub struct NlipMessage<'t> {
    pub span: Span,
    pub parse: JsonParse,
    pub has_escapes: bool,
    /// The payloads its messages carry, in document order (none unless the
    /// message is an object).
    pub carried: Vec<Carried<'t>>,
}

/// A payload an NLIP message carries in its `content`.
#[derive(Debug)]
pub enum Carried<'t> {
    /// A string written without escapes: its bytes are the payload's, parsed in
    /// place with file positions.
    InPlace { string: Span, block: Block<'t> },
    /// A string written with escapes: the decoded payload, parsed on its own. Its
    /// positions cannot point into the string's bytes.
    Escaped {
        string: Span,
        document: Box<OwnedDocument>,
    },
    /// A `content` object whose `subformat` is `silp`: an IR or JSON-frontend payload.
    Object(JsonNode),
}

self_cell::self_cell!(
    /// A document together with the text it was parsed from: what the language
    /// server caches per document version, and what an escaped NLIP payload holds.
    pub struct OwnedDocument {
        owner: Arc<str>,
        #[covariant]
        dependent: Document,
    }

    impl {Debug}
);

impl OwnedDocument {
    /// Parses `text` as `kind` and keeps both.
    pub fn parse(text: Arc<str>, kind: FileKind) -> OwnedDocument {
        OwnedDocument::new(text, |text| parse(text, kind))
    }

    pub fn document(&self) -> &Document<'_> {
        self.borrow_dependent()
    }
}

/// Parses a file's text as `kind`.
pub fn parse(text: &str, kind: FileKind) -> Document<'_> {
    Document {
        text,
        kind,
        blocks: regions(text, kind).into_iter().map(parse_block).collect(),
    }
}

impl<'t> Document<'t> {
    /// The spans around the blocks of a Markdown page (its prose and other blocks),
    /// from the start of the page; none for other kinds.
    pub fn prose(&self) -> Vec<Span> {
        if self.kind != FileKind::Markdown {
            return Vec::new();
        }
        let mut spans = Vec::new();
        let mut start = 0;
        for block in &self.blocks {
            spans.push(start..block.region.span.start);
            start = block.region.span.end;
        }
        spans.push(start..self.text.len());
        spans.retain(|span| !span.is_empty());
        spans
    }

    /// Every block with payloads, in file order: the document's own, then (right
    /// after an NLIP message's block) the blocks of the payloads it carries in place.
    pub fn all_blocks(&self) -> Vec<&Block<'t>> {
        let mut out = Vec::new();
        for block in &self.blocks {
            out.push(block);
            for item in &block.items {
                if let Item::Nlip(message) = item {
                    for carried in &message.carried {
                        if let Carried::InPlace { block, .. } = carried {
                            out.push(block);
                        }
                    }
                }
            }
        }
        out
    }
}

fn parse_block(region: Region<'_>) -> Block<'_> {
    let items = match region.kind {
        FileKind::Silp => region.lines().map(silp_item).collect(),
        FileKind::Slip => region
            .lines()
            .map(|line| {
                comment_item(&line).unwrap_or_else(|| Item::Slip {
                    parse: slip::parse_message(line.text, line.start),
                    line,
                })
            })
            .collect(),
        FileKind::SilpJson => {
            let mut items: Vec<Item> = region
                .json_comment_lines()
                .into_iter()
                .filter_map(|line| comment_item(&line))
                .collect();
            items.push(Item::Json(json_text(
                &region.text(),
                region.span.start,
                true,
            )));
            items
        }
        FileKind::SilpJsonl => region
            .lines()
            .map(|line| {
                if line.text.trim().is_empty() {
                    Item::Blank(line)
                } else {
                    Item::Json(json_text(line.text, line.start, false))
                }
            })
            .collect(),
        FileKind::Nlip => vec![Item::Nlip(nlip_message(&region))],
        FileKind::Markdown => Vec::new(),
    };
    Block { region, items }
}

/// A blank or comment line as an item; `None` for a line with a payload.
fn comment_item<'t>(line: &Line<'t>) -> Option<Item<'t>> {
    let trimmed = line.text.trim_start();
    if trimmed.is_empty() {
        return Some(Item::Blank(line.clone()));
    }
    if !trimmed.starts_with('#') {
        return None;
    }
    let hash = line.start + line.text.len() - trimmed.len();
    Some(Item::Comment {
        line: line.clone(),
        codes: suppression::parse_codes(trimmed.trim_end(), hash),
    })
}

fn silp_item(line: Line<'_>) -> Item<'_> {
    if let Some(item) = comment_item(&line) {
        return item;
    }
    let (payload, comment) = split_trailing_comment(line.text);
    let suppression =
        comment.and_then(|hash| suppression::parse_codes(&line.text[hash..], line.start + hash));
    let body = if ping::is_probe(payload) {
        let (probe, errors) = ping::parse_probe(payload, line.start);
        SilpBody::Probe { probe, errors }
    } else {
        SilpBody::Code(code::parse_payload(payload, line.start))
    };
    Item::Silp(SilpLine {
        line,
        payload,
        comment,
        suppression,
        body,
    })
}

fn json_text(text: &str, base: usize, allow_array: bool) -> JsonText {
    let parse = if allow_array {
        parse_json_recovering(text, base)
    } else {
        parse_json(text, base)
    };
    JsonText {
        span: base..base + text.len(),
        allow_array,
        parse,
        has_escapes: memchr::memchr(b'\\', text.as_bytes()).is_some(),
    }
}

fn nlip_message<'t>(region: &Region<'t>) -> NlipMessage<'t> {
    let text = region.text();
    let base = region.span.start;
    let parse = parse_json(&text, base);
    let mut carried = Vec::new();
    if let Some(root) = parse.value.as_ref().filter(|root| root.is_object()) {
        for message in nlip::messages(root) {
            let Some((kind, content)) = nlip::carried_payload(message) else {
                continue;
            };
            let Some(decoded) = content.as_str() else {
                carried.push(Carried::Object(content.clone()));
                continue;
            };
            let string = content.span.clone();
            let inner = string.start + 1..string.end - 1;
            let page = region.page();
            carried.push(if page.get(inner.clone()) == Some(decoded) {
                Carried::InPlace {
                    string,
                    block: parse_block(Region::within(page, kind, inner)),
                }
            } else {
                Carried::Escaped {
                    string,
                    document: Box::new(OwnedDocument::parse(Arc::from(decoded), kind)),
                }
            });
        }
    }
    NlipMessage {
        span: base..base + text.len(),
        parse,
        has_escapes: memchr::memchr(b'\\', text.as_bytes()).is_some(),
        carried,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_markdown_page_is_its_fences_and_the_prose_around_them() {
        let page = "# Title\n\n```silp\n# silp-lint: ignore[SL101]\nbegin(x)\n```\n\ntext\n";
        let doc = parse(page, FileKind::Markdown);
        assert_eq!(doc.blocks.len(), 1);
        let items = &doc.blocks[0].items;
        assert!(
            matches!(&items[0], Item::Comment { codes: Some(codes), .. } if codes[0].0 == "SL101")
        );
        let Item::Silp(line) = &items[1] else {
            panic!("a payload line: {items:?}");
        };
        assert_eq!(&page[line.line.span()], "begin(x)");
        assert!(matches!(&line.body, SilpBody::Code(parse) if parse.errors.is_empty()));
        let prose: Vec<&str> = doc.prose().into_iter().map(|s| &page[s]).collect();
        assert_eq!(prose, ["# Title\n\n```silp\n", "```\n\ntext\n"]);
    }

    #[test]
    fn nlip_payloads_are_parsed_in_place_or_from_their_decoded_text() {
        let text = r#"{"format":"text","subformat":"silp","content":"start(hike)","submessages":[{"format":"text","subformat":"silp","content":"cancel(\u0066light)"},{"format":"text","content":"SLIP v1 a b Accept"}]}"#;
        let doc = parse(text, FileKind::Nlip);
        let Item::Nlip(message) = &doc.blocks[0].items[0] else {
            panic!("an NLIP message");
        };
        assert_eq!(message.carried.len(), 3);
        let Carried::InPlace { block, .. } = &message.carried[0] else {
            panic!("written without escapes");
        };
        assert_eq!(&text[block.region.span.clone()], "start(hike)");
        let Carried::Escaped { document, string } = &message.carried[1] else {
            panic!("written with escapes");
        };
        assert_eq!(document.document().text, "cancel(flight)");
        assert_eq!(&text[string.clone()], r#""cancel(\u0066light)""#);
        assert_eq!(doc.all_blocks().len(), 3);
    }

    #[test]
    fn a_json_document_is_parsed_recovering_and_a_json_line_strictly() {
        let text = r#"[{"intent":"!START"},{"intent" "x"},{"intent":"!CANCEL"}]"#;
        let doc = parse(text, FileKind::SilpJson);
        let Item::Json(json) = &doc.blocks[0].items[0] else {
            panic!("a JSON text");
        };
        assert_eq!(json.parse.errors.len(), 1);
        let items = json.parse.value.as_ref().and_then(JsonNode::as_array);
        assert_eq!(items.map(<[JsonNode]>::len), Some(2));
        let doc = parse(&text[1..text.len() - 1], FileKind::SilpJsonl);
        let Item::Json(line) = &doc.blocks[0].items[0] else {
            panic!("a JSON line");
        };
        assert!(line.parse.value.is_none());
    }
}
