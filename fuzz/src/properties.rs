//! What the fuzz targets check, one function per target. `tests/fuzz_corpus.rs`
//! includes this file to replay the committed corpora in `cargo test`, so a
//! regression found by fuzzing stays fixed without nightly or libFuzzer.
//!
//! Each function takes the fuzzer's bytes: the first picks what to read (a file
//! kind), the rest is the text (invalid UTF-8 replaced, as the CLI refuses it
//! before any parser runs).

use silp_lint::diagnostics::Diagnostic;
use silp_lint::fix::fix_text;
use silp_lint::format::format_text;
use silp_lint::lint::{
    lint_document, lint_text, lint_text_diagnostics, req_id_hash, req_id_hashes, req_ids_of,
};
use silp_lint::lsp::document::{Encoding, Snapshot};
use silp_lint::meaning::payload_meanings;
use silp_lint::settings::Settings;
use silp_lint::source::{FileKind, LineIndex, Span};
use silp_lint::syntax::document::{Block, Carried, Item, SilpBody};
use silp_lint::syntax::json::{parse_json, JsonParse};
use silp_lint::syntax::parse;
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};

/// Appended to, never reordered: a corpus input's first byte keeps its kind.
const KINDS: [FileKind; 8] = [
    FileKind::Silp,
    FileKind::Slip,
    FileKind::SilpJson,
    FileKind::SilpJsonl,
    FileKind::Nlip,
    FileKind::Markdown,
    FileKind::McpCall,
    FileKind::A2a,
];

/// The file kind and text the bytes stand for.
fn input(data: &[u8]) -> Option<(FileKind, String)> {
    let (&first, rest) = data.split_first()?;
    let kind = KINDS[usize::from(first) % KINDS.len()];
    Some((kind, String::from_utf8_lossy(rest).into_owned()))
}

fn assert_span(text: &str, span: &Span, what: &str) {
    assert!(
        span.start <= span.end && span.end <= text.len(),
        "{what} {span:?} outside a text of {} bytes",
        text.len()
    );
    assert!(
        text.is_char_boundary(span.start) && text.is_char_boundary(span.end),
        "{what} {span:?} not on char boundaries"
    );
}

fn assert_block(text: &str, block: &Block) {
    assert_span(text, &block.region.span, "region");
    for item in &block.items {
        match item {
            Item::Blank(line) | Item::Comment { line, .. } => {
                assert_span(text, &line.span(), "line");
            }
            Item::Silp(silp) => {
                assert_span(text, &silp.line.span(), "line");
                let errors = match &silp.body {
                    SilpBody::Code(parse) => {
                        if let Some(tree) = &parse.payload {
                            assert_span(text, &tree.span, "payload");
                        }
                        &parse.errors
                    }
                    SilpBody::Probe { errors, .. } => errors,
                };
                for error in errors {
                    assert_span(text, &error.span, "syntax error");
                }
            }
            Item::Slip { line, parse } => {
                assert_span(text, &line.span(), "line");
                if let Some(message) = &parse.message {
                    assert_span(text, &message.span, "message");
                }
                for error in &parse.errors {
                    assert_span(text, &error.span, "syntax error");
                }
            }
            Item::Json(json) => assert_json(text, &json.span, &json.parse),
            Item::Nlip(message) => assert_json(text, &message.span, &message.parse),
            Item::Carrier(carrier) => assert_json(text, &carrier.span, &carrier.parse),
        }
        for carried in item.carried() {
            match carried {
                Carried::InPlace { string, block } => {
                    assert_span(text, string, "carried string");
                    assert_block(text, block);
                }
                Carried::Escaped(escaped) => {
                    assert_span(text, &escaped.string, "carried string");
                    let inner = escaped.parse();
                    for block in &inner.blocks {
                        assert_block(inner.text, block);
                    }
                }
                Carried::Object(node) => assert_span(text, &node.span, "carried object"),
            }
        }
    }
}

