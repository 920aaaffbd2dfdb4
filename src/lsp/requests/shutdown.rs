//! `shutdown`: nothing to save; the client's `exit` ends the server (with status 0
//! after `shutdown`, which the input guard records as it passes).

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "shutdown";

pub fn advertise(_: &mut lsp::ServerCapabilities) {}

pub async fn handle() -> Result<()> {
    Ok(())
}
