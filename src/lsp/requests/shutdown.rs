//! `shutdown`: nothing to save; the client's `exit` ends the server.

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "shutdown";

pub fn advertise(_: &mut lsp::ServerCapabilities) {}

pub async fn handle() -> Result<()> {
    Ok(())
}
