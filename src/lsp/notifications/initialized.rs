//! `initialized`: says the server is ready, and how it counts positions.

use crate::lsp::document::Encoding;
use crate::lsp::session::Session;
use std::sync::Arc;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "initialized";

pub fn advertise(_: &mut lsp::ServerCapabilities) {}

pub async fn handle(session: &Arc<Session>, _: lsp::InitializedParams) {
    let encoding = session.lock().encoding;
    session
        .log(
            lsp::MessageType::INFO,
            format!(
                "silp-lsp {} ready (positions in {}; each document is linted with the \
                 silp-lint.toml or pyproject.toml above its file, reloaded when one changes)",
                env!("CARGO_PKG_VERSION"),
                if encoding == Encoding::Utf8 {
                    "UTF-8"
                } else {
                    "UTF-16"
                }
            ),
        )
        .await;
}
