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
//! Fix-all (`source.fixAll.silp-lint`) is what `silp-lint check --fix` writes: the
//! same fix engine, with its meaning check and its rounds to a fixed point; when the
//! engine refuses, no fix-all is offered and the log says why. Offered among other
//! actions (a cursor move) to a client that resolves edits, it comes without its
//! edit, which `codeAction/resolve` computes when it is chosen.
//!
//! Limits, so that no document of up to 10 MB costs seconds or gigabytes (each is
//! documented where it is set):
//! - at most 10,000 diagnostics are published per document
//!   ([`scheduler::MAX_PUBLISHED_DIAGNOSTICS`]); past it, one more (information, at
//!   the first left out) says how many more there are;
//! - at most 10,000 outline entries per answer
//!   ([`requests::document_symbol::MAX_SYMBOLS`]); past it, a last entry says how many
//!   payloads are not listed;
//! - at most 200,000 semantic tokens per document
//!   ([`requests::semantic_tokens::MAX_SEMANTIC_TOKENS`]); past them the editor's
//!   grammar colours the text alone;
//! - a fix-all or a formatting of more than 10,000 edits ([`to_lsp::MAX_EDITS`]) is
//!   sent as one edit from the first change to the last;
//! - a message body is at most 64 MiB ([`transport::MAX_BODY`]); a larger one is
//!   skipped (and logged) without waiting for it, and the server reads on from the
//!   next header;
//! - positions are converted in constant time per position whatever the line's
//!   length and characters, and the changes of one `didChange` cost logarithmic time
//!   each ([`document`]).
//!
//! The process exits with status 0 after `shutdown` and `exit`, and with status 1
//! when `exit` (or the end of the input) comes without `shutdown`, as LSP asks.
//!
//! `codeDescription` links: silp-lint has no published rule pages, so the server
//! links a rule only when the client passes a URL template in
//! `initializationOptions.ruleDocsUrl` (`{code}`, `{code_lower}` and `{name}` are
//! replaced). Without it, diagnostics carry the code (`SL101`) and the source
//! `silp-lint`, and hovering a diagnostic shows the rule's full documentation.

pub mod capabilities;
pub mod completion;
pub mod diff;
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

/// How the client ended a session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// `shutdown`, then `exit` (or the input closed).
    AfterShutdown,
    /// `exit` (or the end of the input) without `shutdown`: LSP asks for status 1.
    WithoutShutdown,
}

/// Serves LSP on `input`/`output` until the client sends `exit` or closes the input.
pub async fn serve<I, O>(input: I, output: O) -> Ending
where
    I: AsyncRead + Unpin + Send + 'static,
    O: AsyncWrite + Unpin + Send + 'static,
{
    let (service, socket) = LspService::new(Backend::new);
    let session = service.inner().session().clone();
    let (server_input, guarded) = tokio::io::duplex(256 * 1024);
    let guard = tokio::spawn(transport::guard_input(input, guarded, session.clone()));
    Server::new(server_input, output, socket)
        .serve(service)
        .await;
    guard.abort();
    if session.is_shut_down() {
        Ending::AfterShutdown
    } else {
        Ending::WithoutShutdown
    }
}

/// Serves LSP on standard input and output.
pub async fn run_stdio() -> Ending {
    serve(tokio::io::stdin(), tokio::io::stdout()).await
}

/// Serves LSP on standard input and output on a runtime of its own; returns when the
/// client sends `exit` or closes standard input after `shutdown`. Without `shutdown`
/// first, the process ends with status 1, as LSP asks of every front end.
///
/// The runtime has one thread: the server's tasks do little between messages (a
/// keystroke's few lines are re-linted in place; every request, and any larger
/// lint, goes to the blocking pool), and passing a keystroke from task to task
/// across threads took 40% of its time (0.50 → 0.29 ms from `didChange` to its
/// diagnostics, in a 10,000-line document).
pub fn serve_stdio() -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let ending = runtime.block_on(run_stdio());
    // Standard input is read on a blocking thread that cannot be interrupted.
    runtime.shutdown_background();
    if ending == Ending::WithoutShutdown {
        std::process::exit(1);
    }
    Ok(())
}
