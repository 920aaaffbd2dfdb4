//! `workspace/didChangeConfiguration`: the editor's rule selection changed
//! (`{"silp": {"lint": {"select": [...], "ignore": [...]}}}` from VS Code); every
//! document is linted again with it.

use crate::lsp::session::{overrides_from, Session};
use std::sync::Arc;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "workspace/didChangeConfiguration";

pub fn advertise(_: &mut lsp::ServerCapabilities) {}

pub async fn handle(session: &Arc<Session>, params: lsp::DidChangeConfigurationParams) {
    if let Some(lint) = params
        .settings
        .get("silp")
        .and_then(|silp| silp.get("lint"))
    {
        session.lock().overrides = overrides_from(lint);
    }
    super::reload(session).await;
}
