//! `codeAction/resolve`: the edit of a fix-all offered without one (see
//! [`super::code_action`]), computed when the user chooses it.
//!
//! The edit is made against the document's text when the request arrives, which
//! is the client's text then: the client sends its changes before it resolves. A
//! refusal of the fix engine resolves to an empty edit, and the client is shown
//! why, since the user asked for the fix.

use crate::lsp::requests::code_action::{fix_all, is_fix_all, workspace_edit};
use crate::lsp::session::Session;
use std::sync::Arc;
use tower_lsp_server::jsonrpc::{Error, Result};
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "codeAction/resolve";

/// Advertised by `textDocument/codeAction`'s `resolveProvider`.
pub fn advertise(_: &mut lsp::ServerCapabilities) {}

pub async fn handle(
    session: &Arc<Session>,
    mut action: lsp::CodeAction,
) -> Result<lsp::CodeAction> {
    if action.edit.is_some() {
        return Ok(action);
    }
    let uri = action
        .data
        .as_ref()
        .and_then(|data| data.get("uri"))
        .and_then(|uri| uri.as_str())
        .and_then(|uri| uri.parse::<lsp::Uri>().ok());
    let Some(uri) = uri.filter(|_| is_fix_all(&action)) else {
        return Err(Error::invalid_params(
            "not a silp-lint fix-all: only a fix-all is resolved, and its data names its document",
        ));
    };
    let Some((snapshot, encoding, settings)) = session.snapshot(&uri) else {
        return Err(Error::invalid_params(format!(
            "{} is not open: a fix-all is resolved for an open document",
            uri.as_str()
        )));
    };
    let outcome = fix_all(session, &uri, snapshot, settings, encoding).await;
    let edits = match &*outcome {
        Ok(fixed) => fixed.edits.clone(),
        Err(why) => {
            session
                .client
                .show_message(
                    lsp::MessageType::WARNING,
                    format!("silp-lint could not fix all safe problems: {why}"),
                )
                .await;
            Vec::new()
        }
    };
    action.edit = Some(workspace_edit(&uri, edits));
    Ok(action)
}
