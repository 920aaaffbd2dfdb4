//! The methods silp-lsp handles. One table gives the input guard its list of
//! handled methods and builds the capabilities advertised at `initialize`, so what
//! the server says it does, what it lets through and what it answers cannot drift
//! apart.

use super::{notifications, requests};
use tower_lsp_server::ls_types as lsp;

/// A method the server handles, and what handling it adds to the capabilities.
pub struct Method {
    pub name: &'static str,
    pub kind: MethodKind,
    pub advertise: fn(&mut lsp::ServerCapabilities),
}

/// Whether the client expects an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodKind {
    Request,
    Notification,
}

/// Protocol methods tower-lsp-server answers itself.
fn nothing(_: &mut lsp::ServerCapabilities) {}

/// Every method silp-lsp handles.
pub const METHODS: &[Method] = &[
    Method {
        name: requests::initialize::METHOD,
        kind: MethodKind::Request,
        advertise: requests::initialize::advertise,
    },
    Method {
        name: notifications::initialized::METHOD,
        kind: MethodKind::Notification,
        advertise: notifications::initialized::advertise,
    },
    Method {
        name: requests::shutdown::METHOD,
        kind: MethodKind::Request,
        advertise: requests::shutdown::advertise,
    },
    Method {
        name: "exit",
        kind: MethodKind::Notification,
        advertise: nothing,
    },
    Method {
        name: "$/cancelRequest",
        kind: MethodKind::Notification,
        advertise: nothing,
    },
    Method {
        name: "$/setTrace",
        kind: MethodKind::Notification,
        advertise: nothing,
    },
    Method {
        name: notifications::did_open::METHOD,
        kind: MethodKind::Notification,
        advertise: notifications::did_open::advertise,
    },
    Method {
        name: notifications::did_change::METHOD,
        kind: MethodKind::Notification,
        advertise: notifications::did_change::advertise,
    },
    Method {
        name: notifications::did_save::METHOD,
        kind: MethodKind::Notification,
        advertise: notifications::did_save::advertise,
    },
    Method {
        name: notifications::did_close::METHOD,
        kind: MethodKind::Notification,
        advertise: notifications::did_close::advertise,
    },
    Method {
        name: notifications::did_change_watched_files::METHOD,
        kind: MethodKind::Notification,
        advertise: notifications::did_change_watched_files::advertise,
    },
    Method {
        name: notifications::did_change_configuration::METHOD,
        kind: MethodKind::Notification,
        advertise: notifications::did_change_configuration::advertise,
    },
    Method {
        name: requests::hover::METHOD,
        kind: MethodKind::Request,
        advertise: requests::hover::advertise,
    },
    Method {
        name: requests::completion::METHOD,
        kind: MethodKind::Request,
        advertise: requests::completion::advertise,
    },
    Method {
        name: requests::code_action::METHOD,
        kind: MethodKind::Request,
        advertise: requests::code_action::advertise,
    },
    Method {
        name: requests::code_action_resolve::METHOD,
        kind: MethodKind::Request,
        advertise: requests::code_action_resolve::advertise,
    },
    Method {
        name: requests::semantic_tokens::METHOD,
        kind: MethodKind::Request,
        advertise: requests::semantic_tokens::advertise,
    },
    Method {
        name: requests::document_symbol::METHOD,
        kind: MethodKind::Request,
        advertise: requests::document_symbol::advertise,
    },
    Method {
        name: requests::formatting::METHOD,
        kind: MethodKind::Request,
        advertise: requests::formatting::advertise,
    },
    Method {
        name: requests::diagnostic::METHOD,
        kind: MethodKind::Request,
        advertise: requests::diagnostic::advertise,
    },
];

/// Whether the server handles `method`.
pub fn handles(method: &str) -> bool {
    METHODS.iter().any(|m| m.name == method)
}

/// The capabilities the handled methods add up to (the position encoding is
/// negotiated at `initialize`).
pub fn server_capabilities() -> lsp::ServerCapabilities {
    let mut capabilities = lsp::ServerCapabilities::default();
    for method in METHODS {
        (method.advertise)(&mut capabilities);
    }
    capabilities
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_is_listed_once_and_advertised() {
        let mut names: Vec<&str> = METHODS.iter().map(|m| m.name).collect();
        names.sort_unstable();
        let count = names.len();
        names.dedup();
        assert_eq!(names.len(), count, "a method listed twice");
        assert!(handles("workspace/didChangeWatchedFiles"));
        let capabilities = server_capabilities();
        let Some(lsp::TextDocumentSyncCapability::Options(sync)) = capabilities.text_document_sync
        else {
            panic!("text synchronisation options");
        };
        assert_eq!(sync.open_close, Some(true));
        assert_eq!(sync.change, Some(lsp::TextDocumentSyncKind::INCREMENTAL));
        assert!(sync.save.is_some());
        assert!(capabilities.hover_provider.is_some());
        assert!(capabilities.completion_provider.is_some());
        assert!(capabilities.code_action_provider.is_some());
        assert!(capabilities.semantic_tokens_provider.is_some());
        assert!(capabilities.document_symbol_provider.is_some());
        assert!(capabilities.document_formatting_provider.is_some());
        assert!(capabilities.diagnostic_provider.is_some());
    }
}
