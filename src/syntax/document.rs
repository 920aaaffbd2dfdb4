//! One parsed document: what [`parse`] returns for a file's text and every consumer
//! reads — linting, `fmt`, the meaning check of `--fix`, `convert` and each feature
//! of the language server — so they cannot disagree about where a payload is or
//! what it holds.
//!
//! A document is its payload regions (the file body, or each tagged fence of a
//! Markdown page) and, in each, its items in file order: blank and comment lines,
//! and payloads with their parse (a code-frontend line, a `//ping` probe, a SLIP
//! line, a JSON text, an NLIP message with the payloads it carries, the MCP or A2A
//! messages of a carrier file with theirs). Every parse keeps going past errors and
//! every span is a byte range of the whole file.

use rayon::prelude::*;
use std::sync::Arc;

use crate::source::{FileKind, Span};
use crate::syntax::code::{self, CodeParse};
use crate::syntax::json::{
    parse_json, parse_json_recovering, JsonMember, JsonNode, JsonParse, JsonValue,
};
use crate::syntax::lines::{split_trailing_comment, Line};
use crate::syntax::ping::{self, Probe};
use crate::syntax::region::{regions, Region};
use crate::syntax::slip::{self, SlipParse};
use crate::syntax::{a2a, mcp, nlip, suppression, SyntaxError};

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
    Json(JsonText<'t>),
    /// An NLIP message and the payloads it carries.
    Nlip(NlipMessage<'t>),
    /// The JSON text of a carrier file (`.mcp-call.json`, `.a2a.json`): protocol
    /// messages and the payloads they carry.
    Carrier(CarrierText<'t>),
}

impl<'t> Item<'t> {
    /// The payloads the item carries in JSON, in document order: an NLIP message's,
    /// and those of the MCP wrappers and A2A messages it holds.
    pub fn carried(&self) -> Vec<&Carried<'t>> {
        let (own, carriers): (&[Carried<'t>], &[Carrier<'t>]) = match self {
            Item::Json(json) => (&[], &json.carriers),
            Item::Nlip(message) => (&message.carried, &message.carriers),
            Item::Carrier(text) => (&[], &text.carriers),
            Item::Blank(_) | Item::Comment { .. } | Item::Silp(_) | Item::Slip { .. } => (&[], &[]),
        };
        let mut all: Vec<&Carried<'t>> = own
            .iter()
            .chain(carriers.iter().filter_map(Carrier::carried))
            .collect();
        all.sort_by_key(|carried| carried.span().start);
        all
    }
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
    /// The probe is boxed, as a code payload is (see `CodeParse`).
    Probe {
        probe: Option<Box<Probe<'t>>>,
        errors: Vec<SyntaxError>,
    },
}

/// A JSON text holding one payload object, or (in `.silp.json`) an array of them.
#[derive(Debug)]
pub struct JsonText<'t> {
    /// Where the text lies in the file.
    pub span: Span,
    /// Whether the top level may be an array of payloads (`.silp.json`; a
    /// `.silp.jsonl` line holds one object). Such a text is parsed recovering: an
    /// error inside one element costs only that element.
    pub allow_array: bool,
    pub parse: JsonParse,
    /// Whether the text holds a `\`: only then can a string be written with escapes.
    pub has_escapes: bool,
    /// The MCP wrappers among its payload objects, in document order: each top-level
    /// object holding one is the wrapper's, not a payload.
    pub carriers: Vec<Carrier<'t>>,
}

impl<'t> JsonText<'t> {
    /// The top-level values that are payloads (the root, or each element of a root
    /// array where arrays are allowed), each with the MCP wrapper it holds, if any.
    pub fn values(&self) -> Vec<(&JsonNode, Option<&Carrier<'t>>)> {
        let Some(root) = &self.parse.value else {
            return Vec::new();
        };
        let values: Vec<&JsonNode> = match &root.value {
            JsonValue::Array(items) if self.allow_array => items.iter().collect(),
            _ => vec![root],
        };
        let mut carriers = self.carriers.iter().peekable();
        values
            .into_iter()
            .map(|value| {
                let held = carriers.next_if(|carrier| value.span.contains(&carrier.span().start));
                (value, held)
            })
            .collect()
    }
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
    /// The MCP wrappers its messages hold as `content` objects.
    pub carriers: Vec<Carrier<'t>>,
}

