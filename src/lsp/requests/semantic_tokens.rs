//! `textDocument/semanticTokens/full`: every payload's parts, classified from the
//! syntax trees (legend shared with the VS Code extension), the first
//! [`MAX_SEMANTIC_TOKENS`] of a document; past them the editor's grammar colours
//! the text alone.

use crate::lsp::session::Session;
use crate::lsp::to_lsp::{encode_tokens, semantic_legend};
use std::sync::Arc;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "textDocument/semanticTokens/full";

/// The most tokens in one answer (some 20,000 lines of payloads): each costs the
/// answer five JSON numbers, so 10 MB of short payloads made an answer of gigabytes.
pub const MAX_SEMANTIC_TOKENS: usize = 200_000;

pub fn advertise(capabilities: &mut lsp::ServerCapabilities) {
    capabilities.semantic_tokens_provider = Some(
        lsp::SemanticTokensServerCapabilities::SemanticTokensOptions(lsp::SemanticTokensOptions {
            work_done_progress_options: Default::default(),
            legend: semantic_legend(),
            range: None,
            full: Some(lsp::SemanticTokensFullOptions::Bool(true)),
        }),
    );
}

pub async fn handle(
    session: &Arc<Session>,
    params: lsp::SemanticTokensParams,
) -> Result<Option<lsp::SemanticTokensResult>> {
    let Some((snapshot, encoding, _)) = session.snapshot(&params.text_document.uri) else {
        return Ok(None);
    };
    let data = session
        .blocking("semantic tokens", move || {
            let mut tokens = snapshot.tokens(MAX_SEMANTIC_TOKENS);
            tokens.truncate(MAX_SEMANTIC_TOKENS);
            encode_tokens(&tokens, &snapshot, encoding)
        })
        .await
        .unwrap_or_default();
    Ok(Some(lsp::SemanticTokensResult::Tokens(
        lsp::SemanticTokens {
            result_id: None,
            data,
        },
    )))
}