fn assert_json(text: &str, span: &Span, parse: &JsonParse) {
    assert_span(text, span, "JSON text");
    for error in &parse.errors {
        assert_span(text, &error.span, "syntax error");
    }
    if let Some(root) = &parse.value {
        assert_span(text, &root.span, "JSON value");
    }
}

/// The one parse of every file kind: no panic, every span inside the text on char
/// boundaries.
pub fn parse_target(data: &[u8]) {
    let Some((kind, text)) = input(data) else {
        return;
    };
    let document = parse(&text, kind);
    for block in &document.blocks {
        assert_block(&text, block);
    }
}

fn assert_diagnostic(text: &str, diagnostic: &Diagnostic) {
    let code = diagnostic.code();
    assert_span(text, &diagnostic.span, code);
    for related in diagnostic.related.iter().filter(|r| r.path.is_none()) {
        assert_span(text, &related.span, "related place");
    }
    if let Some(fix) = &diagnostic.fix {
        for edit in &fix.edits {
            assert_span(text, &edit.span, "fix edit");
        }
    }
    assert!(!diagnostic.message.is_empty(), "{code}: an empty message");
}

/// Linting every file kind: no panic; spans, related places and edits inside the
/// text on char boundaries; diagnostics in position order.
pub fn lint_target(data: &[u8]) {
    let Some((kind, text)) = input(data) else {
        return;
    };
    let lint = lint_text(&text, kind, &Settings::default());
    for diagnostic in &lint.diagnostics {
        assert_diagnostic(&text, diagnostic);
    }
    assert!(lint
        .diagnostics
        .windows(2)
        .all(|pair| pair[0].span.start <= pair[1].span.start));
    // A line-oriented file is linted a line at a time; the server lints the parsed
    // document it caches. The two agree.
    let document = parse(&text, kind);
    let server = lint_document(&document, &Settings::default());
    assert_eq!(
        format!("{:?}", server.diagnostics),
        format!("{:?}", lint.diagnostics),
        "lint_document finds what lint_text finds"
    );
    assert_eq!(
        server.req_ids, lint.req_ids,
        "lint_document finds lint_text's req_ids"
    );
    // The cross-file pass of a run finds the `req_id`s as linting does, and its scan
    // without parsing misses none of them.
    assert_eq!(
        req_ids_of(&text, kind, &Settings::default()),
        lint.req_ids,
        "req_ids_of finds what lint finds"
    );
    if let Some(mut scanned) = req_id_hashes(text.as_bytes()) {
        for fact in &lint.req_ids {
            let hash = req_id_hash(fact.value.as_bytes());
            let found = scanned.iter().position(|&h| h == hash);
            assert!(found.is_some(), "the scan misses `req_id` {:?}", fact.value);
            scanned.swap_remove(found.unwrap_or_default());
        }
    }
}

/// `fmt` is idempotent and never changes what a payload means; `--fix` keeps every
/// payload that parsed parsing, and a second run has nothing left that the first
/// could have done.
pub fn fix_fmt_target(data: &[u8]) {
    let Some((kind, text)) = input(data) else {
        return;
    };
    let formatted = format_text(&text, kind);
    assert_eq!(
        format_text(&formatted, kind),
        formatted,
        "fmt is idempotent"
    );
    assert_eq!(
        silp_lint::fix::verify_same_meaning(&text, &formatted, kind),
        Ok(()),
        "fmt keeps every payload's meaning"
    );
    let Ok(fixed) = fix_text(&text, kind, &Settings::default(), false) else {
        return;
    };
    if let Some(report) = &fixed.report {
        assert_eq!(
            format!("{report:?}"),
            format!(
                "{:?}",
                lint_text_diagnostics(&fixed.text, kind, &Settings::default())
            ),
            "--fix reports what a lint of the fixed text finds"
        );
    }
    let before = payload_meanings(&text, kind);
    let after = payload_meanings(&fixed.text, kind);
    assert_eq!(before.len(), after.len(), "--fix keeps the payloads");
    for (b, a) in before.iter().zip(&after) {
        assert!(
            b.meaning.is_none() || a.meaning.is_some(),
            "--fix broke the payload at {:?}",
            b.span
        );
    }
    if fixed.applied < silp_lint::fix::MAX_ROUNDS {
        let again = fix_text(&fixed.text, kind, &Settings::default(), false)
            .map_or(0, |again| again.applied);
        assert_eq!(again, 0, "--fix reached a fixed point");
    }
}