/// The JSON text of a carrier file: one message, or an array of them.
#[derive(Debug)]
pub struct CarrierText<'t> {
    pub span: Span,
    pub parse: JsonParse,
    pub has_escapes: bool,
    /// What its top-level values carry, in document order.
    pub carriers: Vec<Carrier<'t>>,
}

/// A protocol message, or the part of one, that carries a payload or declares how
/// payloads are carried.
#[derive(Debug)]
pub enum Carrier<'t> {
    /// Tool arguments holding a SILP wrapper (MCP, draft -01 §7.2).
    Mcp(McpWrapper<'t>),
    /// An A2A message using the Slipstream extension.
    A2aMessage(A2aMessage<'t>),
    /// An Agent Card's entry for the Slipstream extension.
    AgentCard(AgentCardExtension),
    /// A top-level value of a carrier file of `kind` that is none of the messages
    /// its protocol carries payloads in: nothing in it is linted.
    Unrecognised {
        kind: FileKind,
        value: Span,
        /// Its JSON type, as messages name it.
        found: &'static str,
    },
}

impl<'t> Carrier<'t> {
    /// The payload it carries, if any.
    pub fn carried(&self) -> Option<&Carried<'t>> {
        match self {
            Carrier::Mcp(wrapper) => wrapper.carried.as_ref(),
            Carrier::A2aMessage(message) => message.carried.as_ref(),
            Carrier::AgentCard(_) | Carrier::Unrecognised { .. } => None,
        }
    }

    /// The bytes of the object it was read from.
    pub fn span(&self) -> &Span {
        match self {
            Carrier::Mcp(wrapper) => &wrapper.object,
            Carrier::A2aMessage(message) => &message.object,
            Carrier::AgentCard(card) => &card.entry.span,
            Carrier::Unrecognised { value, .. } => value,
        }
    }
}

/// The SILP wrapper of an MCP tool call.
#[derive(Debug)]
pub struct McpWrapper<'t> {
    /// The object holding the fields: the tool's arguments.
    pub object: Span,
    /// `silp_encoding` and `silp_payload` as written (the last of repeated keys).
    pub encoding: Option<JsonMember>,
    pub payload: Option<JsonMember>,
    /// The payload, parsed as the frontend its encoding names when silp-lint reads
    /// that frontend (`code`, `json`).
    pub carried: Option<Carried<'t>>,
}

/// An A2A message that uses the Slipstream extension.
#[derive(Debug)]
pub struct A2aMessage<'t> {
    /// The message object.
    pub object: Span,
    /// Its `extensions` and `metadata` values, as written.
    pub extensions: Option<JsonNode>,
    pub metadata: Option<JsonNode>,
    /// The `text` of its first text part.
    pub text: Option<JsonNode>,
    /// That text, parsed as SLIP.
    pub carried: Option<Carried<'t>>,
}

/// The `capabilities.extensions[]` entry of an Agent Card that names the Slipstream
/// extension.
#[derive(Debug)]
pub struct AgentCardExtension {
    pub entry: JsonNode,
}

/// A payload carried in JSON: in an NLIP message's `content`, an MCP wrapper's
/// `silp_payload`, an A2A message's first text part.
#[derive(Debug)]
pub enum Carried<'t> {
    /// A string written without escapes: its bytes are the payload's, parsed in
    /// place with file positions.
    InPlace { string: Span, block: Block<'t> },
    /// A string written with escapes: the decoded payload, parsed on its own. Its
    /// positions cannot point into the string's bytes.
    Escaped(EscapedPayload),
    /// An object holding an IR or JSON-frontend payload: an NLIP `content` whose
    /// `subformat` is `silp`, or an MCP `silp_payload` of encoding `json`.
    Object(JsonNode),
}

