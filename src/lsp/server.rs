//! The language server: document state, lint scheduling and the protocol handlers.
//!
//! Concurrency rules: tower-lsp-server runs up to four handlers at once, so every
//! handler mutates document state synchronously (under a `std` mutex, never held
//! across an `.await`) before its first `.await`. Linting runs on the blocking pool,
//! one job per document at a time (a change during a lint marks the document dirty
//! and the job runs again on the newest text), and results for a version that is no
//! longer current are dropped, both when the lint ends and just before publishing.

use super::completion::{self, ItemKind};
use super::document::{apply_changes, document_kind, Encoding, Snapshot};
use super::hover;
use super::semantic::{self, Meaning, SymbolKind as PayloadKind, TOKEN_MODIFIERS, TOKEN_TYPES};
use crate::config::{Overrides, Resolver};
use crate::diagnostics::RuleMeta;
use crate::diagnostics::{Applicability, Diagnostic, Fix, Severity};
use crate::format;
use crate::lint::{cross_file, lint_text, sort_and_dedup, FileLint, LintedFile};
use crate::relint::relint;
use crate::settings::Settings;
use crate::source::{FileKind, Span};
use std::collections::{HashMap, HashSet};
use std::str::FromStr;
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::mpsc;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types::{self as lsp, Uri};
use tower_lsp_server::{Client, LanguageServer};

/// Documents at least this large are announced in the log (they lint in the background).
pub const LARGE_DOCUMENT: usize = 1 << 20;

/// The code action kind of "fix all safe problems".
pub const FIX_ALL_KIND: &str = "source.fixAll.silp-lint";

/// The `source` field of every diagnostic.
pub const SOURCE: &str = "silp-lint";

struct Document {
    uri: Uri,
    kind: FileKind,
    version: i32,
    snapshot: Snapshot,
    /// The last lint.
    lint: Option<LintState>,
    /// Cross-file diagnostics last published for this document.
    cross: Vec<Diagnostic>,
    /// A lint job is running for this document.
    linting: bool,
    /// The text changed since the running lint job took its snapshot.
    dirty: bool,
    /// The settings of the configuration governing the document's file.
    settings: Arc<Settings>,
}

/// A lint result, the version and text it was computed for.
struct LintState {
    version: i32,
    text: Arc<String>,
    lint: Arc<FileLint>,
}

impl Document {
    /// The lint result when it was computed for the current text.
    fn current_lint(&self) -> Option<&FileLint> {
        match &self.lint {
            Some(state) if state.version == self.version && !self.dirty => Some(&state.lint),
            _ => None,
        }
    }
}

struct State {
    encoding: Encoding,
    /// Finds each document's `silp-lint.toml` / `pyproject.toml`, as the CLI does.
    resolver: Arc<Resolver>,
    /// The client's rule selection, applied over every configuration.
    overrides: Overrides,
    /// A URL template with `{code}` for `codeDescription`, from the client's
    /// `initializationOptions.ruleDocsUrl`.
    rule_docs_url: Option<String>,
    docs: HashMap<String, Document>,
    /// Open documents the server does not lint (logged once, on open).
    ignored: HashSet<String>,
}

/// Diagnostics ready to send; `version: None` clears a closed document.
struct Publish {
    key: String,
    uri: Uri,
    version: Option<i32>,
    diagnostics: Vec<lsp::Diagnostic>,
}

struct Shared {
    state: Mutex<State>,
    publish: mpsc::UnboundedSender<Publish>,
    publish_rx: Mutex<Option<mpsc::UnboundedReceiver<Publish>>>,
}

/// The silp-lint language server.
pub struct Backend {
    client: Client,
    shared: Arc<Shared>,
}

