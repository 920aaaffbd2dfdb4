//! Session state: the open documents, the negotiated position encoding, the
//! configuration lookup and the client's settings, under one `std` mutex. Handlers
//! change state synchronously before their first `.await` (tower-lsp-server runs up
//! to four at once) and never hold the lock across one.

use super::document::{Encoding, Snapshot};
use super::scheduler::Outgoing;
use crate::config::{Overrides, Resolver};
use crate::diagnostics::Diagnostic;
use crate::lint::FileLint;
use crate::settings::{Draft, Settings};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use tokio::sync::{mpsc, Notify};
use tower_lsp_server::ls_types::{self as lsp, Uri};
use tower_lsp_server::Client;

/// An open document the server lints.
pub struct OpenDocument {
    pub uri: Uri,
    pub version: i32,
    pub snapshot: Snapshot,
    /// The last lint.
    pub lint: Option<LintState>,
    /// Cross-file diagnostics last published for this document.
    pub cross: Vec<Diagnostic>,
    /// A lint job is running for this document.
    pub linting: bool,
    /// The text changed since the running lint job took its snapshot.
    pub dirty: bool,
    /// The settings of the configuration governing the document's file.
    pub settings: Arc<Settings>,
    /// The diagnostics last reported, for a client that pulls them.
    pub report: Option<Report>,
}

/// A document's diagnostics as a pulling client receives them: an id that changes
/// only when they do, so an unchanged answer costs the client nothing to read.
pub struct Report {
    /// The document's version the diagnostics were last found for.
    pub version: i32,
    pub result_id: String,
    pub diagnostics: Arc<Vec<lsp::Diagnostic>>,
}

/// How the client receives diagnostics, negotiated at `initialize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// `textDocument/publishDiagnostics` after each lint.
    Push,
    /// The client asks (`textDocument/diagnostic`); `refresh` when it takes
    /// `workspace/diagnostic/refresh` for reports that changed without an edit.
    Pull { refresh: bool },
}

/// A lint result, and the version and text it was computed for.
pub struct LintState {
    pub version: i32,
    pub text: Arc<str>,
    pub lint: Arc<FileLint>,
}

impl OpenDocument {
    /// The lint result when it was computed for the current text.
    pub fn current_lint(&self) -> Option<&FileLint> {
        match &self.lint {
            Some(state) if state.version == self.version && !self.dirty => Some(&state.lint),
            _ => None,
        }
    }
}

/// The edits of "fix all safe problems", and how many fixes they apply.
pub struct FixAllEdits {
    pub applied: usize,
    pub edits: Vec<lsp::TextEdit>,
}

/// A fix-all computed for a text with some settings, or why the fix engine refused.
pub struct FixAll {
    pub text: Arc<str>,
    pub settings: Arc<Settings>,
    pub outcome: Arc<Result<FixAllEdits, String>>,
}

pub struct State {
    pub encoding: Encoding,
    /// Finds each document's `silp-lint.toml` / `pyproject.toml`, as the CLI does.
    pub resolver: Arc<Resolver>,
    /// The client's rule selection, applied over every configuration.
    pub overrides: Overrides,
    /// A URL template with `{code}` for `codeDescription`, from the client's
    /// `initializationOptions.ruleDocsUrl`.
    pub rule_docs_url: Option<String>,
    /// Open documents by URI.
    pub docs: HashMap<String, OpenDocument>,
    /// Open documents the server does not lint (logged once, on open).
    pub ignored: HashSet<String>,
    /// The last fix-all of each open document, by URI.
    pub fix_all: HashMap<String, FixAll>,
    pub delivery: Delivery,
    /// The client resolves a code action's edit (`codeAction/resolve`), so a
    /// fix-all can be offered before it is computed.
    pub resolves_code_action_edits: bool,
    /// The next pulled report's id (ids are never reused, across documents too).
    pub next_result_id: u64,
}

