//! `textDocument/didClose`: forgets the document, clears its diagnostics (a pulling
//! client clears its own), and updates the others' cross-file diagnostics (its
//! `req_id`s no longer count).

use crate::lsp::scheduler::{cross_and_collect, deliver, Publish};
use crate::lsp::session::Session;
use std::sync::Arc;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "textDocument/didClose";

pub fn advertise(capabilities: &mut lsp::ServerCapabilities) {
    super::with_text_sync(capabilities, |sync| sync.open_close = Some(true));
}

pub async fn handle(session: &Arc<Session>, params: lsp::DidCloseTextDocumentParams) {
    let uri = params.text_document.uri;
    let key = uri.as_str().to_string();
    let mut state = session.lock();
    state.ignored.remove(&key);
    state.fix_all.remove(&key);
    if state.docs.remove(&key).is_none() {
        return;
    }
    // A pull waiting for this document answers that it has nothing.
    session.settled.notify_waiters();
    let mut publishes = vec![Publish {
        key,
        uri,
        version: None,
        diagnostics: Vec::new(),
    }];
    publishes.extend(cross_and_collect(&mut state, None));
    for publish in publishes {
        if !deliver(session, &mut state, publish) {
            break;
        }
    }
}