/// The JSON parser accepts exactly what serde_json accepts (but for numbers that
/// overflow a double, which RFC 8259 allows) and reads the same values.
pub fn json_target(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let parse = parse_json(&text, 0);
    let serde = serde_json::from_str::<serde_json::Value>(&text);
    if serde
        .as_ref()
        .is_err_and(|e| e.to_string().contains("out of range"))
    {
        return;
    }
    assert_eq!(
        parse.value.is_some(),
        serde.is_ok(),
        "{text:?}: {:?} / {serde:?}",
        parse.errors
    );
    for error in &parse.errors {
        assert_span(&text, &error.span, "syntax error");
    }
    if let (Some(value), Ok(serde)) = (parse.value, serde) {
        assert_eq!(value.to_serde(), serde);
    }
}

/// Incremental edits applied by the server equal the same edits applied one by one
/// to the whole text. Bytes: an initial text, then edits of three bytes each
/// (start, end, inserted character), applied in batches.
pub fn lsp_edits_target(data: &[u8]) {
    let Some((&split, rest)) = data.split_first() else {
        return;
    };
    let split = usize::from(split).min(rest.len());
    let (initial, edits) = rest.split_at(split);
    let initial = String::from_utf8_lossy(initial).into_owned();
    let mut model = initial.clone();
    let mut incremental = Snapshot::new(initial, FileKind::Silp);
    let mut batch = Vec::new();
    let inserts = ["", "a", "\n", "\r\n", "é", "😀", "北京", "\r"];
    for edit in edits.chunks_exact(3) {
        // Every offset LSP can address: not between the `\r` and `\n` of a CRLF.
        let bytes = model.as_bytes();
        let offsets: Vec<usize> = model
            .char_indices()
            .map(|(i, _)| i)
            .chain([model.len()])
            .filter(|&i| !(i > 0 && bytes[i - 1] == b'\r' && bytes.get(i) == Some(&b'\n')))
            .collect();
        let a = offsets[usize::from(edit[0]) % offsets.len()];
        let b = offsets[usize::from(edit[1]) % offsets.len()];
        let (start, end) = (a.min(b), a.max(b));
        let insert = inserts[usize::from(edit[2]) % inserts.len()];
        batch.push(TextDocumentContentChangeEvent {
            range: Some(Range {
                start: utf16_position(&model, start),
                end: utf16_position(&model, end),
            }),
            range_length: None,
            text: insert.to_string(),
        });
        model.replace_range(start..end, insert);
        if edit[2] % 3 == 0 {
            incremental = incremental.changed(&batch, Encoding::Utf16);
            batch.clear();
        }
    }
    incremental = incremental.changed(&batch, Encoding::Utf16);
    assert_eq!(&*incremental.text, model.as_str());
    assert_eq!(*incremental.index, LineIndex::new(&model));
}

/// The LSP position of byte `offset` in UTF-16 units (lines end at `\n`, `\r\n`
/// or a lone `\r`), computed independently of the server.
fn utf16_position(text: &str, offset: usize) -> Position {
    let head = &text[..offset];
    let mut line = 0;
    let mut line_start = 0;
    let bytes = head.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                line += 1;
                i += 1;
                line_start = i + 1;
            }
            b'\r' | b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    Position::new(line, head[line_start..].encode_utf16().count() as u32)
}
