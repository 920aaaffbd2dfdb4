//! `workspace/didChangeConfiguration`: the editor's rule selection or draft
//! revision changed (`{"silp": {"lint": {"select": [...], "ignore": [...]},
//! "draft": "02"}}` from VS Code); every document is linted again with them.

use crate::lsp::session::{draft_from, overrides_from, Session};
use std::sync::Arc;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "workspace/didChangeConfiguration";

pub fn advertise(_: &mut lsp::ServerCapabilities) {}

pub async fn handle(session: &Arc<Session>, params: lsp::DidChangeConfigurationParams) {
    if let Some(silp) = params.settings.get("silp") {
        let mut overrides = silp.get("lint").map(overrides_from).unwrap_or_default();
        overrides.draft = draft_from(silp);
        session.lock().overrides = overrides;
    }
    super::reload(session).await;
}
