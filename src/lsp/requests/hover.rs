//! `textDocument/hover`: what the token under the cursor means (a verb, an anchor,
//! a frontend, an IR key), and the documentation of each rule reported there.

use crate::diagnostics::RuleMeta;
use crate::lsp::hover;
use crate::lsp::semantic::Meaning;
use crate::lsp::session::Session;
use crate::settings::Settings;
use crate::source::Span;
use std::sync::Arc;
use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types as lsp;

pub const METHOD: &str = "textDocument/hover";

pub fn advertise(capabilities: &mut lsp::ServerCapabilities) {
    capabilities.hover_provider = Some(lsp::HoverProviderCapability::Simple(true));
}

pub async fn handle(
    session: &Arc<Session>,
    params: lsp::HoverParams,
) -> Result<Option<lsp::Hover>> {
    let position = params.text_document_position_params;
    let found = {
        let state = session.lock();
        state
            .docs
            .get(position.text_document.uri.as_str())
            .map(|doc| {
                let offset = doc.snapshot.offset(position.position, state.encoding);
                let rules: Vec<(&'static RuleMeta, Span)> = doc
                    .current_lint()
                    .map(|lint| {
                        lint.diagnostics
                            .iter()
                            .chain(&doc.cross)
                            .filter(|d| d.span.start <= offset && offset <= d.span.end)
                            .map(|d| (d.rule, d.span.clone()))
                            .collect()
                    })
                    .unwrap_or_default();
                (
                    doc.snapshot.clone(),
                    offset,
                    rules,
                    state.encoding,
                    doc.settings.clone(),
                )
            })
    };
    let Some((snapshot, offset, rules, encoding, settings)) = found else {
        return Ok(None);
    };
    let parsed = snapshot.clone();
    let token = session
        .blocking("hover", move || parsed.token_at(offset))
        .await
        .flatten();
    let mut sections = Vec::new();
    let mut range = None;
    if let Some(token) = &token {
        if let Some(text) = meaning(&token.meaning, &settings) {
            sections.push(text);
            range = Some(snapshot.range(&token.span, encoding));
        }
    }
    let mut seen: Vec<&str> = Vec::new();
    for (rule, span) in &rules {
        if seen.contains(&rule.code) {
            continue;
        }
        seen.push(rule.code);
        sections.push(hover::rule(rule));
        range.get_or_insert_with(|| snapshot.range(span, encoding));
    }
    if sections.is_empty() {
        return Ok(None);
    }
    Ok(Some(lsp::Hover {
        contents: lsp::HoverContents::Markup(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: sections.join("\n\n---\n\n"),
        }),
        range,
    }))
}

fn meaning(meaning: &Meaning, settings: &Settings) -> Option<String> {
    match meaning {
        Meaning::None => None,
        Meaning::Verb(verb) => Some(hover::verb(verb, settings)),
        Meaning::Anchor(anchor) => Some(hover::anchor(anchor, settings)),
        Meaning::Frontend(name) => Some(hover::frontend(name, settings)),
        Meaning::Key(path) => Some(hover::key(path)),
    }
}
