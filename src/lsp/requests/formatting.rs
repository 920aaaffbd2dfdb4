//! `textDocument/formatting`: the edits `silp-lint fmt` would make (`.silp`,
//! `.slip` and their Markdown fences); other kinds have no canonical form.

use crate::format;
use crate::lsp::session::Session;
use crate::lsp::to_lsp;
use std::sync::Arc;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "textDocument/formatting";

pub fn advertise(capabilities: &mut lsp::ServerCapabilities) {
    capabilities.document_formatting_provider = Some(lsp::OneOf::Left(true));
}

pub async fn handle(
    session: &Arc<Session>,
    params: lsp::DocumentFormattingParams,
) -> Result<Option<Vec<lsp::TextEdit>>> {
    let uri = params.text_document.uri;
    let Some((snapshot, encoding, _)) = session.snapshot(&uri) else {
        return Ok(None);
    };
    if !format::formats(snapshot.kind) {
        session
            .log(
                lsp::MessageType::INFO,
                format!(
                    "silp-lint: {} is not formatted: only .silp and .slip payloads have a \
                     canonical form",
                    uri.as_str()
                ),
            )
            .await;
        return Err(Error {
            code: ErrorCode::ServerError(-32803),
            message: "silp-lint formats .silp and .slip documents only".into(),
            data: None,
        });
    }
    let edits = session
        .blocking("formatting", move || {
            to_lsp::text_edits(snapshot.format_edits(), &snapshot, encoding)
        })
        .await
        .unwrap_or_default();
    Ok(Some(edits))
}
