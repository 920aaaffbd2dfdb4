//! `textDocument/codeAction`: a quick fix per fixable diagnostic under the
//! cursor (preferred when safe), and "fix all safe problems" for the document.
//!
//! Fix-all is what `silp-lint check --fix` writes: the library's fix engine
//! ([`crate::fix::fix_text`], safe fixes only) runs rounds to a fixed point and
//! refuses a round that would change a payload's meaning or break its syntax. Its
//! result goes to the client as small edits ([`crate::lsp::diff`]; past
//! [`to_lsp::MAX_EDITS`], one from the first change to the last). When the engine
//! refuses, no fix-all is offered and the log says why. It runs only when a lint
//! found a safe fix, once per version and settings.
//!
//! Editors ask for code actions on every cursor move, and the engine takes seconds
//! on a 10 MB document; so a fix-all offered among other actions (the light bulb,
//! the Source Action menu) comes without its edit to a client that can resolve
//! one, which [`super::code_action_resolve`] computes when it is chosen. Asked for
//! by its kind (`source.fixAll`, as on save), or already computed for the version,
//! it comes with its edit.

use crate::diagnostics::{Applicability, Diagnostic};
use crate::fix::fix_text;
use crate::lint::FileLint;
use crate::lsp::diff;
use crate::lsp::document::{Encoding, Snapshot};
use crate::lsp::scheduler::MAX_PUBLISHED_DIAGNOSTICS;
use crate::lsp::session::{FixAll, FixAllEdits, Session};
use crate::lsp::to_lsp;
use crate::settings::Settings;
use std::collections::HashMap;
use std::sync::Arc;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "textDocument/codeAction";

/// The code action kind of "fix all safe problems".
pub const FIX_ALL_KIND: &str = "source.fixAll.silp-lint";

pub fn advertise(capabilities: &mut lsp::ServerCapabilities) {
    capabilities.code_action_provider = Some(lsp::CodeActionProviderCapability::Options(
        lsp::CodeActionOptions {
            code_action_kinds: Some(vec![
                lsp::CodeActionKind::QUICKFIX,
                lsp::CodeActionKind::new(FIX_ALL_KIND),
            ]),
            work_done_progress_options: Default::default(),
            resolve_provider: Some(true),
        },
    ));
}

pub async fn handle(
    session: &Arc<Session>,
    params: lsp::CodeActionParams,
) -> Result<Option<lsp::CodeActionResponse>> {
    let uri = params.text_document.uri;
    let Some((snapshot, encoding, settings, lint)) = current_lint(session, &uri).await else {
        return Ok(None);
    };
    let requested = snapshot.span(params.range, encoding);
    let only = params.context.only.unwrap_or_default();
    let wants = |kind: &str| {
        only.is_empty()
            || only
                .iter()
                .any(|o| kind == o.as_str() || kind.starts_with(&format!("{}.", o.as_str())))
    };
    let mut actions = Vec::new();
    if wants(lsp::CodeActionKind::QUICKFIX.as_str()) {
        let touching: Vec<&Diagnostic> = lint
            .diagnostics
            .iter()
            .filter(|d| d.fix.is_some())
            .filter(|d| d.span.start <= requested.end && requested.start <= d.span.end)
            .take(MAX_PUBLISHED_DIAGNOSTICS)
            .collect();
        let state = session.lock();
        // Diagnostics convert against the document's current text: the one linted.
        let Some(doc) = state
            .docs
            .get(uri.as_str())
            .filter(|doc| Arc::ptr_eq(&doc.snapshot.text, &snapshot.text))
        else {
            return Ok(None);
        };
        for diagnostic in touching {
            let Some(fix) = &diagnostic.fix else {
                continue;
            };
            let safe = fix.applicability == Applicability::Safe;
            let title = if safe {
                format!("{} ({})", fix.message, diagnostic.rule.code)
            } else {
                format!(
                    "{} ({}, unsafe: review it)",
                    fix.message, diagnostic.rule.code
                )
            };
            actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title,
                kind: Some(lsp::CodeActionKind::QUICKFIX),
                diagnostics: Some(vec![to_lsp::diagnostic(diagnostic, doc, &state)]),
                edit: Some(workspace_edit(
                    &uri,
                    to_lsp::fix_edits(fix, &snapshot, encoding),
                )),
                is_preferred: Some(safe),
                ..Default::default()
            }));
        }
    }
    let has_safe_fix = lint.diagnostics.iter().any(|d| {
        d.fix
            .as_ref()
            .is_some_and(|f| f.applicability == Applicability::Safe)
    });
    if wants(FIX_ALL_KIND) && has_safe_fix {
        let asked_by_kind = only
            .iter()
            .any(|o| o.as_str() == "source.fixAll" || o.as_str() == FIX_ALL_KIND);
        let deferred = session.lock().resolves_code_action_edits
            && !asked_by_kind
            && cached_fix_all(session, &uri, &snapshot, &settings).is_none();
        if deferred {
            actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: "Fix all safe silp-lint problems".to_string(),
                kind: Some(lsp::CodeActionKind::new(FIX_ALL_KIND)),
                data: Some(serde_json::json!({ "uri": uri.as_str() })),
                ..Default::default()
            }));
        } else if let Ok(fixed) = fix_all(session, &uri, snapshot, settings, encoding)
            .await
            .as_ref()
        {
            if !fixed.edits.is_empty() {
                actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                    title: format!("Fix all safe silp-lint problems ({})", fixed.applied),
                    kind: Some(lsp::CodeActionKind::new(FIX_ALL_KIND)),
                    edit: Some(workspace_edit(&uri, fixed.edits.clone())),
                    ..Default::default()
                }));
            }
        }
    }
    Ok((!actions.is_empty()).then_some(actions))
}

