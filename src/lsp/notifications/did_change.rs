//! `textDocument/didChange`: applies incremental edits in order and asks for a
//! re-lint of the new version.

use crate::lsp::scheduler::request_lint;
use crate::lsp::session::Session;
use std::sync::Arc;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "textDocument/didChange";

pub fn advertise(capabilities: &mut lsp::ServerCapabilities) {
    super::with_text_sync(capabilities, |sync| {
        sync.change = Some(lsp::TextDocumentSyncKind::INCREMENTAL)
    });
}

pub async fn handle(session: &Arc<Session>, params: lsp::DidChangeTextDocumentParams) {
    let key = params.text_document.uri.as_str().to_string();
    let known = {
        let mut state = session.lock();
        let encoding = state.encoding;
        match state.docs.get_mut(&key) {
            Some(doc) => {
                doc.snapshot = doc.snapshot.changed(&params.content_changes, encoding);
                doc.version = params.text_document.version;
                state.fix_all.remove(&key);
                request_lint(session, &mut state, &key);
                true
            }
            None => state.ignored.contains(&key),
        }
    };
    if !known {
        session
            .log(
                lsp::MessageType::LOG,
                format!(
                    "silp-lint: ignoring a change to {key}, which is not open as a SILP document"
                ),
            )
            .await;
    }
}