fn lock(shared: &Shared) -> MutexGuard<'_, State> {
    shared
        .state
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Backend {
    pub fn new(client: Client) -> Backend {
        let (publish, publish_rx) = mpsc::unbounded_channel();
        Backend {
            client,
            shared: Arc::new(Shared {
                state: Mutex::new(State {
                    encoding: Encoding::Utf16,
                    resolver: Arc::new(Resolver::discover(Overrides::default())),
                    overrides: Overrides::default(),
                    rule_docs_url: None,
                    docs: HashMap::new(),
                    ignored: HashSet::new(),
                }),
                publish,
                publish_rx: Mutex::new(Some(publish_rx)),
            }),
        }
    }

    /// The client handle, for the transport's log messages.
    pub fn client(&self) -> &Client {
        &self.client
    }

    async fn log(&self, typ: lsp::MessageType, message: String) {
        self.client.log_message(typ, message).await;
    }

    /// Runs `work` on the blocking pool; a panic is logged and yields `None`.
    async fn blocking<T: Send + 'static>(
        &self,
        what: &str,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        match tokio::task::spawn_blocking(work).await {
            Ok(value) => Some(value),
            Err(error) => {
                self.log(
                    lsp::MessageType::ERROR,
                    format!("silp-lint: {what} failed: {error}"),
                )
                .await;
                None
            }
        }
    }

    /// Reads the configuration files again and re-lints every open document with
    /// its new settings.
    async fn reload_configuration(&self) {
        let mut errors = Vec::new();
        {
            let mut state = lock(&self.shared);
            state.resolver = Arc::new(Resolver::discover(state.overrides.clone()));
            let resolver = state.resolver.clone();
            let keys: Vec<String> = state.docs.keys().cloned().collect();
            for key in keys {
                if let Some(doc) = state.docs.get_mut(&key) {
                    let (settings, error) = settings_for(&resolver, &doc.uri);
                    errors.extend(error);
                    doc.settings = settings;
                    // The earlier result was computed with other settings.
                    doc.lint = None;
                }
                request_lint(&self.shared, &self.client, &mut state, &key);
            }
        }
        errors.sort();
        errors.dedup();
        for error in errors {
            self.log(lsp::MessageType::ERROR, format!("silp-lint: {error}"))
                .await;
        }
    }

    /// The document's snapshot, kind and the encoding, if it is open.
    fn snapshot(&self, uri: &Uri) -> Option<(Snapshot, FileKind, Encoding, Arc<Settings>)> {
        let state = lock(&self.shared);
        let doc = state.docs.get(uri.as_str())?;
        Some((
            doc.snapshot.clone(),
            doc.kind,
            state.encoding,
            doc.settings.clone(),
        ))
    }
}

/// The settings for a document: its file's configuration, as the CLI finds it;
/// the defaults (and the error) when the configuration is broken; the defaults for
/// documents that are not files.
fn settings_for(resolver: &Resolver, uri: &Uri) -> (Arc<Settings>, Option<String>) {
    let Some(path) = uri.to_file_path() else {
        return (Arc::new(Settings::default()), None);
    };
    match resolver.settings_for(&path) {
        Ok(settings) => (settings, None),
        Err(error) => (Arc::new(Settings::default()), Some(error.to_string())),
    }
}

