//! `silp-lint convert`: decode each payload of a file to the IR and compile it to
//! the target frontend (or print its canonical IR document), one at a time.
//!
//! Input: a `.silp` file gives one payload per line (blank lines, `#` comments,
//! trailing ` #` comments and `//ping` probes are skipped); a `.silp.json` file one
//! payload object or an array of them; a `.silp.jsonl` file one object per line; a
//! Markdown page its `silp` and `silp-json` fences, in order.
//!
//! Output: one line per payload, in input order, each ending in a newline, whatever
//! the target: `--to ir` on several payloads prints JSON Lines (one compact IR
//! document per line, a valid `.silp.jsonl` file), never an array.
//!
//! A payload that cannot be converted fails the whole file: nothing is printed.
//!
//! `meta.req_id`: an IR document keeps its own; a code or JSON-frontend payload
//! gets the id regenerated from its text ([`crate::ir::req_id`]).

use crate::ir::compile::{self, Frontend};
use crate::ir::{from_code, from_json, req_id, Ir, Spanned};
use crate::schema::{self, Messages, PayloadSchema};
use crate::source::{FileKind, Span};
use crate::syntax::code::{self, CodeParse, Payload};
use crate::syntax::document::{
    is_line_oriented, line_item, parse_block, Block, Carried, Carrier, Item, SilpBody, SilpLine,
};
use crate::syntax::json::JsonNode;
use crate::syntax::region::{regions, Region};

/// What `convert` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    Code,
    Json,
    /// The canonical IR document.
    Ir,
    Natural,
    #[value(name = "nl_json")]
    NlJson,
}

impl Target {
    /// The frontend compiled to, `None` for the IR itself.
    pub fn frontend(self) -> Option<Frontend> {
        match self {
            Target::Code => Some(Frontend::Code),
            Target::Json => Some(Frontend::Json),
            Target::Natural => Some(Frontend::Natural),
            Target::NlJson => Some(Frontend::NlJson),
            Target::Ir => None,
        }
    }
}

/// Why a file could not be converted, and the span (bytes of the file) at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConvertError {
    pub span: Span,
    pub message: String,
}

impl ConvertError {
    fn new(span: Span, message: impl Into<String>) -> ConvertError {
        ConvertError {
            span,
            message: message.into(),
        }
    }
}

impl From<compile::CompileError> for ConvertError {
    fn from(error: compile::CompileError) -> ConvertError {
        ConvertError::new(error.span, error.message)
    }
}

/// The kind of unnamed standard input: JSON Lines when every non-blank line (two or
/// more) is an object on its own, JSON when it starts with `{` or `[`, else
/// code-frontend lines.
pub fn sniff_kind(text: &str) -> FileKind {
    let text = text.trim_start_matches('\u{feff}');
    let mut objects = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let count = objects.clone().count();
    if count > 1 && objects.all(|l| l.starts_with('{') && l.ends_with('}')) {
        return FileKind::SilpJsonl;
    }
    match text.trim_start().chars().next() {
        Some('{' | '[') => FileKind::SilpJson,
        _ => FileKind::Silp,
    }
}

/// Converts every payload of `text` (a file of `kind`) to `to`; one output line per
/// payload. `req_id_length` is the length of regenerated ids (8 by default, 4 as
/// the reference implementation).
///
/// Each payload is compiled as it is decoded and dropped, so a file holds its
/// output, not its payloads' trees and IRs (a 10 MB file of 140,000 code lines
/// took 560 MiB when all were decoded first). As when they were, a payload that
/// does not decode fails the file before any that does not compile.
pub fn convert(
    text: &str,
    kind: FileKind,
    to: Target,
    req_id_length: usize,
) -> Result<String, ConvertError> {
    let mut out = String::new();
    let mut first_compile_error = None;
    for_each_ir(text, kind, req_id_length, &mut |ir| {
        if first_compile_error.is_some() {
            return;
        }
        let line = match to.frontend() {
            Some(frontend) => compile::compile(&ir, frontend),
            None => compile::ir_document(&ir),
        };
        match line {
            Ok(line) => {
                out.push_str(&line);
                out.push('\n');
            }
            Err(error) => first_compile_error = Some(error),
        }
    })?;
    match first_compile_error {
        Some(error) => Err(error.into()),
        None => Ok(out),
    }
}

