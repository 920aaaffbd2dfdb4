//! `textDocument/documentSymbol`: one outline entry per payload.

use crate::lsp::semantic;
use crate::lsp::session::Session;
use crate::lsp::to_lsp::symbol_kind;
use std::sync::Arc;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "textDocument/documentSymbol";

pub fn advertise(capabilities: &mut lsp::ServerCapabilities) {
    capabilities.document_symbol_provider = Some(lsp::OneOf::Left(true));
}

pub async fn handle(
    session: &Arc<Session>,
    params: lsp::DocumentSymbolParams,
) -> Result<Option<lsp::DocumentSymbolResponse>> {
    let Some((snapshot, encoding, _)) = session.snapshot(&params.text_document.uri) else {
        return Ok(None);
    };
    let symbols = session
        .blocking("document symbols", move || {
            semantic::symbols(snapshot.document())
                .into_iter()
                .map(|symbol| {
                    let range = snapshot.range(&symbol.span, encoding);
                    #[allow(deprecated)]
                    lsp::DocumentSymbol {
                        name: symbol.name,
                        detail: symbol.detail,
                        kind: symbol_kind(symbol.kind),
                        tags: None,
                        deprecated: None,
                        range,
                        selection_range: range,
                        children: None,
                    }
                })
                .collect::<Vec<_>>()
        })
        .await
        .unwrap_or_default();
    Ok(Some(lsp::DocumentSymbolResponse::Nested(symbols)))
}
