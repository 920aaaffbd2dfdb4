//! `textDocument/didSave`: a saved configuration file reloads every document's
//! settings; a saved payload document is linted again.

use crate::lsp::scheduler::request_lint;
use crate::lsp::session::{is_config_file, Session};
use std::sync::Arc;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "textDocument/didSave";

pub fn advertise(capabilities: &mut lsp::ServerCapabilities) {
    super::with_text_sync(capabilities, |sync| {
        sync.save = Some(lsp::TextDocumentSyncSaveOptions::SaveOptions(
            lsp::SaveOptions {
                include_text: Some(false),
            },
        ))
    });
}

pub async fn handle(session: &Arc<Session>, params: lsp::DidSaveTextDocumentParams) {
    if is_config_file(&params.text_document.uri) {
        super::reload(session).await;
        return;
    }
    let key = params.text_document.uri.as_str().to_string();
    let mut state = session.lock();
    request_lint(session, &mut state, &key);
}
