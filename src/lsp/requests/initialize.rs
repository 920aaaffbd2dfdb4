//! `initialize`: negotiates the position encoding, whether diagnostics are
//! pushed or pulled and whether a fix-all's edit may wait for `codeAction/resolve`,
//! reads the client's options (`ruleDocsUrl`, the `lint` rule
//! selection) and advertises what [`METHODS`] handle.
//!
//! [`METHODS`]: crate::lsp::capabilities::METHODS

use crate::config::Resolver;
use crate::lsp::capabilities::server_capabilities;
use crate::lsp::document::Encoding;
use crate::lsp::requests::diagnostic;
use crate::lsp::scheduler::publisher;
use crate::lsp::session::{draft_from, overrides_from, Delivery, Session};
use std::sync::Arc;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "initialize";

pub fn advertise(_: &mut lsp::ServerCapabilities) {}

pub async fn handle(
    session: &Arc<Session>,
    params: lsp::InitializeParams,
) -> Result<lsp::InitializeResult> {
    let offers_utf8 = params
        .capabilities
        .general
        .as_ref()
        .and_then(|g| g.position_encodings.as_ref())
        .is_some_and(|encodings| encodings.contains(&lsp::PositionEncodingKind::UTF8));
    let encoding = if offers_utf8 {
        Encoding::Utf8
    } else {
        Encoding::Utf16
    };
    let options = params.initialization_options.as_ref();
    let rule_docs_url = options
        .and_then(|o| o.get("ruleDocsUrl"))
        .and_then(|u| u.as_str())
        .map(str::to_string);
    // The editor's rule selection (`silp.lint.select` / `.ignore` in VS Code)
    // applies over every configuration file, as `--select`/`--ignore` do.
    let mut overrides = options
        .and_then(|o| o.get("lint"))
        .map(overrides_from)
        .unwrap_or_default();
    // The editor's draft revision (`silp.draft`) applies over every configuration.
    overrides.draft = options.and_then(draft_from);
    let delivery = diagnostic::delivery(&params.capabilities);
    let resolves_code_action_edits = params
        .capabilities
        .text_document
        .as_ref()
        .and_then(|t| t.code_action.as_ref())
        .and_then(|c| c.resolve_support.as_ref())
        .is_some_and(|r| r.properties.iter().any(|p| p == "edit"));
    {
        let mut state = session.lock();
        state.encoding = encoding;
        state.delivery = delivery;
        state.resolves_code_action_edits = resolves_code_action_edits;
        state.rule_docs_url = rule_docs_url;
        state.resolver = Arc::new(Resolver::discover(overrides.clone()));
        state.overrides = overrides;
    }
    if let Some(receiver) = session.take_outgoing() {
        tokio::spawn(publisher(session.clone(), receiver));
    }
    let mut capabilities = server_capabilities();
    if delivery == Delivery::Push {
        capabilities.diagnostic_provider = None;
    }
    capabilities.position_encoding = Some(if offers_utf8 {
        lsp::PositionEncodingKind::UTF8
    } else {
        lsp::PositionEncodingKind::UTF16
    });
    Ok(lsp::InitializeResult {
        capabilities,
        server_info: Some(lsp::ServerInfo {
            name: "silp-lsp".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }),
        offset_encoding: None,
    })
}