/// The rule selection of a client's `lint` settings: `{"select": [...], "ignore": [...]}`.
fn overrides_from(lint: &serde_json::Value) -> Overrides {
    let codes = |key: &str| -> Vec<String> {
        lint.get(key)
            .and_then(|codes| codes.as_array())
            .map(|codes| {
                codes
                    .iter()
                    .filter_map(|c| c.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    Overrides {
        select: codes("select"),
        ignore: codes("ignore"),
    }
}

/// Whether a changed file is a configuration file the server reads.
fn is_config_file(uri: &Uri) -> bool {
    let path = uri.as_str();
    path.ends_with("/silp-lint.toml") || path.ends_with("/pyproject.toml")
}

/// Marks a document dirty and makes sure a lint job will pick up its newest text.
fn request_lint(shared: &Arc<Shared>, client: &Client, state: &mut State, key: &str) {
    let Some(doc) = state.docs.get_mut(key) else {
        return;
    };
    doc.dirty = true;
    if !doc.linting {
        doc.linting = true;
        tokio::spawn(lint_job(shared.clone(), client.clone(), key.to_string()));
    }
}

/// Lints a document until its text stops changing, then publishes.
async fn lint_job(shared: Arc<Shared>, client: Client, key: String) {
    loop {
        let (snapshot, previous, kind, version, settings) = {
            let mut state = lock(&shared);
            let Some(doc) = state.docs.get_mut(&key) else {
                return;
            };
            let settings = doc.settings.clone();
            if !doc.dirty {
                doc.linting = false;
                return;
            }
            doc.dirty = false;
            let previous = doc
                .lint
                .as_ref()
                .map(|state| (state.text.clone(), state.lint.clone()));
            (
                doc.snapshot.clone(),
                previous,
                doc.kind,
                doc.version,
                settings,
            )
        };
        let text = snapshot.text.clone();
        let linted = text.clone();
        let result = tokio::task::spawn_blocking(move || match previous {
            Some((old, lint)) => relint(&old, &lint, &text, &snapshot.index, kind, &settings),
            None => lint_text(&text, kind, &settings),
        })
        .await;
        let lint = match result {
            Ok(lint) => lint,
            Err(error) => {
                client
                    .log_message(
                        lsp::MessageType::ERROR,
                        format!("silp-lint: linting {key} failed: {error}"),
                    )
                    .await;
                continue;
            }
        };
        let mut state = lock(&shared);
        let Some(doc) = state.docs.get_mut(&key) else {
            return;
        };
        // A newer text (or the same version of a document closed and opened again).
        if doc.dirty || doc.version != version || !Arc::ptr_eq(&doc.snapshot.text, &linted) {
            continue;
        }
        doc.lint = Some(LintState {
            version,
            text: doc.snapshot.text.clone(),
            lint: Arc::new(lint),
        });
        for publish in cross_and_collect(&mut state, Some(&key)) {
            // The receiver lives as long as the server; a send error means shutdown.
            if shared.publish.send(publish).is_err() {
                return;
            }
        }
    }
}

/// A comparable summary of a diagnostic, to tell whether cross-file results changed.
type DiagnosticKey<'d> = (&'static str, Span, &'d str, Vec<(Option<&'d str>, Span)>);

fn diagnostic_key(d: &Diagnostic) -> DiagnosticKey<'_> {
    (
        d.rule.code,
        d.span.clone(),
        d.message.as_str(),
        d.related
            .iter()
            .map(|r| (r.path.as_deref(), r.span.clone()))
            .collect(),
    )
}

/// Runs the cross-file rules over every document whose lint is current, and returns
/// what to publish: `changed` (when given) and each document whose cross-file
/// diagnostics differ from those last published.
fn cross_and_collect(state: &mut State, changed: Option<&str>) -> Vec<Publish> {
    let mut keys: Vec<&String> = state
        .docs
        .iter()
        .filter(|(_, doc)| doc.current_lint().is_some())
        .map(|(key, _)| key)
        .collect();
    keys.sort();
    let views: Vec<LintedFile> = keys
        .iter()
        .filter_map(|key| {
            let doc = &state.docs[*key];
            Some(LintedFile {
                path: key.as_str(),
                settings: &doc.settings,
                req_ids: &doc.current_lint()?.req_ids,
            })
        })
        .collect();
    let mut extra: Vec<Vec<Diagnostic>> = vec![Vec::new(); views.len()];
    for (file, diagnostic) in cross_file(&views) {
        if let Some(list) = extra.get_mut(file) {
            list.push(diagnostic);
        }
    }
    drop(views);
    let keys: Vec<String> = keys.into_iter().cloned().collect();
    let mut publishes = Vec::new();
    let mut updates = Vec::new();
    for (key, cross) in keys.iter().zip(extra) {
        let doc = &state.docs[key];
        let same = doc.cross.len() == cross.len()
            && doc
                .cross
                .iter()
                .zip(&cross)
                .all(|(a, b)| diagnostic_key(a) == diagnostic_key(b));
        if same && changed != Some(key.as_str()) {
            continue;
        }
        let Some(lint) = doc.current_lint() else {
            continue;
        };
        // A lint's own diagnostics come sorted; only cross-file ones need merging in.
        let diagnostics = if cross.is_empty() {
            lint.diagnostics
                .iter()
                .map(|d| to_lsp(d, doc, state))
                .collect()
        } else {
            let mut all: Vec<Diagnostic> = lint.diagnostics.iter().chain(&cross).cloned().collect();
            sort_and_dedup(&mut all);
            all.iter().map(|d| to_lsp(d, doc, state)).collect()
        };
        publishes.push(Publish {
            key: key.clone(),
            uri: doc.uri.clone(),
            version: Some(doc.version),
            diagnostics,
        });
        updates.push((key.clone(), cross));
    }
    for (key, cross) in updates {
        if let Some(doc) = state.docs.get_mut(&key) {
            doc.cross = cross;
        }
    }
    publishes
}

fn severity(severity: Severity) -> lsp::DiagnosticSeverity {
    match severity {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
        Severity::Hint => lsp::DiagnosticSeverity::HINT,
    }
}

/// Converts a library diagnostic into the protocol's, with positions in the
/// negotiated encoding and related places in other open documents.
fn to_lsp(d: &Diagnostic, doc: &Document, state: &State) -> lsp::Diagnostic {
    let encoding = state.encoding;
    let message = match &d.help {
        Some(help) => format!("{}\nhelp: {help}", d.message),
        None => d.message.clone(),
    };
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|r| {
            let other = match &r.path {
                Some(path) => state.docs.get(path)?,
                None => doc,
            };
            Some(lsp::DiagnosticRelatedInformation {
                location: lsp::Location {
                    uri: other.uri.clone(),
                    range: other.snapshot.range(&r.span, encoding),
                },
                message: r.message.clone(),
            })
        })
        .collect();
    let code_description = state.rule_docs_url.as_ref().and_then(|template| {
        let href = template
            .replace("{code}", d.rule.code)
            .replace("{code_lower}", &d.rule.code.to_lowercase())
            .replace("{name}", d.rule.name);
        Uri::from_str(&href)
            .ok()
            .map(|href| lsp::CodeDescription { href })
    });
    lsp::Diagnostic {
        range: doc.snapshot.range(&d.span, encoding),
        severity: Some(severity(d.severity)),
        code: Some(lsp::NumberOrString::String(d.rule.code.to_string())),
        code_description,
        source: Some(SOURCE.to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// The text edits of a fix in the protocol's terms.
fn fix_edits(fix: &Fix, snapshot: &Snapshot, encoding: Encoding) -> Vec<lsp::TextEdit> {
    fix.edits
        .iter()
        .map(|edit| lsp::TextEdit {
            range: snapshot.range(&edit.span, encoding),
            new_text: edit.content.clone(),
        })
        .collect()
}

/// Picks safe fixes whose edits overlap neither each other nor earlier picks.
fn non_overlapping_safe_fixes(fixes: &[Fix]) -> Vec<&Fix> {
    let mut sorted: Vec<&Fix> = fixes
        .iter()
        .filter(|f| f.applicability == Applicability::Safe && !f.edits.is_empty())
        .collect();
    sorted.sort_by_key(|f| f.edits.iter().map(|e| e.span.start).min().unwrap_or(0));
    let mut taken: Vec<Span> = Vec::new();
    let mut out = Vec::new();
    for fix in sorted {
        let clashes = fix.edits.iter().any(|e| {
            taken.iter().any(|t| {
                e.span.start < t.end && t.start < e.span.end
                    || (e.span.start == e.span.end && e.span.start == t.start)
            })
        });
        if !clashes {
            taken.extend(fix.edits.iter().map(|e| e.span.clone()));
            out.push(fix);
        }
    }
    out
}

fn semantic_legend() -> lsp::SemanticTokensLegend {
    lsp::SemanticTokensLegend {
        token_types: TOKEN_TYPES
            .iter()
            .map(|t| lsp::SemanticTokenType::new(t))
            .collect(),
        token_modifiers: TOKEN_MODIFIERS
            .iter()
            .map(|m| lsp::SemanticTokenModifier::new(m))
            .collect(),
    }
}

/// Encodes tokens as the protocol's relative five-tuples, one line per token.
fn encode_tokens(
    tokens: &[semantic::Token],
    snapshot: &Snapshot,
    encoding: Encoding,
) -> Vec<lsp::SemanticToken> {
    let mut out = Vec::with_capacity(tokens.len());
    let (mut line, mut column) = (0u32, 0u32);
    for token in tokens {
        let start = snapshot.position(token.span.start, encoding);
        let line_end = snapshot
            .index
            .line_range(start.line as usize, &snapshot.text)
            .end;
        let end = snapshot.position(token.span.end.min(line_end), encoding);
        if end.line != start.line || end.character <= start.character {
            continue;
        }
        let delta_line = start.line - line;
        let delta_start = if delta_line == 0 {
            start.character - column
        } else {
            start.character
        };
        out.push(lsp::SemanticToken {
            delta_line,
            delta_start,
            length: end.character - start.character,
            token_type: token.kind as u32,
            token_modifiers_bitset: token.modifiers,
        });
        line = start.line;
        column = start.character;
    }
    out
}

fn symbol_kind(kind: PayloadKind) -> lsp::SymbolKind {
    match kind {
        PayloadKind::Payload => lsp::SymbolKind::FUNCTION,
        PayloadKind::Probe => lsp::SymbolKind::INTERFACE,
        PayloadKind::Message => lsp::SymbolKind::EVENT,
        PayloadKind::Object => lsp::SymbolKind::OBJECT,
    }
}

fn completion_kind(kind: ItemKind) -> lsp::CompletionItemKind {
    match kind {
        ItemKind::Verb => lsp::CompletionItemKind::FUNCTION,
        ItemKind::Anchor => lsp::CompletionItemKind::ENUM_MEMBER,
        ItemKind::Frontend => lsp::CompletionItemKind::VALUE,
        ItemKind::Key => lsp::CompletionItemKind::PROPERTY,
        ItemKind::Keyword => lsp::CompletionItemKind::KEYWORD,
    }
}

fn hover_for(meaning: &Meaning, settings: &Settings) -> Option<String> {
    match meaning {
        Meaning::None => None,
        Meaning::Verb(verb) => Some(hover::verb(verb, settings)),
        Meaning::Anchor(anchor) => Some(hover::anchor(anchor, settings)),
        Meaning::Frontend(name) => Some(hover::frontend(name, settings)),
        Meaning::Key(path) => Some(hover::key(path)),
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: lsp::InitializeParams) -> Result<lsp::InitializeResult> {
        let offers_utf8 = params
            .capabilities
            .general
            .as_ref()
            .and_then(|g| g.position_encodings.as_ref())
            .is_some_and(|encodings| encodings.contains(&lsp::PositionEncodingKind::UTF8));
        let encoding = if offers_utf8 {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        };
        let rule_docs_url = params
            .initialization_options
            .as_ref()
            .and_then(|o| o.get("ruleDocsUrl"))
            .and_then(|u| u.as_str())
            .map(str::to_string);
        // The editor's rule selection (`silp.lint.select` / `.ignore` in VS Code)
        // applies over every configuration file, as `--select`/`--ignore` do.
        let overrides = params
            .initialization_options
            .as_ref()
            .and_then(|o| o.get("lint"))
            .map(overrides_from)
            .unwrap_or_default();
        {
            let mut state = lock(&self.shared);
            state.encoding = encoding;
            state.rule_docs_url = rule_docs_url;
            state.resolver = Arc::new(Resolver::discover(overrides.clone()));
            state.overrides = overrides;
        }
        let receiver = self
            .shared
            .publish_rx
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        if let Some(receiver) = receiver {
            tokio::spawn(publisher(
                self.shared.clone(),
                self.client.clone(),
                receiver,
            ));
        }
        let capabilities = lsp::ServerCapabilities {
            position_encoding: Some(if offers_utf8 {
                lsp::PositionEncodingKind::UTF8
            } else {
                lsp::PositionEncodingKind::UTF16
            }),
            text_document_sync: Some(lsp::TextDocumentSyncCapability::Options(
                lsp::TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(lsp::TextDocumentSyncKind::INCREMENTAL),
                    will_save: None,
                    will_save_wait_until: None,
                    save: Some(lsp::TextDocumentSyncSaveOptions::SaveOptions(
                        lsp::SaveOptions {
                            include_text: Some(false),
                        },
                    )),
                },
            )),
            hover_provider: Some(lsp::HoverProviderCapability::Simple(true)),
            completion_provider: Some(lsp::CompletionOptions {
                trigger_characters: Some(vec!["!".into(), "\"".into(), " ".into()]),
                ..Default::default()
            }),
            code_action_provider: Some(lsp::CodeActionProviderCapability::Options(
                lsp::CodeActionOptions {
                    code_action_kinds: Some(vec![
                        lsp::CodeActionKind::QUICKFIX,
                        lsp::CodeActionKind::new(FIX_ALL_KIND),
                    ]),
                    work_done_progress_options: Default::default(),
                    resolve_provider: Some(false),
                },
            )),
            semantic_tokens_provider: Some(
                lsp::SemanticTokensServerCapabilities::SemanticTokensOptions(
                    lsp::SemanticTokensOptions {
                        work_done_progress_options: Default::default(),
                        legend: semantic_legend(),
                        range: None,
                        full: Some(lsp::SemanticTokensFullOptions::Bool(true)),
                    },
                ),
            ),
            document_symbol_provider: Some(lsp::OneOf::Left(true)),
            document_formatting_provider: Some(lsp::OneOf::Left(true)),
            ..Default::default()
        };
        Ok(lsp::InitializeResult {
            capabilities,
            server_info: Some(lsp::ServerInfo {
                name: "silp-lsp".to_string(),
                version: Some(env!("CARGO_PKG_VERSION").to_string()),
            }),
            offset_encoding: None,
        })
    }

    async fn initialized(&self, _: lsp::InitializedParams) {
        let encoding = lock(&self.shared).encoding;
        self.log(
            lsp::MessageType::INFO,
            format!(
                "silp-lsp {} ready (positions in {}; configuration files are not read yet, \
                 so every rule runs with its default severity)",
                env!("CARGO_PKG_VERSION"),
                if encoding == Encoding::Utf8 {
                    "UTF-8"
                } else {
                    "UTF-16"
                }
            ),
        )
        .await;
    }

    async fn shutdown(&self) -> Result<()> {
        Ok(())
    }

    async fn did_open(&self, params: lsp::DidOpenTextDocumentParams) {
        let item = params.text_document;
        let key = item.uri.as_str().to_string();
        let Some(kind) = document_kind(&item.language_id, &key) else {
            lock(&self.shared).ignored.insert(key.clone());
            self.log(
                lsp::MessageType::LOG,
                format!(
                    "silp-lint: not linting {key} (language `{}`): not a .silp, .slip, \
                     .silp.json, .silp.jsonl or .nlip.json document",
                    item.language_id
                ),
            )
            .await;
            return;
        };
        let size = item.text.len();
        let (settings, config_error) = {
            let state = lock(&self.shared);
            settings_for(&state.resolver, &item.uri)
        };
        if let Some(error) = config_error {
            self.log(lsp::MessageType::ERROR, format!("silp-lint: {error}"))
                .await;
        }
        {
            let mut state = lock(&self.shared);
            state.ignored.remove(&key);
            state.docs.insert(
                key.clone(),
                Document {
                    uri: item.uri.clone(),
                    kind,
                    version: item.version,
                    snapshot: Snapshot::new(item.text),
                    lint: None,
                    cross: Vec::new(),
                    linting: false,
                    dirty: false,
                    settings,
                },
            );
            request_lint(&self.shared, &self.client, &mut state, &key);
        }
        if item.uri.scheme().as_str() != "file" {
            self.log(
                lsp::MessageType::INFO,
                format!(
                    "silp-lint: {key} is not a file; linting it in memory (no configuration \
                     applies)"
                ),
            )
            .await;
        }
        if size >= LARGE_DOCUMENT {
            self.log(
                lsp::MessageType::INFO,
                format!(
                    "silp-lint: {key} is large ({:.1} MB); linting it in the background",
                    size as f64 / 1e6
                ),
            )
            .await;
        }
    }

    async fn did_change(&self, params: lsp::DidChangeTextDocumentParams) {
        let key = params.text_document.uri.as_str().to_string();
        let known = {
            let mut state = lock(&self.shared);
            let encoding = state.encoding;
            match state.docs.get_mut(&key) {
                Some(doc) => {
                    let text = apply_changes(&doc.snapshot.text, &params.content_changes, encoding);
                    doc.snapshot = Snapshot::new(text);
                    doc.version = params.text_document.version;
                    request_lint(&self.shared, &self.client, &mut state, &key);
                    true
                }
                None => state.ignored.contains(&key),
            }
        };
        if !known {
            self.log(
                lsp::MessageType::LOG,
                format!(
                    "silp-lint: ignoring a change to {key}, which is not open as a SILP document"
                ),
            )
            .await;
        }
    }

    async fn did_save(&self, params: lsp::DidSaveTextDocumentParams) {
        if is_config_file(&params.text_document.uri) {
            self.reload_configuration().await;
            return;
        }
        let key = params.text_document.uri.as_str().to_string();
        let mut state = lock(&self.shared);
        request_lint(&self.shared, &self.client, &mut state, &key);
    }

    async fn did_change_watched_files(&self, params: lsp::DidChangeWatchedFilesParams) {
        if params
            .changes
            .iter()
            .any(|change| is_config_file(&change.uri))
        {
            self.reload_configuration().await;
        }
    }

    async fn did_close(&self, params: lsp::DidCloseTextDocumentParams) {
        let uri = params.text_document.uri;
        let key = uri.as_str().to_string();
        let mut state = lock(&self.shared);
        state.ignored.remove(&key);
        if state.docs.remove(&key).is_none() {
            return;
        }
        let mut publishes = vec![Publish {
            key,
            uri,
            version: None,
            diagnostics: Vec::new(),
        }];
        // Its req_ids no longer count against the other documents.
        publishes.extend(cross_and_collect(&mut state, None));
        for publish in publishes {
            if self.shared.publish.send(publish).is_err() {
                break;
            }
        }
    }

    async fn did_change_configuration(&self, params: lsp::DidChangeConfigurationParams) {
        // VS Code sends the whole `silp` section: `{"silp": {"lint": {"select": [...]}}}`.
        if let Some(lint) = params
            .settings
            .get("silp")
            .and_then(|silp| silp.get("lint"))
        {
            lock(&self.shared).overrides = overrides_from(lint);
        }
        self.reload_configuration().await;
    }

    async fn hover(&self, params: lsp::HoverParams) -> Result<Option<lsp::Hover>> {
        let position = params.text_document_position_params;
        let found = {
            let state = lock(&self.shared);
            state
                .docs
                .get(position.text_document.uri.as_str())
                .map(|doc| {
                    let offset = doc.snapshot.offset(position.position, state.encoding);
                    let rules: Vec<(&'static RuleMeta, Span)> = doc
                        .current_lint()
                        .map(|lint| {
                            lint.diagnostics
                                .iter()
                                .chain(&doc.cross)
                                .filter(|d| d.span.start <= offset && offset <= d.span.end)
                                .map(|d| (d.rule, d.span.clone()))
                                .collect()
                        })
                        .unwrap_or_default();
                    (
                        doc.snapshot.clone(),
                        doc.kind,
                        offset,
                        rules,
                        state.encoding,
                        doc.settings.clone(),
                    )
                })
        };
        let Some((snapshot, kind, offset, rules, encoding, settings)) = found else {
            return Ok(None);
        };
        let text = snapshot.text.clone();
        let token = self
            .blocking("hover", move || {
                let tokens = semantic::tokens(&text, kind, Some(offset..offset));
                semantic::token_at(&tokens, offset).cloned()
            })
            .await
            .flatten();
        let mut sections = Vec::new();
        let mut range = None;
        if let Some(token) = &token {
            if let Some(text) = hover_for(&token.meaning, &settings) {
                sections.push(text);
                range = Some(snapshot.range(&token.span, encoding));
            }
        }
        let mut seen: Vec<&str> = Vec::new();
        for (rule, span) in &rules {
            if seen.contains(&rule.code) {
                continue;
            }
            seen.push(rule.code);
            sections.push(hover::rule(rule));
            range.get_or_insert_with(|| snapshot.range(span, encoding));
        }
        if sections.is_empty() {
            return Ok(None);
        }
        Ok(Some(lsp::Hover {
            contents: lsp::HoverContents::Markup(lsp::MarkupContent {
                kind: lsp::MarkupKind::Markdown,
                value: sections.join("\n\n---\n\n"),
            }),
            range,
        }))
    }

    async fn completion(
        &self,
        params: lsp::CompletionParams,
    ) -> Result<Option<lsp::CompletionResponse>> {
        let position = params.text_document_position;
        let Some((snapshot, kind, encoding, settings)) = self.snapshot(&position.text_document.uri)
        else {
            return Ok(None);
        };
        let offset = snapshot.offset(position.position, encoding);
        let snap = snapshot.clone();
        let items = self
            .blocking("completion", move || {
                completion::complete(&snap.text, &snap.index, kind, offset, &settings)
            })
            .await
            .unwrap_or_default();
        if items.is_empty() {
            return Ok(None);
        }
        let items = items
            .into_iter()
            .map(|item| lsp::CompletionItem {
                label: item.label,
                kind: Some(completion_kind(item.kind)),
                detail: Some(item.detail),
                text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
                    range: snapshot.range(&item.replace, encoding),
                    new_text: item.insert,
                })),
                ..Default::default()
            })
            .collect();
        Ok(Some(lsp::CompletionResponse::Array(items)))
    }

    async fn code_action(
        &self,
        params: lsp::CodeActionParams,
    ) -> Result<Option<lsp::CodeActionResponse>> {
        let uri = params.text_document.uri;
        // Diagnostics with fixes, as library values and converted, from a current lint.
        let found = {
            let state = lock(&self.shared);
            state.docs.get(uri.as_str()).map(|doc| {
                let fixable: Option<Vec<(Diagnostic, lsp::Diagnostic)>> =
                    doc.current_lint().map(|lint| {
                        lint.diagnostics
                            .iter()
                            .filter(|d| d.fix.is_some())
                            .map(|d| (d.clone(), to_lsp(d, doc, &state)))
                            .collect()
                    });
                (
                    doc.snapshot.clone(),
                    doc.kind,
                    state.encoding,
                    doc.settings.clone(),
                    fixable,
                )
            })
        };
        let Some((snapshot, kind, encoding, settings, fixable)) = found else {
            return Ok(None);
        };
        let fixable = match fixable {
            Some(fixable) => fixable,
            None => {
                // The text changed since the last lint: lint it now.
                let text = snapshot.text.clone();
                let lint = self
                    .blocking("linting for code actions", move || {
                        lint_text(&text, kind, &settings)
                    })
                    .await
                    .unwrap_or_default();
                let state = lock(&self.shared);
                let Some(doc) = state.docs.get(uri.as_str()) else {
                    return Ok(None);
                };
                if doc.snapshot.text != snapshot.text {
                    return Ok(None);
                }
                lint.diagnostics
                    .into_iter()
                    .filter(|d| d.fix.is_some())
                    .map(|d| {
                        let converted = to_lsp(&d, doc, &state);
                        (d, converted)
                    })
                    .collect()
            }
        };
        let requested = snapshot.span(params.range, encoding);
        let only = params.context.only.unwrap_or_default();
        let wants = |kind: &str| {
            only.is_empty()
                || only
                    .iter()
                    .any(|o| kind == o.as_str() || kind.starts_with(&format!("{}.", o.as_str())))
        };
        let mut actions = Vec::new();
        if wants(lsp::CodeActionKind::QUICKFIX.as_str()) {
            for (diagnostic, converted) in &fixable {
                let Some(fix) = &diagnostic.fix else {
                    continue;
                };
                let touches = diagnostic.span.start <= requested.end
                    && requested.start <= diagnostic.span.end;
                if !touches {
                    continue;
                }
                let safe = fix.applicability == Applicability::Safe;
                let title = if safe {
                    format!("{} ({})", fix.message, diagnostic.rule.code)
                } else {
                    format!(
                        "{} ({}, unsafe: review it)",
                        fix.message, diagnostic.rule.code
                    )
                };
                actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                    title,
                    kind: Some(lsp::CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![converted.clone()]),
                    edit: Some(lsp::WorkspaceEdit {
                        changes: Some(HashMap::from([(
                            uri.clone(),
                            fix_edits(fix, &snapshot, encoding),
                        )])),
                        ..Default::default()
                    }),
                    is_preferred: Some(safe),
                    ..Default::default()
                }));
            }
        }
        if wants(FIX_ALL_KIND) {
            let fixes: Vec<Fix> = fixable.iter().filter_map(|(d, _)| d.fix.clone()).collect();
            let chosen = non_overlapping_safe_fixes(&fixes);
            if !chosen.is_empty() {
                let mut edits: Vec<lsp::TextEdit> = chosen
                    .iter()
                    .flat_map(|fix| fix_edits(fix, &snapshot, encoding))
                    .collect();
                edits.sort_by_key(|e| (e.range.start.line, e.range.start.character));
                actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                    title: format!("Fix all safe silp-lint problems ({})", chosen.len()),
                    kind: Some(lsp::CodeActionKind::new(FIX_ALL_KIND)),
                    edit: Some(lsp::WorkspaceEdit {
                        changes: Some(HashMap::from([(uri.clone(), edits)])),
                        ..Default::default()
                    }),
                    ..Default::default()
                }));
            }
        }
        Ok((!actions.is_empty()).then_some(actions))
    }

    async fn semantic_tokens_full(
        &self,
        params: lsp::SemanticTokensParams,
    ) -> Result<Option<lsp::SemanticTokensResult>> {
        let Some((snapshot, kind, encoding, _)) = self.snapshot(&params.text_document.uri) else {
            return Ok(None);
        };
        let data = self
            .blocking("semantic tokens", move || {
                let tokens = semantic::tokens(&snapshot.text, kind, None);
                encode_tokens(&tokens, &snapshot, encoding)
            })
            .await
            .unwrap_or_default();
        Ok(Some(lsp::SemanticTokensResult::Tokens(
            lsp::SemanticTokens {
                result_id: None,
                data,
            },
        )))
    }

    async fn document_symbol(
        &self,
        params: lsp::DocumentSymbolParams,
    ) -> Result<Option<lsp::DocumentSymbolResponse>> {
        let Some((snapshot, kind, encoding, _)) = self.snapshot(&params.text_document.uri) else {
            return Ok(None);
        };
        let symbols = self
            .blocking("document symbols", move || {
                semantic::symbols(&snapshot.text, kind)
                    .into_iter()
                    .map(|symbol| {
                        let range = snapshot.range(&symbol.span, encoding);
                        #[allow(deprecated)]
                        lsp::DocumentSymbol {
                            name: symbol.name,
                            detail: symbol.detail,
                            kind: symbol_kind(symbol.kind),
                            tags: None,
                            deprecated: None,
                            range,
                            selection_range: range,
                            children: None,
                        }
                    })
                    .collect::<Vec<_>>()
            })
            .await
            .unwrap_or_default();
        Ok(Some(lsp::DocumentSymbolResponse::Nested(symbols)))
    }

    async fn formatting(
        &self,
        params: lsp::DocumentFormattingParams,
    ) -> Result<Option<Vec<lsp::TextEdit>>> {
        let uri = params.text_document.uri;
        let Some((snapshot, kind, encoding, _)) = self.snapshot(&uri) else {
            return Ok(None);
        };
        if !format::formats(kind) {
            self.log(
                lsp::MessageType::INFO,
                format!(
                    "silp-lint: {} is not formatted: only .silp and .slip payloads have a \
                     canonical form",
                    uri.as_str()
                ),
            )
            .await;
            return Err(Error {
                code: ErrorCode::ServerError(-32803),
                message: "silp-lint formats .silp and .slip documents only".into(),
                data: None,
            });
        }
        let edits = self
            .blocking("formatting", move || {
                format::format_edits(&snapshot.text, kind)
                    .iter()
                    .map(|edit| lsp::TextEdit {
                        range: snapshot.range(&edit.span, encoding),
                        new_text: edit.content.clone(),
                    })
                    .collect::<Vec<_>>()
            })
            .await
            .unwrap_or_default();
        Ok(Some(edits))
    }
}

/// Sends diagnostics in the order they were produced, dropping those whose document
/// moved on to a newer version in the meantime.
async fn publisher(
    shared: Arc<Shared>,
    client: Client,
    mut receiver: mpsc::UnboundedReceiver<Publish>,
) {
    while let Some(publish) = receiver.recv().await {
        let current = match publish.version {
            None => true,
            Some(version) => {
                let state = lock(&shared);
                state
                    .docs
                    .get(&publish.key)
                    .is_some_and(|doc| doc.version == version && !doc.dirty)
            }
        };
        if current {
            client
                .publish_diagnostics(publish.uri, publish.diagnostics, publish.version)
                .await;
        }
    }
}
