//! `textDocument/completion`: verbs, anchors, IR keys and frontends where the
//! payload being typed can take them.

use crate::lsp::session::Session;
use crate::lsp::to_lsp::completion_kind;
use std::sync::Arc;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "textDocument/completion";

pub fn advertise(capabilities: &mut lsp::ServerCapabilities) {
    capabilities.completion_provider = Some(lsp::CompletionOptions {
        trigger_characters: Some(vec!["!".into(), "\"".into(), " ".into()]),
        ..Default::default()
    });
}

pub async fn handle(
    session: &Arc<Session>,
    params: lsp::CompletionParams,
) -> Result<Option<lsp::CompletionResponse>> {
    let position = params.text_document_position;
    let Some((snapshot, encoding, settings)) = session.snapshot(&position.text_document.uri) else {
        return Ok(None);
    };
    let offset = snapshot.offset(position.position, encoding);
    let completed = snapshot.clone();
    let items = session
        .blocking("completion", move || completed.complete(offset, &settings))
        .await
        .unwrap_or_default();
    if items.is_empty() {
        return Ok(None);
    }
    let items = items
        .into_iter()
        .map(|item| lsp::CompletionItem {
            label: item.label,
            kind: Some(completion_kind(item.kind)),
            detail: Some(item.detail),
            text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
                range: snapshot.range(&item.replace, encoding),
                new_text: item.insert,
            })),
            ..Default::default()
        })
        .collect();
    Ok(Some(lsp::CompletionResponse::Array(items)))
}