impl Carried<'_> {
    /// The bytes of the string or object that holds the payload.
    pub fn span(&self) -> &Span {
        match self {
            Carried::InPlace { string, .. } => string,
            Carried::Escaped(escaped) => &escaped.string,
            Carried::Object(node) => &node.span,
        }
    }
}

/// The decoded text of a payload written in a JSON string with escapes, parsed when
/// asked ([`EscapedPayload::parse`]) rather than held parsed with its message: each
/// is linted once, and 126,000 held parsed took 2.3 KB each (290 MiB of a 10 MB
/// NLIP message).
#[derive(Debug)]
pub struct EscapedPayload {
    /// The JSON string, quotes included.
    pub string: Span,
    text: Box<str>,
    kind: FileKind,
    a2a: bool,
}

impl EscapedPayload {
    /// The decoded payload parsed as a document of its own, its regions carried
    /// (and an A2A message's SLIP text when it is one).
    pub fn parse(&self) -> Document<'_> {
        let mut document = parse(&self.text, self.kind);
        for block in &mut document.blocks {
            block.region.carried = true;
            block.region.a2a = self.a2a;
        }
        document
    }
}

self_cell::self_cell!(
    /// A document together with the text it was parsed from: what the language
    /// server caches per document version.
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

/// A line-oriented file's text as a document that holds only the line byte
/// `offset` is on (its end included; none when `offset` falls inside a line
/// break): what a request about one place needs of a large file, without parsing
/// the rest. The lines are read from the last `\n` before `offset`, which always
/// ends a line, so the lines before it are not even split.
pub fn parse_lines_at(text: &str, kind: FileKind, offset: usize) -> Document<'_> {
    debug_assert!(is_line_oriented(kind));
    let blocks = regions(text, kind)
        .into_iter()
        .map(|region| {
            let Span { start, end } = region.span.clone();
            let before = &text.as_bytes()[start..offset.clamp(start, end)];
            let from = memchr::memrchr(b'\n', before).map_or(start, |i| start + i + 1);
            // After the last line break there is no line (as `lines` reads it).
            let past_last_line = from == end && from > start;
            let items = if past_last_line {
                Vec::new()
            } else {
                region
                    .lines_of(from..end)
                    .skip_while(|line| line.span().end < offset)
                    .take_while(|line| line.start <= offset)
                    .map(|line| line_item(kind, line, text))
                    .collect()
            };
            Block { items, region }
        })
        .collect();
    Document { text, kind, blocks }
}

impl<'t> Document<'t> {
    /// The spans around the blocks of a Markdown page (its prose and other blocks),
    /// from the start of the page; none for other kinds.
    pub fn prose(&self) -> Vec<Span> {
        prose_around(
            self.text,
            self.kind,
            self.blocks.iter().map(|block| &block.region),
        )
    }

    /// Every block with payloads, in file order: the document's own, then (right
    /// after a block holding JSON) the blocks of the payloads it carries in place.
    pub fn all_blocks(&self) -> Vec<&Block<'t>> {
        let mut out = Vec::new();
        for block in &self.blocks {
            out.push(block);
            for item in &block.items {
                for carried in item.carried() {
                    if let Carried::InPlace { block, .. } = carried {
                        out.push(block);
                    }
                }
            }
        }
        out
    }
}

/// The spans around the `regions` of a Markdown page of `text` (its prose and
/// other blocks), from the start of the page; none for other kinds.
pub fn prose_around<'r, 't: 'r>(
    text: &str,
    kind: FileKind,
    regions: impl IntoIterator<Item = &'r Region<'t>>,
) -> Vec<Span> {
    if kind != FileKind::Markdown {
        return Vec::new();
    }
    let mut spans = Vec::new();
    let mut start = 0;
    for region in regions {
        spans.push(start..region.span.start);
        start = region.span.end;
    }
    spans.push(start..text.len());
    spans.retain(|span| !span.is_empty());
    spans
}

