//! `workspace/didChangeWatchedFiles`: a changed `silp-lint.toml` or
//! `pyproject.toml` reloads every document's settings (the VS Code extension
//! watches both).

use crate::lsp::session::{is_config_file, Session};
use std::sync::Arc;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "workspace/didChangeWatchedFiles";

pub fn advertise(_: &mut lsp::ServerCapabilities) {}

pub async fn handle(session: &Arc<Session>, params: lsp::DidChangeWatchedFilesParams) {
    if params
        .changes
        .iter()
        .any(|change| is_config_file(&change.uri))
    {
        super::reload(session).await;
    }
}