/// Decodes every payload of a file to the IR, in order.
pub fn decode_file(
    text: &str,
    kind: FileKind,
    req_id_length: usize,
) -> Result<Vec<Ir>, ConvertError> {
    let mut irs = Vec::new();
    for_each_ir(text, kind, req_id_length, &mut |ir| irs.push(ir))?;
    Ok(irs)
}

/// Hands every payload of a file, decoded, to `take`, in order, until one fails to
/// decode. Each region is parsed and decoded before the next, a line-oriented one
/// a line at a time, its code payloads' trees consumed by their decoding.
fn for_each_ir(
    text: &str,
    kind: FileKind,
    req_id_length: usize,
    take: &mut dyn FnMut(Ir),
) -> Result<(), ConvertError> {
    for region in regions(text, kind) {
        // A Markdown page's `slip` fences carry no SILP meaning to convert.
        if kind == FileKind::Markdown && !matches!(region.kind, FileKind::Silp | FileKind::SilpJson)
        {
            continue;
        }
        refuse_other_kinds(&region)?;
        if is_line_oriented(region.kind) {
            for line in region.lines() {
                decode_owned_item(
                    text,
                    line_item(region.kind, line, region.page()),
                    req_id_length,
                    take,
                )?;
            }
        } else {
            for item in parse_block(region).items {
                decode_owned_item(text, item, req_id_length, take)?;
            }
        }
    }
    Ok(())
}

/// Refuses a region of a kind that holds no SILP payloads.
fn refuse_other_kinds(region: &Region) -> Result<(), ConvertError> {
    let other = match region.kind {
        FileKind::Slip => Some("a `.slip` file holds Slipstream messages"),
        FileKind::A2a => Some("an `.a2a.json` file holds Slipstream messages"),
        FileKind::Nlip => Some("an NLIP file holds an envelope"),
        _ => None,
    };
    match other {
        Some(what) => Err(ConvertError::new(
            region.span.start..region.span.start,
            format!("{what}, not SILP payloads; convert reads `.silp`, `.silp.json`, `.silp.jsonl`, `.mcp-call.json` and Markdown files"),
        )),
        None => Ok(()),
    }
}

/// [`decode_item`], a code payload's tree consumed by its decoding.
fn decode_owned_item(
    text: &str,
    mut item: Item,
    req_id_length: usize,
    take: &mut dyn FnMut(Ir),
) -> Result<(), ConvertError> {
    let Item::Silp(silp) = &mut item else {
        return decode_item(text, &item, req_id_length, take);
    };
    // A `//ping` probe has no payload to convert.
    let SilpBody::Code(parse) = &mut silp.body else {
        return Ok(());
    };
    let span = checked_tree(silp.payload, silp.line.start, parse)?
        .span
        .clone();
    // Always there once checked.
    if let Some(tree) = parse.payload.take() {
        let ir = from_code::decode_consuming(*tree);
        take(with_req_id(ir, silp.payload, span, req_id_length));
    }
    Ok(())
}

fn decode_block(
    text: &str,
    block: &Block,
    req_id_length: usize,
    take: &mut dyn FnMut(Ir),
) -> Result<(), ConvertError> {
    refuse_other_kinds(&block.region)?;
    for item in &block.items {
        decode_item(text, item, req_id_length, take)?;
    }
    Ok(())
}

