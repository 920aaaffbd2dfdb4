//! The language server (`silp-lsp`, `silp-lint lsp`): tower-lsp-server on tokio,
//! speaking LSP over stdio.
//!
//! Diagnostics come from the same library calls as the CLI ([`crate::lint::lint_text`]
//! per document, then [`crate::lint::cross_file`] over the open documents), so the two
//! cannot disagree. Highlighting, outline, hover and completion read the syntax
//! trees through [`semantic`], [`hover`] and [`completion`], which know nothing of
//! the protocol.
//!
//! After an edit, line-oriented documents are re-linted only in a window of whole
//! lines around the change ([`crate::relint`], in the lint layer); the result equals a full lint (checked
//! by a property test), which keeps a keystroke on a 10,000-line file around a
//! millisecond (`benches/lsp_latency.rs`).
//!
//! Formatting returns the edits of [`crate::format::format_edits`], what `silp-lint
//! fmt` writes (`.silp` and `.slip`; other kinds are answered with an error saying
//! they have no canonical form).
//!
//! Configuration: each document gets the settings of the `silp-lint.toml` or
//! `pyproject.toml` that governs its file, found as the CLI finds it, with the
//! client's rule selection (`initializationOptions.lint.select` / `.ignore`) over
//! it. Saving such a file, a watched-file change or a configuration change reloads
//! them and re-lints every open document; a broken file is logged and the defaults
//! apply.
//!
//! `codeDescription` links: silp-lint has no published rule pages, so the server
//! links a rule only when the client passes a URL template in
//! `initializationOptions.ruleDocsUrl` (`{code}`, `{code_lower}` and `{name}` are
//! replaced). Without it, diagnostics carry the code (`SL101`) and the source
//! `silp-lint`, and hovering a diagnostic shows the rule's full documentation.

pub mod capabilities;
pub mod completion;
pub mod document;
pub mod hover;
pub mod notifications;
pub mod requests;
pub mod scheduler;
pub mod semantic;
pub mod server;
pub mod session;
pub mod to_lsp;
pub mod transport;

use server::Backend;
use tokio::io::{AsyncRead, AsyncWrite};
use tower_lsp_server::{LspService, Server};

/// Serves LSP on `input`/`output` until the client sends `exit` or closes the input.
pub async fn serve<I, O>(input: I, output: O)
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (service, socket) = LspService::new(Backend::new);
    let client = service.inner().client().clone();
    let (server_input, guarded) = tokio::io::duplex(256 * 1024);
    let guard = tokio::spawn(transport::guard_input(input, guarded, client));
    Server::new(server_input, output, socket)
        .serve(service)
        .await;
    guard.abort();
}

/// Serves LSP on standard input and output.
pub async fn run_stdio() {
    serve(tokio::io::stdin(), tokio::io::stdout()).await;
}

/// Serves LSP on standard input and output on a runtime of its own; returns when the
/// client sends `exit` or closes standard input.
pub fn serve_stdio() -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(run_stdio());
    // Standard input is read on a blocking thread that cannot be interrupted.
    runtime.shutdown_background();
    Ok(())
}
