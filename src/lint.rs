//! The one entry point both front ends call: text in, diagnostics out. The CLI lints
//! files with [`lint_text`] then [`cross_file`]; the language server does the same
//! over open documents, so the two cannot disagree.

use crate::diagnostics::Diagnostic;
use crate::ir::{from_code, from_json};
use crate::rules::registry::RULES;
use crate::rules::{Context, ReqIdUse, Rule, RunContext};
use crate::settings::Settings;
use crate::source::{FileKind, Span};
use crate::syntax::json::{parse_json, JsonNode, JsonValue};
use crate::syntax::lines::lines;
use crate::syntax::{code, markdown, ping, slip, SyntaxError};

/// What linting one file found: its diagnostics, and the facts cross-file rules need.
#[derive(Debug, Default)]
pub struct FileLint {
    pub diagnostics: Vec<Diagnostic>,
    /// Every `meta.req_id` written in the file: value and span.
    pub req_ids: Vec<(String, Span)>,
}

/// Lints one file's text as `kind`.
pub fn lint_text(text: &str, kind: FileKind, settings: &Settings) -> FileLint {
    let rules: Vec<&dyn Rule> = RULES
        .iter()
        .copied()
        .filter(|rule| settings.enabled(rule.meta()))
        .collect();
    let mut linter = Linter {
        rules: &rules,
        ctx: Context::new(text, settings),
        req_ids: Vec::new(),
    };
    // A byte-order mark is not part of any payload.
    let body_start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    if kind == FileKind::Markdown {
        for fence in markdown::fences(text) {
            if !fence.closed {
                linter.syntax_errors(&[SyntaxError::new(
                    fence.opening.clone(),
                    "this fenced block is never closed; expected a closing fence before the end of the page",
                )]);
            }
            linter.region(fence.kind, fence.content);
        }
    } else {
        linter.region(kind, body_start..text.len());
    }
    let Linter { ctx, req_ids, .. } = linter;
    let mut diagnostics = ctx.into_diagnostics();
    sort_and_dedup(&mut diagnostics);
    FileLint {
        diagnostics,
        req_ids,
    }
}

/// Sorts diagnostics by position then code, dropping exact repeats.
pub fn sort_and_dedup(diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.sort_by(|a, b| {
        (a.span.start, a.span.end, a.rule.code).cmp(&(b.span.start, b.span.end, b.rule.code))
    });
    diagnostics
        .dedup_by(|a, b| a.span == b.span && a.rule.code == b.rule.code && a.message == b.message);
}

/// One linted file as cross-file rules see it.
pub struct LintedFile<'a> {
    pub path: &'a str,
    pub text: &'a str,
    pub settings: &'a Settings,
    pub req_ids: &'a [(String, Span)],
}

/// Runs the cross-file rules (SL303) over the files of one run; returns new
/// diagnostics with the index of the file each belongs to.
pub fn cross_file(files: &[LintedFile]) -> Vec<(usize, Diagnostic)> {
    let paths: Vec<String> = files.iter().map(|f| f.path.to_string()).collect();
    let texts: Vec<&str> = files.iter().map(|f| f.text).collect();
    let settings: Vec<&Settings> = files.iter().map(|f| f.settings).collect();
    let req_ids: Vec<ReqIdUse> = files
        .iter()
        .enumerate()
        .flat_map(|(file, f)| {
            f.req_ids.iter().map(move |(value, span)| ReqIdUse {
                file,
                value: value.clone(),
                span: span.clone(),
            })
        })
        .collect();
    let mut run = RunContext {
        paths: &paths,
        texts: &texts,
        req_ids: &req_ids,
        settings: &settings,
        diagnostics: Vec::new(),
    };
    for rule in RULES {
        rule.check_run(&mut run);
    }
    run.diagnostics
}

/// Lints several files together (per-file rules, then cross-file rules): what the
/// language server calls for its open documents, and tests for small runs.
pub fn lint_files(files: &[(&str, &str, FileKind, &Settings)]) -> Vec<Vec<Diagnostic>> {
    let linted: Vec<FileLint> = files
        .iter()
        .map(|(_, text, kind, settings)| lint_text(text, *kind, settings))
        .collect();
    let views: Vec<LintedFile> = files
        .iter()
        .zip(&linted)
        .map(|((path, text, _, settings), lint)| LintedFile {
            path,
            text,
            settings,
            req_ids: &lint.req_ids,
        })
        .collect();
    let extra = cross_file(&views);
    let mut out: Vec<Vec<Diagnostic>> = linted.into_iter().map(|l| l.diagnostics).collect();
    for (file, diagnostic) in extra {
        out[file].push(diagnostic);
    }
    for diagnostics in &mut out {
        sort_and_dedup(diagnostics);
    }
    out
}

/// Walks one file's payloads and feeds each rule hook.
struct Linter<'r, 'a> {
    rules: &'r [&'r dyn Rule],
    ctx: Context<'a>,
    req_ids: Vec<(String, Span)>,
}