/// One region's block: its lines or JSON texts parsed.
pub fn parse_block(region: Region<'_>) -> Block<'_> {
    let items = match region.kind {
        kind if is_line_oriented(kind) => region
            .lines()
            .map(|line| line_item(kind, line, region.page()))
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
                region.page(),
            )));
            items
        }
        FileKind::Nlip => vec![Item::Nlip(nlip_message(&region))],
        FileKind::McpCall | FileKind::A2a => vec![Item::Carrier(carrier_text(&region))],
        FileKind::Silp | FileKind::Slip | FileKind::SilpJsonl | FileKind::Markdown => Vec::new(),
    };
    Block { region, items }
}

/// Whether every payload of `kind` is one line, parsed without its neighbours: such
/// a file can be linted a line at a time ([`line_item`]), never holding its tree.
pub fn is_line_oriented(kind: FileKind) -> bool {
    matches!(kind, FileKind::Silp | FileKind::Slip | FileKind::SilpJsonl)
}

/// The item one line of a line-oriented region (of `kind`, in `page`) is.
pub fn line_item<'t>(kind: FileKind, line: Line<'t>, page: &'t str) -> Item<'t> {
    match kind {
        FileKind::Slip => comment_item(&line).unwrap_or_else(|| Item::Slip {
            parse: slip::parse_message(line.text, line.start),
            line,
        }),
        FileKind::SilpJsonl if line.text.trim().is_empty() => Item::Blank(line),
        FileKind::SilpJsonl => Item::Json(json_text(line.text, line.start, false, page)),
        _ => silp_item(line),
    }
}

/// What `each` gathers from the item of every line of line-oriented `regions`, in
/// file order. A region over `piece_bytes` is read in pieces on the thread pool,
/// and each line's item is `each`'s to consume, so no file's tree is held whole.
pub fn gather_line_items<T: Send>(
    regions: Vec<Region<'_>>,
    piece_bytes: usize,
    each: impl Fn(Item, &mut Vec<T>) + Sync,
) -> Vec<T> {
    let mut out = Vec::new();
    for region in regions {
        let (kind, page) = (region.kind, region.page());
        let pieces = region.pieces(piece_bytes);
        if pieces.len() == 1 {
            // One piece, as most files are: no handing over to the thread pool.
            for line in region.lines() {
                each(line_item(kind, line, page), &mut out);
            }
            continue;
        }
        let pieces: Vec<Vec<T>> = pieces
            .into_par_iter()
            .map(|piece| {
                let mut gathered = Vec::new();
                for line in region.lines_of(piece) {
                    each(line_item(kind, line, page), &mut gathered);
                }
                gathered
            })
            .collect();
        out.reserve_exact(pieces.iter().map(Vec::len).sum());
        out.extend(pieces.into_iter().flatten());
    }
    out
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
        SilpBody::Probe {
            probe: probe.map(Box::new),
            errors,
        }
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

fn json_text<'t>(text: &str, base: usize, allow_array: bool, page: &'t str) -> JsonText<'t> {
    let parse = if allow_array {
        parse_json_recovering(text, base)
    } else {
        parse_json(text, base)
    };
    let mut json = JsonText {
        span: base..base + text.len(),
        allow_array,
        parse,
        has_escapes: has_escapes(text),
        carriers: Vec::new(),
    };
    let carriers = json
        .values()
        .into_iter()
        .filter_map(|(value, _)| mcp::wrapper_in(value))
        .map(|wrapper| Carrier::Mcp(mcp_wrapper(wrapper, page)))
        .collect();
    json.carriers = carriers;
    json
}

fn has_escapes(text: &str) -> bool {
    memchr::memchr(b'\\', text.as_bytes()).is_some()
}