/// The server's state and its ways out: the client, and the queue of messages the
/// publisher sends in order.
pub struct Session {
    pub client: Client,
    state: Mutex<State>,
    outgoing: mpsc::UnboundedSender<Outgoing>,
    outgoing_rx: Mutex<Option<mpsc::UnboundedReceiver<Outgoing>>>,
    /// The client sent `shutdown` (`exit` without it ends the process with status 1).
    shut_down: AtomicBool,
    /// Woken when a document's lint jobs end or it closes: a pull waits for it.
    pub settled: Notify,
}

impl Session {
    pub fn new(client: Client) -> Session {
        let (outgoing, outgoing_rx) = mpsc::unbounded_channel();
        Session {
            client,
            state: Mutex::new(State {
                encoding: Encoding::Utf16,
                resolver: Arc::new(Resolver::discover(Overrides::default())),
                overrides: Overrides::default(),
                rule_docs_url: None,
                docs: HashMap::new(),
                ignored: HashSet::new(),
                fix_all: HashMap::new(),
                delivery: Delivery::Push,
                resolves_code_action_edits: false,
                next_result_id: 1,
            }),
            outgoing,
            outgoing_rx: Mutex::new(Some(outgoing_rx)),
            shut_down: AtomicBool::new(false),
            settled: Notify::new(),
        }
    }

    /// Records the client's `shutdown` request.
    pub fn shut_down(&self) {
        self.shut_down.store(true, Ordering::SeqCst);
    }

    /// Whether the client sent `shutdown`.
    pub fn is_shut_down(&self) -> bool {
        self.shut_down.load(Ordering::SeqCst)
    }

    pub fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Queues a message for the publisher; `false` once the server shuts down.
    pub fn send(&self, message: Outgoing) -> bool {
        self.outgoing.send(message).is_ok()
    }

    /// The queue's receiving end, once (for the publisher).
    pub fn take_outgoing(&self) -> Option<mpsc::UnboundedReceiver<Outgoing>> {
        self.outgoing_rx
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take()
    }

    pub async fn log(&self, typ: lsp::MessageType, message: String) {
        self.client.log_message(typ, message).await;
    }

    /// An open document's current snapshot, the encoding and its settings.
    pub fn snapshot(&self, uri: &Uri) -> Option<(Snapshot, Encoding, Arc<Settings>)> {
        let state = self.lock();
        let doc = state.docs.get(uri.as_str())?;
        Some((doc.snapshot.clone(), state.encoding, doc.settings.clone()))
    }

    /// Runs `work` on the blocking pool; a panic is logged and yields `None`.
    pub async fn blocking<T: Send + 'static>(
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
}

/// The settings for a document: its file's configuration, as the CLI finds it;
/// the defaults (and the error) when the configuration is broken; the defaults
/// with the client's selection for documents that are not files.
pub fn settings_for(resolver: &Resolver, uri: &Uri) -> (Arc<Settings>, Option<String>) {
    let Some(path) = uri.to_file_path() else {
        return (resolver.unconfigured_settings(), None);
    };
    match resolver.settings_for(&path) {
        Ok(settings) => (settings, None),
        Err(error) => (Arc::new(Settings::default()), Some(error.to_string())),
    }
}

/// The rule selection of a client's `lint` settings: `{"select": [...], "ignore": [...]}`.
pub fn overrides_from(lint: &serde_json::Value) -> Overrides {
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
        draft: None,
    }
}

/// The draft revision a client's settings name (`"draft": "01"`), if a valid one.
pub fn draft_from(options: &serde_json::Value) -> Option<Draft> {
    options.get("draft")?.as_str().and_then(Draft::parse)
}

/// Whether a changed file is a configuration file the server reads.
pub fn is_config_file(uri: &Uri) -> bool {
    let path = uri.as_str();
    path.ends_with("/silp-lint.toml") || path.ends_with("/pyproject.toml")
}
