//! `textDocument/diagnostic`: a document's diagnostics for a client that pulls them
//! (LSP 3.17), answered once no lint of the document is pending. Each report has an
//! id that changes only when the diagnostics do, so a pull after a keystroke that
//! changed none of them is answered "unchanged" instead of with the whole list.
//! Advertised only to clients that declare pulling; the others get them pushed.

use crate::lsp::session::{Delivery, Session};
use std::sync::Arc;
use tower_lsp_server::jsonrpc::{Error, ErrorCode, Result};
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "textDocument/diagnostic";

pub fn advertise(capabilities: &mut lsp::ServerCapabilities) {
    capabilities.diagnostic_provider = Some(lsp::DiagnosticServerCapabilities::Options(
        lsp::DiagnosticOptions {
            identifier: Some("silp-lint".to_string()),
            // Duplicate `req_id`s are reported across open documents.
            inter_file_dependencies: true,
            workspace_diagnostics: false,
            work_done_progress_options: Default::default(),
        },
    ));
}

/// How a client takes diagnostics: pulled when it declares pulling (VS Code's
/// does), else pushed after each lint.
pub fn delivery(capabilities: &lsp::ClientCapabilities) -> Delivery {
    let pulls = capabilities
        .text_document
        .as_ref()
        .is_some_and(|t| t.diagnostic.is_some());
    if !pulls {
        return Delivery::Push;
    }
    let refresh = capabilities
        .workspace
        .as_ref()
        .and_then(|w| w.diagnostics.as_ref())
        .and_then(|d| d.refresh_support)
        .unwrap_or(false);
    Delivery::Pull { refresh }
}

pub async fn handle(
    session: &Arc<Session>,
    params: lsp::DocumentDiagnosticParams,
) -> Result<lsp::DocumentDiagnosticReportResult> {
    let key = params.text_document.uri.as_str();
    let report = loop {
        // Registered before the state is read, so a lint ending in between wakes it.
        let settled = session.settled.notified();
        tokio::pin!(settled);
        settled.as_mut().enable();
        {
            let state = session.lock();
            if state.delivery == Delivery::Push {
                return Err(Error {
                    code: ErrorCode::InvalidRequest,
                    message: "silp-lsp publishes diagnostics to this client: it did not \
                              declare textDocument.diagnostic at initialize"
                        .into(),
                    data: None,
                });
            }
            match state.docs.get(key) {
                // Not a document the server lints (or no longer open).
                None => break None,
                Some(doc) if !doc.dirty && !doc.linting => {
                    break doc
                        .report
                        .as_ref()
                        .map(|r| (r.result_id.clone(), r.diagnostics.clone()));
                }
                Some(_) => {}
            }
        }
        settled.await;
    };
    let full = |result_id, items| {
        lsp::DocumentDiagnosticReport::Full(lsp::RelatedFullDocumentDiagnosticReport {
            related_documents: None,
            full_document_diagnostic_report: lsp::FullDocumentDiagnosticReport { result_id, items },
        })
    };
    Ok(match report {
        None => full(None, Vec::new()),
        Some((result_id, _)) if params.previous_result_id.as_ref() == Some(&result_id) => {
            lsp::DocumentDiagnosticReport::Unchanged(
                lsp::RelatedUnchangedDocumentDiagnosticReport {
                    related_documents: None,
                    unchanged_document_diagnostic_report: lsp::UnchangedDocumentDiagnosticReport {
                        result_id,
                    },
                },
            )
        }
        Some((result_id, items)) => full(Some(result_id), (*items).clone()),
    }
    .into())
}
