//! `textDocument/didOpen`: starts tracking and linting a document of a kind
//! silp-lint reads (by language id, else by file name), with the settings of the
//! configuration above its file.

use crate::lsp::document::{document_kind, Snapshot};
use crate::lsp::scheduler::request_lint;
use crate::lsp::session::{settings_for, OpenDocument, Session};
use std::sync::Arc;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "textDocument/didOpen";

/// Documents at least this large are announced in the log (they lint in the background).
pub const LARGE_DOCUMENT: usize = 1 << 20;

pub fn advertise(capabilities: &mut lsp::ServerCapabilities) {
    super::with_text_sync(capabilities, |sync| sync.open_close = Some(true));
}

pub async fn handle(session: &Arc<Session>, params: lsp::DidOpenTextDocumentParams) {
    let item = params.text_document;
    let key = item.uri.as_str().to_string();
    let Some(kind) = document_kind(&item.language_id, &key) else {
        session.lock().ignored.insert(key.clone());
        session
            .log(
                lsp::MessageType::LOG,
                format!(
                    "silp-lint: not linting {key} (language `{}`): not a .silp, .slip, \
                     .silp.json, .silp.jsonl, .nlip.json, .mcp-call.json, .a2a.json or \
                     Markdown document",
                    item.language_id
                ),
            )
            .await;
        return;
    };
    let size = item.text.len();
    let (settings, config_error) = {
        let state = session.lock();
        settings_for(&state.resolver, &item.uri)
    };
    // Tracked before the first `.await`, so a request right behind this
    // notification (a pull of its diagnostics) finds the document.
    {
        let mut state = session.lock();
        state.ignored.remove(&key);
        state.docs.insert(
            key.clone(),
            OpenDocument {
                uri: item.uri.clone(),
                version: item.version,
                snapshot: Snapshot::new(item.text, kind),
                lint: None,
                cross: Vec::new(),
                linting: false,
                dirty: false,
                settings,
                report: None,
            },
        );
        request_lint(session, &mut state, &key);
    }
    if let Some(error) = config_error {
        session
            .log(lsp::MessageType::ERROR, format!("silp-lint: {error}"))
            .await;
    }
    if item.uri.scheme().as_str() != "file" {
        session
            .log(
                lsp::MessageType::INFO,
                format!(
                    "silp-lint: {key} is not a file; linting it in memory (no configuration \
                     file applies)"
                ),
            )
            .await;
    }
    if size >= LARGE_DOCUMENT {
        session
            .log(
                lsp::MessageType::INFO,
                format!(
                    "silp-lint: {key} is large ({:.1} MB); linting it in the background",
                    size as f64 / 1e6
                ),
            )
            .await;
    }
}
