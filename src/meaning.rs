//! What a payload means, for checking that a change keeps it: each payload of a
//! file decoded (its IR, its SLIP tokens, a JSON value) and hashed. The fix
//! engine compares a text's meanings before and after a round of fixes, `fmt`
//! before and after formatting, and the fix engine's lint gathers them on the
//! parse it lints (`lint::lint_text_for_fixes`).

use crate::ir::{from_code, from_json};
use crate::source::{FileKind, Span};
use crate::syntax::document::{gather_line_items, is_line_oriented};
use crate::syntax::document::{Block, Carried, Item, JsonText, SilpBody, SilpLine};
use crate::syntax::json::{JsonNode, JsonParse, JsonValue};
use crate::syntax::region::{regions, PIECE_BYTES};
use crate::syntax::slip::SlipParse;
use crate::syntax::{parse, Document};
use sha2::{Digest, Sha256};

/// What one payload means, for comparing a text before and after a change: its IR
/// (or SLIP tokens, or JSON value) serialised, or `None` when it does not parse.
#[derive(Debug, PartialEq)]
pub struct PayloadMeaning {
    pub span: Span,
    /// What the payload decodes to, as a digest; `None` when it does not parse.
    pub meaning: Option<Meaning>,
}

/// The first 128 bits of the SHA-256 of a payload's decoded form (its IR, its
/// SLIP tokens, a JSON value), zero read as one: meanings are only ever compared,
/// each with the one at the same place, and a fix round holds two per payload of a
/// file (a million-line file's were 256 MB as strings). Never zero, so an
/// optional one takes no more room than a span does.
pub type Meaning = std::num::NonZeroU128;

fn digest(decoded: &[u8]) -> Meaning {
    meaning_of(Sha256::new().chain_update(decoded))
}

fn meaning_of(sha: Sha256) -> Meaning {
    let mut bits = [0; 16];
    bits.copy_from_slice(&sha.finalize()[..16]);
    Meaning::new(u128::from_le_bytes(bits)).unwrap_or(Meaning::MIN)
}

/// A SHA-256 that serde writes into: a payload's decoded form is hashed as it is
/// written, never held (a line of a million calls decodes to 43 MB of JSON).
struct Hashing(Sha256);

