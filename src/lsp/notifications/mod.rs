//! One file per notification the server acts on: its method name, what it adds to
//! the advertised capabilities, and its handler.

pub mod did_change;
pub mod did_change_configuration;
pub mod did_change_watched_files;
pub mod did_close;
pub mod did_open;
pub mod did_save;
pub mod initialized;

use super::scheduler::reload_configuration;
use super::session::Session;
use std::sync::Arc;
use tower_lsp_server::ls_types as lsp;

/// Adds to the text synchronisation options (each `didX` notification its part).
fn with_text_sync(
    capabilities: &mut lsp::ServerCapabilities,
    add: impl FnOnce(&mut lsp::TextDocumentSyncOptions),
) {
    let mut options = match capabilities.text_document_sync.take() {
        Some(lsp::TextDocumentSyncCapability::Options(options)) => options,
        Some(lsp::TextDocumentSyncCapability::Kind(kind)) => lsp::TextDocumentSyncOptions {
            change: Some(kind),
            ..Default::default()
        },
        None => lsp::TextDocumentSyncOptions::default(),
    };
    add(&mut options);
    capabilities.text_document_sync = Some(lsp::TextDocumentSyncCapability::Options(options));
}

/// Reloads every configuration and logs the files that are broken.
async fn reload(session: &Arc<Session>) {
    for error in reload_configuration(session) {
        session
            .log(lsp::MessageType::ERROR, format!("silp-lint: {error}"))
            .await;
    }
}
