//! `textDocument/codeAction`: a quick fix per fixable diagnostic under the
//! cursor (preferred when safe), and "fix all safe problems" for the document.

use crate::diagnostics::{Applicability, Diagnostic, Fix};
use crate::lint::lint_document;
use crate::lsp::session::Session;
use crate::lsp::to_lsp;
use crate::source::Span;
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
            resolve_provider: Some(false),
        },
    ));
}

pub async fn handle(
    session: &Arc<Session>,
    params: lsp::CodeActionParams,
) -> Result<Option<lsp::CodeActionResponse>> {
    let uri = params.text_document.uri;
    // Diagnostics with fixes, as library values and converted, from a current lint.
    let found = {
        let state = session.lock();
        state.docs.get(uri.as_str()).map(|doc| {
            let fixable: Option<Vec<(Diagnostic, lsp::Diagnostic)>> =
                doc.current_lint().map(|lint| {
                    lint.diagnostics
                        .iter()
                        .filter(|d| d.fix.is_some())
                        .map(|d| (d.clone(), to_lsp::diagnostic(d, doc, &state)))
                        .collect()
                });
            (
                doc.snapshot.clone(),
                state.encoding,
                doc.settings.clone(),
                fixable,
            )
        })
    };
    let Some((snapshot, encoding, settings, fixable)) = found else {
        return Ok(None);
    };
    let fixable = match fixable {
        Some(fixable) => fixable,
        None => {
            // The text changed since the last lint: lint it now.
            let parsed = snapshot.clone();
            let lint = session
                .blocking("linting for code actions", move || {
                    lint_document(parsed.document(), &settings)
                })
                .await
                .unwrap_or_default();
            let state = session.lock();
            let Some(doc) = state.docs.get(uri.as_str()) else {
                return Ok(None);
            };
            if doc.snapshot.text != snapshot.text {
                return Ok(None);
            }
            lint.diagnostics
                .into_iter()
                .filter(|d| d.fix.is_some())
                .map(|d| {
                    let converted = to_lsp::diagnostic(&d, doc, &state);
                    (d, converted)
                })
                .collect()
        }
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
        for (diagnostic, converted) in &fixable {
            let Some(fix) = &diagnostic.fix else {
                continue;
            };
            let touches =
                diagnostic.span.start <= requested.end && requested.start <= diagnostic.span.end;
            if !touches {
                continue;
            }
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
                diagnostics: Some(vec![converted.clone()]),
                edit: Some(lsp::WorkspaceEdit {
                    changes: Some(HashMap::from([(
                        uri.clone(),
                        to_lsp::fix_edits(fix, &snapshot, encoding),
                    )])),
                    ..Default::default()
                }),
                is_preferred: Some(safe),
                ..Default::default()
            }));
        }
    }
    if wants(FIX_ALL_KIND) {
        let fixes: Vec<Fix> = fixable.iter().filter_map(|(d, _)| d.fix.clone()).collect();
        let chosen = non_overlapping_safe_fixes(&fixes);
        if !chosen.is_empty() {
            let mut edits: Vec<lsp::TextEdit> = chosen
                .iter()
                .flat_map(|fix| to_lsp::fix_edits(fix, &snapshot, encoding))
                .collect();
            edits.sort_by_key(|e| (e.range.start.line, e.range.start.character));
            actions.push(lsp::CodeActionOrCommand::CodeAction(lsp::CodeAction {
                title: format!("Fix all safe silp-lint problems ({})", chosen.len()),
                kind: Some(lsp::CodeActionKind::new(FIX_ALL_KIND)),
                edit: Some(lsp::WorkspaceEdit {
                    changes: Some(HashMap::from([(uri.clone(), edits)])),
                    ..Default::default()
                }),
                ..Default::default()
            }));
        }
    }
    Ok((!actions.is_empty()).then_some(actions))
}

/// Picks safe fixes whose edits overlap neither each other nor earlier picks.
fn non_overlapping_safe_fixes(fixes: &[Fix]) -> Vec<&Fix> {
    let mut sorted: Vec<&Fix> = fixes
        .iter()
        .filter(|f| f.applicability == Applicability::Safe && !f.edits.is_empty())
        .collect();
    sorted.sort_by_key(|f| f.edits.iter().map(|e| e.span.start).min().unwrap_or(0));
    let mut taken: Vec<Span> = Vec::new();
    let mut out = Vec::new();
    for fix in sorted {
        let clashes = fix.edits.iter().any(|e| {
            taken.iter().any(|t| {
                e.span.start < t.end && t.start < e.span.end
                    || (e.span.start == e.span.end && e.span.start == t.start)
            })
        });
        if !clashes {
            taken.extend(fix.edits.iter().map(|e| e.span.clone()));
            out.push(fix);
        }
    }
    out
}