impl<'a> Linter<'_, 'a> {
    /// Lints the bytes `span` of the file as payloads of `kind`.
    fn region(&mut self, kind: FileKind, span: Span) {
        for rule in self.rules {
            rule.check_text(&mut self.ctx, span.clone());
        }
        let text: &'a str = self.ctx.text();
        let region = &text[span.clone()];
        match kind {
            FileKind::Silp => {
                for line in lines(region, span.start) {
                    if line.is_blank_or_comment() {
                        continue;
                    }
                    let payload = strip_trailing_comment(line.text);
                    if ping::is_probe(payload) {
                        let (probe, errors) = ping::parse_probe(payload, line.start);
                        self.syntax_errors(&errors);
                        if let Some(probe) = probe {
                            for rule in self.rules {
                                rule.check_ping(&mut self.ctx, &probe);
                            }
                        }
                    } else {
                        self.code_payload(payload, line.start);
                    }
                }
            }
            FileKind::Slip => {
                for line in lines(region, span.start) {
                    if line.is_blank_or_comment() {
                        continue;
                    }
                    let parse = slip::parse_message(line.text, line.start);
                    self.syntax_errors(&parse.errors);
                    if let Some(message) = &parse.message {
                        for rule in self.rules {
                            rule.check_slip(&mut self.ctx, message);
                        }
                    }
                }
            }
            FileKind::SilpJson => self.json_document(region, span.start, true),
            FileKind::SilpJsonl => {
                for line in lines(region, span.start) {
                    if !line.text.trim().is_empty() {
                        self.json_document(line.text, line.start, false);
                    }
                }
            }
            FileKind::Nlip => {
                let parse = parse_json(region, span.start);
                self.syntax_errors(&parse.errors);
            }
            FileKind::Markdown => {}
        }
    }

    fn syntax_errors(&mut self, errors: &[SyntaxError]) {
        if errors.is_empty() {
            return;
        }
        for rule in self.rules {
            rule.check_syntax_errors(&mut self.ctx, errors);
        }
    }

    fn code_payload(&mut self, payload: &'a str, base: usize) {
        let parse = code::parse_payload(payload, base);
        self.syntax_errors(&parse.errors);
        if let Some(tree) = &parse.payload {
            for rule in self.rules {
                rule.check_code(&mut self.ctx, tree);
            }
            let ir = from_code::decode(tree);
            for rule in self.rules {
                rule.check_ir(&mut self.ctx, &ir);
            }
        }
    }

    /// A JSON text holding one payload object, or (when `allow_array`) an array of them.
    fn json_document(&mut self, text: &str, base: usize, allow_array: bool) {
        let parse = parse_json(text, base);
        self.syntax_errors(&parse.errors);
        let Some(root) = parse.value else {
            return;
        };
        match &root.value {
            JsonValue::Object(_) => self.json_payload(&root),
            JsonValue::Array(items) if allow_array => {
                for item in items {
                    if matches!(item.value, JsonValue::Object(_)) {
                        self.json_payload(item);
                    } else {
                        self.syntax_errors(&[not_an_object(item, "an array element")]);
                    }
                }
            }
            _ => {
                let place = if allow_array {
                    "the document"
                } else {
                    "the line"
                };
                self.syntax_errors(&[not_an_object(&root, place)]);
            }
        }
    }

    fn json_payload(&mut self, object: &JsonNode) {
        let is_ir_document = from_json::is_ir_document(object);
        for rule in self.rules {
            rule.check_json(&mut self.ctx, object, is_ir_document);
        }
        let ir = from_json::decode(object);
        if let Some(req_id) = &ir.meta.req_id {
            self.req_ids
                .push((req_id.node.clone(), req_id.span.clone()));
        }
        for rule in self.rules {
            rule.check_ir(&mut self.ctx, &ir);
        }
    }
}

fn not_an_object(node: &JsonNode, place: &str) -> SyntaxError {
    let found = match node.value {
        JsonValue::Null => "null",
        JsonValue::Bool(_) => "a boolean",
        JsonValue::Number(_) => "a number",
        JsonValue::String(_) => "a string",
        JsonValue::Array(_) => "an array",
        JsonValue::Object(_) => "an object",
    };
    SyntaxError::new(
        node.span.clone(),
        format!("expected {place} to be a payload object, found {found}"),
    )
}

/// The payload part of a `.silp` line: a ` #` (white space, then `#`) starts a
/// trailing comment.
pub fn strip_trailing_comment(line: &str) -> &str {
    let bytes = line.as_bytes();
    for i in memchr::memchr_iter(b'#', bytes) {
        if i > 0 && (bytes[i - 1] == b' ' || bytes[i - 1] == b'\t') {
            return line[..i].trim_end();
        }
    }
    line.trim_end()
}