/// Hands the payloads of one item of a block to `take`, decoded.
fn decode_item(
    text: &str,
    item: &Item,
    req_id_length: usize,
    take: &mut dyn FnMut(Ir),
) -> Result<(), ConvertError> {
    match item {
        Item::Silp(SilpLine {
            payload,
            line,
            body: SilpBody::Code(parse),
            ..
        }) => take(decode_parsed_code(
            payload,
            line.start,
            parse,
            req_id_length,
        )?),
        Item::Json(json) => {
            if let Some(error) = json.parse.errors.first() {
                return Err(ConvertError::new(error.span.clone(), error.message.clone()));
            }
            if json.parse.value.is_none() {
                return Err(ConvertError::new(
                    json.span.clone(),
                    "expected a JSON payload object",
                ));
            }
            // An MCP wrapper's payload is what converts, not the tool arguments.
            for (value, carrier) in json.values() {
                match carrier {
                    Some(carrier) => decode_carrier(text, carrier, req_id_length, take)?,
                    None => take(decode_json(text, value, req_id_length)?),
                }
            }
        }
        Item::Carrier(carriers) => {
            for carrier in &carriers.carriers {
                decode_carrier(text, carrier, req_id_length, take)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Decodes the SILP payload an MCP wrapper carries (in `code` or `json`).
fn decode_carrier(
    text: &str,
    carrier: &Carrier,
    req_id_length: usize,
    take: &mut dyn FnMut(Ir),
) -> Result<(), ConvertError> {
    let Carrier::Mcp(wrapper) = carrier else {
        return Ok(());
    };
    match &wrapper.carried {
        Some(Carried::InPlace { block, .. }) => decode_block(text, block, req_id_length, take),
        Some(Carried::Escaped(escaped)) => {
            let document = escaped.parse();
            for block in &document.blocks {
                decode_block(document.text, block, req_id_length, take)
                    .map_err(|error| ConvertError::new(wrapper.object.clone(), error.message))?;
            }
            Ok(())
        }
        Some(Carried::Object(node)) => {
            take(decode_json(text, node, req_id_length)?);
            Ok(())
        }
        None => Err(ConvertError::new(
            wrapper.object.clone(),
            "this MCP wrapper carries no payload in a frontend convert reads (`code` or `json`)",
        )),
    }
}

/// Decodes one code-frontend payload (`payload` starts at byte `base` of its file),
/// refusing syntax errors and nonstandard forms the IR cannot hold.
pub fn decode_code(payload: &str, base: usize, req_id_length: usize) -> Result<Ir, ConvertError> {
    let parse = code::parse_payload(payload, base);
    decode_parsed_code(payload, base, &parse, req_id_length)
}

fn decode_parsed_code(
    payload: &str,
    base: usize,
    parse: &CodeParse,
    req_id_length: usize,
) -> Result<Ir, ConvertError> {
    let tree = checked_tree(payload, base, parse)?;
    let ir = from_code::decode(tree);
    Ok(with_req_id(ir, payload, tree.span.clone(), req_id_length))
}

/// The tree of a code payload that converts: refuses syntax errors and
/// nonstandard forms the IR cannot hold.
fn checked_tree<'p, 's>(
    payload: &str,
    base: usize,
    parse: &'p CodeParse<'s>,
) -> Result<&'p Payload<'s>, ConvertError> {
    if let Some(error) = parse.errors.first() {
        return Err(ConvertError::new(error.span.clone(), error.message.clone()));
    }
    let Some(tree) = &parse.payload else {
        return Err(ConvertError::new(
            base..base + payload.len(),
            "expected a code-frontend payload",
        ));
    };
    check_representable(tree)?;
    Ok(tree)
}

/// `ir` with the `req_id` regenerated from its code `payload`, spanning the tree.
fn with_req_id(mut ir: Ir, payload: &str, tree_span: Span, req_id_length: usize) -> Ir {
    ir.meta.req_id = Some(Spanned::new(
        req_id::for_code(payload, req_id_length).into(),
        tree_span,
    ));
    ir
}

/// Nonstandard code-frontend forms whose meaning the IR has no place for.
fn check_representable(tree: &Payload) -> Result<(), ConvertError> {
    if let Some((keyword, name)) = &tree.with {
        return Err(ConvertError::new(
            keyword.start..name.span.1,
            format!(
                "`with {}` has no counterpart in the IR; remove it to convert",
                name.text
            ),
        ));
    }
    for call in tree.actions.iter().skip(1) {
        if call.args.as_ref().is_none_or(Vec::is_empty) {
            return Err(ConvertError::new(
                call.span.clone(),
                format!(
                    "`{}` has no arguments: the IR keeps a secondary action only through its values",
                    call.name.text
                ),
            ));
        }
    }
    Ok(())
}

/// Decodes one JSON payload object (an IR document or a JSON-frontend payload),
/// refusing one whose structure `check` reports.
pub fn decode_json(file: &str, node: &JsonNode, req_id_length: usize) -> Result<Ir, ConvertError> {
    if !node.is_object() {
        return Err(ConvertError::new(
            node.span.clone(),
            format!("expected a payload object, found {}", node.type_name()),
        ));
    }
    check_fields(node)?;
    let mut ir = from_json::decode(node);
    if ir.meta.req_id.is_none() {
        let source = file.get(node.span.clone()).unwrap_or("");
        ir.meta.req_id = Some(Spanned::new(
            req_id::for_json(source, req_id_length).into(),
            node.span.clone(),
        ));
    }
    Ok(ir)
}

/// Refuses what `check` reports as the payload's structure (SL401, SL410, SL411),
/// with the same message: an object that is not a SILP payload, or a violation of
/// the schema its kind follows.
fn check_fields(object: &JsonNode) -> Result<(), ConvertError> {
    if let Some(foreign) = from_json::ForeignPayload::of(object) {
        return Err(ConvertError::new(object.span.clone(), foreign.message()));
    }
    let schema = if from_json::is_ir_document(object) {
        PayloadSchema::IrDocument
    } else {
        PayloadSchema::JsonFrontend
    };
    let has_duplicate_keys = !object.duplicate_keys().is_empty();
    match schema::validate(schema, object, has_duplicate_keys, Messages::Worded)
        .into_iter()
        .next()
    {
        Some(violation) => Err(ConvertError::new(violation.span, violation.message)),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(text: &str, kind: FileKind, to: Target) -> Result<String, ConvertError> {
        convert(text, kind, to, 4)
    }

    #[test]
    fn converts_code_lines_one_per_line() {
        let text = "# travel\nif !rain(t+1): start(hike) else: start(cards@indoor)\n\ntranslate(src=fr, tgt=en) # trailing\n//ping code,json\n";
        let out = run(text, FileKind::Silp, Target::Json).unwrap();
        assert_eq!(
            out,
            "{\"intent\":\"!START\",\"act\":\"hike\",\"constraints\":[{\"type\":\"!rain\",\"value\":\"true\",\"time\":\"t+1\"}],\"alternatives\":[{\"action\":\"!START\",\"target\":\"cards\",\"location\":\"indoor\"}]}\n{\"intent\":\"!TRANSLATE\",\"src\":\"fr\",\"tgt\":\"en\"}\n"
        );
        let out = run(text, FileKind::Silp, Target::Code).unwrap();
        assert_eq!(
            out,
            "if !rain(t+1): start(hike) else: start(cards@indoor)\ntranslate(src=fr,tgt=en)\n"
        );
    }

    #[test]
    fn ir_output_fills_defaults_and_regenerates_ids() {
        let out = run("if !rain(t+1): start(hike)", FileKind::Silp, Target::Ir).unwrap();
        assert_eq!(
            out,
            "{\"silp\":\"v1\",\"version\":\"ir-v0.1\",\"intent\":\"!START\",\"entities\":[{\"id\":\"act\",\"value\":\"hike\",\"action\":\"!START\"}],\"constraints\":[{\"type\":\"!rain\",\"value\":\"true\",\"time\":\"t+1\"}],\"alternatives\":[],\"meta\":{\"priority\":0,\"confidence\":1.0,\"seq\":[],\"out\":\"natural\",\"req_id\":\"e008\"}}\n"
        );
        let eight = convert("if !rain(t+1): start(hike)", FileKind::Silp, Target::Ir, 8).unwrap();
        assert!(eight.contains("\"req_id\":\"e008"), "{eight}");
    }

    #[test]
    fn errors_name_the_span() {
        let text = "start(hike)\nif !rain(t+1) start(hike)\n";
        let error = run(text, FileKind::Silp, Target::Json).unwrap_err();
        assert_eq!(&text[error.span.clone()], "start");
        assert!(error.message.contains("expected `:`"), "{error:?}");
        let text = "fetch(data) -> process -> email(x)";
        let error = run(text, FileKind::Silp, Target::Json).unwrap_err();
        assert_eq!(&text[error.span.clone()], "process");
        let text = "fetch(data) with timeout";
        let error = run(text, FileKind::Silp, Target::Json).unwrap_err();
        assert_eq!(&text[error.span.clone()], "with timeout");
        let text = "start(x) else: start(to=y)";
        let error = run(text, FileKind::Silp, Target::Json).unwrap_err();
        assert_eq!(&text[error.span.clone()], "to=y");
        let text = r#"[{"intent":"!START","act":"x"},{"act":"y"}]"#;
        let error = run(text, FileKind::SilpJson, Target::Code).unwrap_err();
        assert_eq!(&text[error.span.clone()], r#"{"act":"y"}"#);
        let text = r#"{"intent":"!START","entities":[{"id":"act"}],"meta":{"req_id":"abcd"}}"#;
        let error = run(text, FileKind::SilpJson, Target::Code).unwrap_err();
        assert_eq!(&text[error.span.clone()], r#"{"id":"act"}"#);
        assert!(run("SLIP v1 a b Accept", FileKind::Slip, Target::Code).is_err());
    }

    /// Compiled as it is decoded, a file still fails on its first payload that does
    /// not decode before an earlier one that does not compile, as when every payload
    /// was decoded first; with none that does not decode, on the first that does not
    /// compile.
    #[test]
    fn a_payload_that_does_not_decode_fails_the_file_before_one_that_does_not_compile() {
        let clash = "start(action_book=1); book(x)\n";
        let text = format!("{clash}start(a\n");
        let error = run(&text, FileKind::Silp, Target::Json).unwrap_err();
        assert!(error.message.contains("expected `)`"), "{error:?}");
        let text = format!("start(y)\n{clash}{clash}start(a)\n");
        let error = run(&text, FileKind::Silp, Target::Json).unwrap_err();
        assert!(error.message.contains("slot `action_book`"), "{error:?}");
        assert_eq!(
            error.span.start,
            "start(y)\n".len() + clash.find("x").unwrap_or(0)
        );
    }

    #[test]
    fn nonstandard_forms_that_the_ir_holds_convert() {
        let out = run(
            "if weather>rain then switch(indoor_activity) else start(x)",
            FileKind::Silp,
            Target::Code,
        )
        .unwrap();
        assert_eq!(
            out,
            "if weather>rain: switch(indoor_activity) else: start(x)\n"
        );
        let out = run(
            "fetch(data) -> process(result)",
            FileKind::Silp,
            Target::Code,
        )
        .unwrap();
        assert_eq!(out, "fetch(data); process(result)\n");
    }

    #[test]
    fn extra_fields_are_printed_where_the_reference_prints_them() {
        let doc = r#"{"intent":"!BOOK","entities":[{"id":"act","value":"room","note":"quiet"}],"constraints":[{"operator":"<=","type":"budget","unit":"EUR","value":"90","extra":null}],"alternatives":[{"action":"!SEARCH","target":"hostel","rank":2}],"meta":{"req_id":"abcd1234","trace":{"hop":1}}}"#;
        let out = run(doc, FileKind::SilpJson, Target::Json).unwrap();
        assert_eq!(
            out,
            "{\"intent\":\"!BOOK\",\"act\":\"room\",\"constraints\":[{\"type\":\"budget\",\"value\":\"90\",\"operator\":\"<=\",\"unit\":\"EUR\"}],\"alternatives\":[{\"action\":\"!SEARCH\",\"target\":\"hostel\",\"rank\":2}]}\n"
        );
        let out = run(doc, FileKind::SilpJson, Target::Ir).unwrap();
        assert!(
            out.contains("{\"id\":\"act\",\"value\":\"room\",\"note\":\"quiet\"}"),
            "{out}"
        );
        assert!(
            out.contains("\"req_id\":\"abcd1234\",\"trace\":{\"hop\":1}}"),
            "{out}"
        );
    }

    #[test]
    fn json_inputs_keep_document_ids_and_hash_frontend_text() {
        let doc = r#"{"intent":"!START","entities":[],"meta":{"req_id":"abcd1234"}}"#;
        let out = run(doc, FileKind::SilpJson, Target::Ir).unwrap();
        assert!(out.contains("\"req_id\":\"abcd1234\""), "{out}");
        let frontend = "{\"intent\":\"!CANCEL\",\"act\":\"flight\",\"action_email\":[\"zhangsan\"],\"constraints\":[{\"type\":\"loc\",\"value\":\"Beijing\",\"time\":\"t+1am\",\"subject\":\"me\"}]}";
        let out = run(frontend, FileKind::SilpJsonl, Target::Ir).unwrap();
        assert!(out.contains("\"req_id\":\"449b\""), "{out}");
        let md = "# Page\n\n```silp\ncancel(flight)\n```\n\n```silp-json\n{\"intent\":\"!START\",\"act\":\"x\"}\n```\n";
        let out = run(md, FileKind::Markdown, Target::Code).unwrap();
        assert_eq!(out, "cancel(flight)\nstart(x)\n");
    }
}