/// Whether an action is this server's fix-all: the kind it was offered with.
pub fn is_fix_all(action: &lsp::CodeAction) -> bool {
    action
        .kind
        .as_ref()
        .is_some_and(|kind| kind.as_str() == FIX_ALL_KIND)
}

pub fn workspace_edit(uri: &lsp::Uri, edits: Vec<lsp::TextEdit>) -> lsp::WorkspaceEdit {
    lsp::WorkspaceEdit {
        changes: Some(HashMap::from([(uri.clone(), edits)])),
        ..Default::default()
    }
}

/// The document's snapshot, encoding and settings with a lint of that snapshot: the
/// last one when it is current, else one made now.
async fn current_lint(
    session: &Arc<Session>,
    uri: &lsp::Uri,
) -> Option<(Snapshot, Encoding, Arc<Settings>, Arc<FileLint>)> {
    let (snapshot, encoding, settings, lint) = {
        let state = session.lock();
        let doc = state.docs.get(uri.as_str())?;
        let lint = doc
            .lint
            .as_ref()
            .filter(|_| doc.current_lint().is_some())
            .map(|state| state.lint.clone());
        (
            doc.snapshot.clone(),
            state.encoding,
            doc.settings.clone(),
            lint,
        )
    };
    if let Some(lint) = lint {
        return Some((snapshot, encoding, settings, lint));
    }
    // The text changed since the last lint: lint it now.
    let linted = snapshot.clone();
    let lint_settings = settings.clone();
    let lint = session
        .blocking("linting for code actions", move || {
            linted.lint(&lint_settings)
        })
        .await
        .unwrap_or_default();
    let unchanged = session
        .lock()
        .docs
        .get(uri.as_str())
        .is_some_and(|doc| doc.snapshot.text == snapshot.text);
    unchanged.then(|| (snapshot, encoding, settings, Arc::new(lint)))
}

/// The fix-all computed for this snapshot with these settings, if one was.
fn cached_fix_all(
    session: &Session,
    uri: &lsp::Uri,
    snapshot: &Snapshot,
    settings: &Arc<Settings>,
) -> Option<Arc<std::result::Result<FixAllEdits, String>>> {
    let state = session.lock();
    let cached = state.fix_all.get(uri.as_str())?;
    (Arc::ptr_eq(&cached.text, &snapshot.text) && Arc::ptr_eq(&cached.settings, settings))
        .then(|| cached.outcome.clone())
}

/// The fix-all of a snapshot with its settings: from the cache when computed for
/// both, else computed now (a refusal is logged then).
pub async fn fix_all(
    session: &Arc<Session>,
    uri: &lsp::Uri,
    snapshot: Snapshot,
    settings: Arc<Settings>,
    encoding: Encoding,
) -> Arc<std::result::Result<FixAllEdits, String>> {
    let key = uri.as_str();
    if let Some(cached) = cached_fix_all(session, uri, &snapshot, &settings) {
        return cached;
    }
    let text = snapshot.text.clone();
    let engine_settings = settings.clone();
    let outcome = session
        .blocking("fix all", move || {
            let outcome =
                fix_text(&snapshot.text, snapshot.kind, &engine_settings, false).map(|fixed| {
                    FixAllEdits {
                        applied: fixed.applied,
                        edits: to_lsp::text_edits(
                            diff::edits(&snapshot.text, &fixed.text),
                            &snapshot,
                            encoding,
                        ),
                    }
                });
            if snapshot.text.len() >= crate::memory::LARGE_BUFFER_BYTES {
                // The engine's rounds freed their lints and texts: given back, they
                // are not held beside the cached edits until the next allocation.
                crate::memory::return_freed_pages();
            }
            outcome
        })
        .await
        .unwrap_or_else(|| Err("the fix engine failed".to_string()));
    if let Err(why) = &outcome {
        session
            .log(
                lsp::MessageType::WARNING,
                format!("silp-lint: no fix-all for {key}: {why}"),
            )
            .await;
    }
    let outcome = Arc::new(outcome);
    let mut state = session.lock();
    if state.docs.contains_key(key) {
        state.fix_all.insert(
            key.to_string(),
            FixAll {
                text,
                settings,
                outcome: outcome.clone(),
            },
        );
    }
    outcome
}