/// A carrier file's JSON text: one message, or an array of them (a JSON-RPC batch),
/// parsed recovering as `.silp.json` is.
fn carrier_text<'t>(region: &Region<'t>) -> CarrierText<'t> {
    let text = region.text();
    let base = region.span.start;
    let parse = parse_json_recovering(&text, base);
    let mut carriers = Vec::new();
    if let Some(root) = &parse.value {
        let values: Vec<&JsonNode> = match &root.value {
            JsonValue::Array(items) => items.iter().collect(),
            _ => vec![root],
        };
        for value in values {
            carriers_of(value, region.kind, region.page(), &mut carriers);
        }
    }
    CarrierText {
        span: base..base + text.len(),
        parse,
        has_escapes: has_escapes(&text),
        carriers,
    }
}

/// What one top-level value of a carrier file of `kind` carries.
fn carriers_of<'t>(value: &JsonNode, kind: FileKind, page: &'t str, out: &mut Vec<Carrier<'t>>) {
    let recognised = match kind {
        FileKind::McpCall => match mcp::wrapper_in(value) {
            Some(wrapper) => {
                out.push(Carrier::Mcp(mcp_wrapper(wrapper, page)));
                true
            }
            None => mcp::is_json_rpc(value),
        },
        _ => {
            let message = a2a::message_in(value).filter(|m| a2a::uses_extension(m));
            if let Some(message) = message {
                out.push(Carrier::A2aMessage(a2a_message(message, page)));
            }
            out.extend(a2a::card_extensions(value).into_iter().map(|entry| {
                Carrier::AgentCard(AgentCardExtension {
                    entry: entry.clone(),
                })
            }));
            a2a::is_a2a_value(value)
        }
    };
    if !recognised {
        out.push(Carrier::Unrecognised {
            kind,
            value: value.span.clone(),
            found: value.type_name(),
        });
    }
}

/// The last member named `key` of an object, as JSON parsers keep it.
fn member(object: &JsonNode, key: &str) -> Option<JsonMember> {
    object
        .members()
        .iter()
        .rev()
        .find(|m| m.key == key)
        .cloned()
}

fn mcp_wrapper<'t>(object: &JsonNode, page: &'t str) -> McpWrapper<'t> {
    let encoding = member(object, mcp::ENCODING);
    let payload = member(object, mcp::PAYLOAD);
    let kind = encoding
        .as_ref()
        .and_then(|e| e.value.as_str())
        .and_then(mcp::payload_kind);
    let carried = match (kind, &payload) {
        (Some(kind), Some(payload)) if payload.value.as_str().is_some() => {
            carried_string(page, &payload.value, kind, false)
        }
        (Some(FileKind::SilpJson), Some(payload)) if payload.value.is_object() => {
            Some(Carried::Object(payload.value.clone()))
        }
        _ => None,
    };
    McpWrapper {
        object: object.span.clone(),
        encoding,
        payload,
        carried,
    }
}

fn a2a_message<'t>(message: &JsonNode, page: &'t str) -> A2aMessage<'t> {
    let text = a2a::first_text(message);
    A2aMessage {
        object: message.span.clone(),
        extensions: message.get("extensions").cloned(),
        metadata: message.get("metadata").cloned(),
        text: text.cloned(),
        carried: text.and_then(|text| carried_string(page, text, FileKind::Slip, true)),
    }
}

/// A payload of `kind` written in the JSON string `string` of `page`: parsed in place
/// when written without escapes, else its decoded text parsed on its own. `a2a` when
/// it is an A2A message's SLIP text.
fn carried_string<'t>(
    page: &'t str,
    string: &JsonNode,
    kind: FileKind,
    a2a: bool,
) -> Option<Carried<'t>> {
    let decoded = string.as_str()?;
    let span = string.span.clone();
    let inner = span.start + 1..span.end - 1;
    Some(if page.get(inner.clone()) == Some(decoded) {
        Carried::InPlace {
            string: span,
            block: parse_block(Region::within(page, kind, inner, a2a)),
        }
    } else {
        Carried::Escaped(EscapedPayload {
            string: span,
            text: decoded.into(),
            kind,
            a2a,
        })
    })
}

