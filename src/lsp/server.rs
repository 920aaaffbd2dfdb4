//! The protocol's entry points: tower-lsp-server calls [`Backend`], which hands
//! each method to its handler in `requests/` or `notifications/`.

use super::notifications::{
    did_change, did_change_configuration, did_change_watched_files, did_close, did_open, did_save,
    initialized,
};
use super::requests::{
    code_action, code_action_resolve, completion, diagnostic, document_symbol, formatting, hover,
    initialize, semantic_tokens, shutdown,
};
use super::session::Session;
use std::sync::Arc;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types as lsp;
use tower_lsp_server::{Client, LanguageServer};

/// The silp-lint language server.
pub struct Backend {
    session: Arc<Session>,
}

impl Backend {
    pub fn new(client: Client) -> Backend {
        Backend {
            session: Arc::new(Session::new(client)),
        }
    }

    /// The session (for the scheduler's unit tests).
    pub fn session(&self) -> &Arc<Session> {
        &self.session
    }
}

impl LanguageServer for Backend {
    async fn initialize(&self, params: lsp::InitializeParams) -> Result<lsp::InitializeResult> {
        initialize::handle(&self.session, params).await
    }

    async fn initialized(&self, params: lsp::InitializedParams) {
        initialized::handle(&self.session, params).await
    }

    async fn shutdown(&self) -> Result<()> {
        shutdown::handle().await
    }

    async fn did_open(&self, params: lsp::DidOpenTextDocumentParams) {
        did_open::handle(&self.session, params).await
    }

    async fn did_change(&self, params: lsp::DidChangeTextDocumentParams) {
        did_change::handle(&self.session, params).await
    }

    async fn did_save(&self, params: lsp::DidSaveTextDocumentParams) {
        did_save::handle(&self.session, params).await
    }

    async fn did_close(&self, params: lsp::DidCloseTextDocumentParams) {
        did_close::handle(&self.session, params).await
    }

    async fn did_change_watched_files(&self, params: lsp::DidChangeWatchedFilesParams) {
        did_change_watched_files::handle(&self.session, params).await
    }

    async fn did_change_configuration(&self, params: lsp::DidChangeConfigurationParams) {
        did_change_configuration::handle(&self.session, params).await
    }

    async fn hover(&self, params: lsp::HoverParams) -> Result<Option<lsp::Hover>> {
        hover::handle(&self.session, params).await
    }

    async fn completion(
        &self,
        params: lsp::CompletionParams,
    ) -> Result<Option<lsp::CompletionResponse>> {
        completion::handle(&self.session, params).await
    }

    async fn code_action(
        &self,
        params: lsp::CodeActionParams,
    ) -> Result<Option<lsp::CodeActionResponse>> {
        code_action::handle(&self.session, params).await
    }

    async fn code_action_resolve(&self, params: lsp::CodeAction) -> Result<lsp::CodeAction> {
        code_action_resolve::handle(&self.session, params).await
    }

    async fn semantic_tokens_full(
        &self,
        params: lsp::SemanticTokensParams,
    ) -> Result<Option<lsp::SemanticTokensResult>> {
        semantic_tokens::handle(&self.session, params).await
    }

    async fn document_symbol(
        &self,
        params: lsp::DocumentSymbolParams,
    ) -> Result<Option<lsp::DocumentSymbolResponse>> {
        document_symbol::handle(&self.session, params).await
    }

    async fn diagnostic(
        &self,
        params: lsp::DocumentDiagnosticParams,
    ) -> Result<lsp::DocumentDiagnosticReportResult> {
        diagnostic::handle(&self.session, params).await
    }

    async fn formatting(
        &self,
        params: lsp::DocumentFormattingParams,
    ) -> Result<Option<Vec<lsp::TextEdit>>> {
        formatting::handle(&self.session, params).await
    }
}