impl std::io::Write for Hashing {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.update(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The meaning of a decoded value: its compact JSON, then `suffix`.
fn digest_json(value: &impl serde::Serialize, suffix: &[&str]) -> Option<Meaning> {
    let mut hashing = Hashing(Sha256::new());
    serde_json::to_writer(&mut hashing, value).ok()?;
    for part in suffix {
        hashing.0.update(part.as_bytes());
    }
    Some(meaning_of(hashing.0))
}

/// The meaning of every payload of a file of `kind`, in file order: a
/// line-oriented file's taken a line at a time, as the lint takes them.
pub fn payload_meanings(text: &str, kind: FileKind) -> Vec<PayloadMeaning> {
    if !is_line_oriented(kind) {
        return document_meanings(&parse(text, kind));
    }
    line_meanings(text, kind, PIECE_BYTES)
}

/// The meanings of a line-oriented file's payloads: the pieces of `piece_bytes`
/// of a large file in parallel, as the lint takes them.
fn line_meanings(text: &str, kind: FileKind, piece_bytes: usize) -> Vec<PayloadMeaning> {
    gather_line_items(regions(text, kind), piece_bytes, line_item_meanings)
}

/// [`item_meanings`] of a line's own item: a code payload's tree is consumed by
/// its decoding, as the lint's is, so a line of a million calls holds its IR or
/// its tree, not both.
fn line_item_meanings(mut item: Item, out: &mut Vec<PayloadMeaning>) {
    if let Item::Silp(silp) = &mut item {
        if let SilpBody::Code(parse) = &mut silp.body {
            let tree = parse.payload.take_if(|_| parse.errors.is_empty());
            if let Some(tree) = tree {
                let with = tree.with.as_ref().map(|(_, name)| name.text);
                let ir = from_code::decode_consuming(*tree);
                out.push(PayloadMeaning {
                    span: silp.line.span(),
                    meaning: code_meaning(&ir, with),
                });
                return;
            }
        }
    }
    item_meanings(&item, out);
}

/// The meaning of every payload of a document, in file order.
pub fn document_meanings(document: &Document) -> Vec<PayloadMeaning> {
    let mut out = Vec::new();
    for block in &document.blocks {
        block_meanings(block, &mut out);
    }
    out
}

pub(crate) fn block_meanings(block: &Block, out: &mut Vec<PayloadMeaning>) {
    for item in &block.items {
        item_meanings(item, out);
    }
}

pub(crate) fn item_meanings(item: &Item, out: &mut Vec<PayloadMeaning>) {
    match item {
        Item::Blank(_) | Item::Comment { .. } => {}
        Item::Silp(silp) => out.push(PayloadMeaning {
            span: silp.line.span(),
            meaning: silp_meaning(silp),
        }),
        Item::Slip { line, parse } => out.push(PayloadMeaning {
            span: line.span(),
            meaning: slip_meaning(parse),
        }),
        Item::Json(json) => json_meanings(json, out),
        Item::Nlip(message) => {
            envelope_meanings(&message.span, &message.parse, &item.carried(), out)
        }
        Item::Carrier(text) => envelope_meanings(&text.span, &text.parse, &item.carried(), out),
    }
}

pub(crate) fn silp_meaning(silp: &SilpLine) -> Option<Meaning> {
    match &silp.body {
        SilpBody::Probe { errors, .. } => errors.is_empty().then(|| {
            let words: Vec<&str> = silp.payload.split_whitespace().collect();
            digest(words.join(" ").as_bytes())
        }),
        SilpBody::Code(parse) => {
            if !parse.errors.is_empty() {
                return None;
            }
            let tree = parse.payload.as_ref()?;
            code_meaning(
                &from_code::decode(tree),
                tree.with.as_ref().map(|(_, name)| name.text),
            )
        }
    }
}

/// The meaning of a code payload decoded to `ir`, with its `with NAME` clause:
/// that has no IR counterpart, but is part of what the line says.
pub(crate) fn code_meaning(ir: &crate::ir::Ir, with: Option<&str>) -> Option<Meaning> {
    match with {
        Some(name) => digest_json(ir, &["\u{0}with ", name]),
        None => digest_json(ir, &[]),
    }
}

fn slip_meaning(parse: &SlipParse) -> Option<Meaning> {
    let message = parse.message.as_ref().filter(|_| parse.errors.is_empty())?;
    let texts: Vec<&str> = message.tokens().map(|(text, _)| text).collect();
    Some(digest(texts.join("\u{0}").as_bytes()))
}

/// A JSON envelope (an NLIP message, a carrier file's messages): the envelope
/// (carried payload strings left out), then each payload carried in a string, so a
/// fix inside a carried payload is judged by that payload's meaning. Carried
/// payloads are placed at their whole string.
fn envelope_meanings(
    span: &Span,
    parse: &JsonParse,
    carried: &[&Carried],
    out: &mut Vec<PayloadMeaning>,
) {
    let Some(root) = parse.value.as_ref().filter(|_| parse.errors.is_empty()) else {
        out.push(PayloadMeaning {
            span: span.clone(),
            meaning: None,
        });
        return;
    };
    carried_meanings(span, root, carried, out);
}

/// The meanings of a JSON value at `span` that carries payloads: the value with its
/// carried strings left out (a carried object is part of it), then each string's
/// payloads.
fn carried_meanings(
    span: &Span,
    root: &JsonNode,
    carried: &[&Carried],
    out: &mut Vec<PayloadMeaning>,
) {
    let mut strings: Vec<&Span> = carried
        .iter()
        .filter(|carried| !matches!(carried, Carried::Object(_)))
        .map(|carried| carried.span())
        .collect();
    strings.sort_unstable_by_key(|span| (span.start, span.end));
    out.push(PayloadMeaning {
        span: span.clone(),
        meaning: digest_json(&without_strings(root, &strings), &[]),
    });
    for carried in carried {
        let (string, inner) = match carried {
            Carried::InPlace { string, block } => {
                let mut inner = Vec::new();
                block_meanings(block, &mut inner);
                (string, inner)
            }
            Carried::Escaped(escaped) => (&escaped.string, document_meanings(&escaped.parse())),
            Carried::Object(_) => continue,
        };
        out.extend(inner.into_iter().map(|m| PayloadMeaning {
            span: string.clone(),
            meaning: m.meaning,
        }));
    }
}

/// A JSON value with the strings at `spans` (in position order) replaced by `null`.
/// Each string is sought by bisection: an NLIP message of 300,000 carried strings
/// compared each string with all of them, 88 s of a 6 MB `check --fix`.
fn without_strings(node: &JsonNode, spans: &[&Span]) -> serde_json::Value {
    let key = |span: &&Span| (span.start, span.end);
    match &node.value {
        JsonValue::String(_) if spans.binary_search_by_key(&key(&&node.span), key).is_ok() => {
            serde_json::Value::Null
        }
        JsonValue::Array(items) => items.iter().map(|i| without_strings(i, spans)).collect(),
        JsonValue::Object(members) => serde_json::Value::Object(
            members
                .iter()
                .map(|m| (m.key.to_string(), without_strings(&m.value, spans)))
                .collect(),
        ),
        _ => node.to_serde(),
    }
}

/// A JSON text: one unknown meaning when it has a syntax error, else each payload
/// object's (each element of a top-level array in `.silp.json`), or for an object
/// holding an MCP wrapper, its own and its payload's.
fn json_meanings(json: &JsonText, out: &mut Vec<PayloadMeaning>) {
    let parse = &json.parse;
    if parse.value.is_none() || !parse.errors.is_empty() {
        out.push(PayloadMeaning {
            span: json.span.clone(),
            meaning: None,
        });
        return;
    }
    for (value, carrier) in json.values() {
        match carrier {
            Some(carrier) => {
                let carried: Vec<&Carried> = carrier.carried().into_iter().collect();
                carried_meanings(&value.span, value, &carried, out);
            }
            None => out.push(json_meaning(value)),
        }
    }
}

fn json_meaning(node: &JsonNode) -> PayloadMeaning {
    let meaning = if matches!(node.value, JsonValue::Object(_)) {
        digest_json(&from_json::decode(node), &[])
    } else {
        digest_json(&node.to_serde(), &[])
    };
    PayloadMeaning {
        span: node.span.clone(),
        meaning,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An NLIP message means its envelope with the carried strings left out, then
    /// each carried payload: a payload rewritten inside its string leaves the
    /// envelope's meaning as it was, whether the root's `content` is written
    /// before its submessages or after them.
    #[test]
    fn an_nlip_envelope_means_the_same_whatever_its_carried_strings_hold() {
        let submessages = r#""submessages":[{"format":"text","subformat":"silp","content":"a(x)\u200b","label":"l"},{"format":"text","subformat":"silp","content":"b(y)"}]"#;
        for content_first in [false, true] {
            let message = |payload: &str| {
                let root = format!(r#""format":"text","subformat":"silp","content":"{payload}""#);
                match content_first {
                    true => format!("{{{root},{submessages}}}"),
                    false => format!("{{{submessages},{root}}}"),
                }
            };
            let meanings = |text: &str| -> Vec<Option<Meaning>> {
                let found = payload_meanings(text, FileKind::Nlip);
                found.into_iter().map(|m| m.meaning).collect()
            };
            let before = meanings(&message("start( hike )\\n"));
            let after = meanings(&message("start(hike)\\n"));
            assert_eq!(before.len(), 4, "{before:?}");
            assert_eq!(before, after, "the envelope and the payloads mean the same");
            // A payload that means something else changes its own meaning alone.
            let other = meanings(&message("stop(hike)\\n"));
            let changed: Vec<usize> = (0..4).filter(|&i| before[i] != other[i]).collect();
            assert_eq!(changed.len(), 1, "{before:?} {other:?}");
            assert_ne!(changed[0], 0, "the envelope");
            // A string that carries no payload is part of the envelope.
            let relabelled = message("start(hike)\\n").replace(r#""label":"l""#, r#""label":"m""#);
            assert_ne!(meanings(&relabelled)[0], after[0]);
        }
    }

    #[test]
    fn line_oriented_meanings_agree_with_the_parsed_document() {
        let cases = [
            (
                FileKind::Silp,
                "\u{feff}start(a)\r\n# c\r\n\r\nif !rain(t+1): start(hike) else: start(cards@indoor)\nstart(\n//ping code json\n",
            ),
            (
                FileKind::Slip,
                "SLIP v1 a b RequestTask x\r\n# c\nSLIP v1 a\nSLIP v1 a b Plan\n",
            ),
            (
                FileKind::SilpJsonl,
                "{\"intent\":\"!START\"}\n\n{\"intent\":\n{\"intent\":\"!STOP\",\"act\":\"x\"}\r\n",
            ),
        ];
        for (kind, text) in cases {
            let whole = document_meanings(&parse(text, kind));
            assert!(whole.len() >= 3, "{kind:?}: {whole:?}");
            assert!(whole.iter().any(|m| m.meaning.is_none()), "{kind:?}");
            assert!(whole.iter().any(|m| m.meaning.is_some()), "{kind:?}");
            assert_eq!(payload_meanings(text, kind), whole, "{kind:?}");
            let many = text.repeat(30);
            let in_one_go = line_meanings(&many, kind, usize::MAX);
            assert_eq!(in_one_go.len(), whole.len() * 30, "{kind:?}");
            for piece_bytes in [1, 40, 300] {
                assert_eq!(
                    line_meanings(&many, kind, piece_bytes),
                    in_one_go,
                    "{kind:?}"
                );
            }
        }
    }
}