fn nlip_message<'t>(region: &Region<'t>) -> NlipMessage<'t> {
    let text = region.text();
    let base = region.span.start;
    let parse = parse_json(&text, base);
    let page = region.page();
    let mut carried = Vec::new();
    let mut carriers = Vec::new();
    if let Some(root) = parse.value.as_ref().filter(|root| root.is_object()) {
        for message in nlip::messages(root) {
            if let Some(wrapper) = message.get("content").and_then(mcp::wrapper_in) {
                carriers.push(Carrier::Mcp(mcp_wrapper(wrapper, page)));
                continue;
            }
            let Some((kind, content)) = nlip::carried_payload(message) else {
                continue;
            };
            carried.extend(if content.as_str().is_some() {
                carried_string(page, content, kind, false)
            } else {
                Some(Carried::Object(content.clone()))
            });
        }
    }
    NlipMessage {
        span: base..base + text.len(),
        parse,
        has_escapes: has_escapes(&text),
        carried,
        carriers,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A document's items as they print, without the lines' numbers (which count
    /// from where a read starts).
    fn printed(blocks: &[Block]) -> Vec<String> {
        blocks
            .iter()
            .flat_map(|block| &block.items)
            .map(|item| {
                let printed = format!("{item:?}");
                let mut out = String::new();
                let mut rest = printed.as_str();
                while let Some(at) = rest.find("number: ") {
                    out.push_str(&rest[..at]);
                    rest = rest[at + "number: ".len()..]
                        .trim_start_matches(|c: char| c.is_ascii_digit());
                }
                out + rest
            })
            .collect()
    }

    /// The line at an offset, read alone, is the item the whole document has
    /// there: at every offset, with a byte-order mark, CRLF, a lone CR, blank
    /// lines, and with and without a last line break.
    #[test]
    fn the_lines_at_an_offset_are_the_items_of_the_whole_document_there() {
        let texts = [
            (
                "\u{feff}start(x)\r\n# c\n\nif !rain(t+1): Cancel(w)\rstop(y)\n\r\n",
                FileKind::Silp,
            ),
            ("start(a)\nstop(b)", FileKind::Silp),
            ("\n\n", FileKind::Silp),
            ("", FileKind::Silp),
            ("{\"intent\":\"!START\"}\r\nnot json\n", FileKind::SilpJsonl),
            ("SLIP v1 a b RequestTask x\r# c\nnot slip\n", FileKind::Slip),
        ];
        for (text, kind) in texts {
            let whole = parse(text, kind);
            let lines: Vec<Line> = whole.blocks[0].region.lines().collect();
            let items = printed(&whole.blocks);
            assert_eq!(lines.len(), items.len(), "{text:?}");
            for offset in 0..=text.len() {
                let want: Vec<&String> = lines
                    .iter()
                    .zip(&items)
                    .filter(|(line, _)| line.start <= offset && offset <= line.span().end)
                    .map(|(_, item)| item)
                    .collect();
                let got = printed(&parse_lines_at(text, kind, offset).blocks);
                assert_eq!(
                    got.iter().collect::<Vec<_>>(),
                    want,
                    "{kind:?} {text:?} at {offset}"
                );
            }
        }
    }

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
        let Carried::Escaped(escaped) = &message.carried[1] else {
            panic!("written with escapes");
        };
        let inner = escaped.parse();
        assert_eq!(inner.text, "cancel(flight)");
        assert_eq!(inner.blocks[0].items.len(), 1);
        assert!(inner.blocks[0].region.carried);
        assert_eq!(&text[escaped.string.clone()], r#""cancel(\u0066light)""#);
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
