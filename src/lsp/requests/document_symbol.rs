//! `textDocument/documentSymbol`: one outline entry per payload, at most
//! [`MAX_SYMBOLS`]; past it, a last entry (at the first payload left out) says how
//! many payloads are not listed.

use crate::lsp::session::Session;
use crate::lsp::to_lsp::symbol_kind;
use std::sync::Arc;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "textDocument/documentSymbol";

/// The most outline entries in one answer: an entry costs the client far more
/// memory than its payload line (10 MB of short payloads made a 160 MB answer).
pub const MAX_SYMBOLS: usize = 10_000;

pub fn advertise(capabilities: &mut lsp::ServerCapabilities) {
    capabilities.document_symbol_provider = Some(lsp::OneOf::Left(true));
}

#[allow(deprecated)] // `DocumentSymbol::deprecated`, which has to be given
fn entry(
    name: String,
    detail: Option<String>,
    kind: lsp::SymbolKind,
    range: lsp::Range,
) -> lsp::DocumentSymbol {
    lsp::DocumentSymbol {
        name,
        detail,
        kind,
        tags: None,
        deprecated: None,
        range,
        selection_range: range,
        children: None,
    }
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
            // One more than listed, to place the note on the first payload left out.
            let outline = snapshot.symbols(MAX_SYMBOLS + 1);
            let mut entries: Vec<lsp::DocumentSymbol> = outline
                .symbols
                .into_iter()
                .map(|symbol| {
                    let range = snapshot.range(&symbol.span, encoding);
                    entry(symbol.name, symbol.detail, symbol_kind(symbol.kind), range)
                })
                .collect();
            if let Some(first_left_out) = entries.get_mut(MAX_SYMBOLS) {
                let left_out = outline.total - MAX_SYMBOLS;
                first_left_out.name = format!(
                    "… {left_out} more payloads are not listed (the outline shows at most \
                     {MAX_SYMBOLS})"
                );
                first_left_out.detail = None;
                first_left_out.kind = lsp::SymbolKind::NULL;
            }
            entries
        })
        .await
        .unwrap_or_default();
    Ok(Some(lsp::DocumentSymbolResponse::Nested(symbols)))
}
