//! Conversions from the library's values to LSP types: diagnostics (positions in
//! the negotiated encoding, related places in other open documents), fix edits,
//! semantic tokens, symbol and completion kinds.

use super::completion::ItemKind;
use super::document::{Encoding, Snapshot};
use super::semantic::{self, SymbolKind as PayloadKind, TOKEN_MODIFIERS, TOKEN_TYPES};
use super::session::{OpenDocument, State};
use crate::diagnostics::{apply_edits, Diagnostic, Edit, Fix, Severity};
use std::str::FromStr;
use tower_lsp_server::ls_types::{self as lsp, Uri};

/// The `source` field of every diagnostic.
pub const SOURCE: &str = "silp-lint";

pub fn severity(severity: Severity) -> lsp::DiagnosticSeverity {
    match severity {
        Severity::Error => lsp::DiagnosticSeverity::ERROR,
        Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
        Severity::Hint => lsp::DiagnosticSeverity::HINT,
    }
}

/// A library diagnostic in the protocol's terms, with positions in the
/// negotiated encoding and related places in other open documents.
pub fn diagnostic(d: &Diagnostic, doc: &OpenDocument, state: &State) -> lsp::Diagnostic {
    let encoding = state.encoding;
    let message = match &d.help {
        Some(help) => format!("{}\nhelp: {help}", d.message),
        None => d.message.clone(),
    };
    let related: Vec<lsp::DiagnosticRelatedInformation> = d
        .related
        .iter()
        .filter_map(|r| {
            let other = match &r.path {
                Some(path) => state.docs.get(path)?,
                None => doc,
            };
            Some(lsp::DiagnosticRelatedInformation {
                location: lsp::Location {
                    uri: other.uri.clone(),
                    range: other.snapshot.range(&r.span, encoding),
                },
                message: r.message.clone(),
            })
        })
        .collect();
    let code_description = state.rule_docs_url.as_ref().and_then(|template| {
        let href = template
            .replace("{code}", d.rule.code)
            .replace("{code_lower}", &d.rule.code.to_lowercase())
            .replace("{name}", d.rule.name);
        Uri::from_str(&href)
            .ok()
            .map(|href| lsp::CodeDescription { href })
    });
    lsp::Diagnostic {
        range: doc.snapshot.range(&d.span, encoding),
        severity: Some(severity(d.severity)),
        code: Some(lsp::NumberOrString::String(d.rule.code.to_string())),
        code_description,
        source: Some(SOURCE.to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        tags: None,
        data: None,
    }
}

/// The diagnostic that stands for `count` more a document has beyond the `limit`
/// published, at the first of them.
pub fn left_out(count: usize, limit: usize, at: lsp::Range) -> lsp::Diagnostic {
    lsp::Diagnostic {
        range: at,
        severity: Some(lsp::DiagnosticSeverity::INFORMATION),
        source: Some(SOURCE.to_string()),
        message: format!(
            "{count} more diagnostics from here on are not shown: silp-lsp publishes at \
             most {limit} per document (`silp-lint check` lists them all)"
        ),
        ..Default::default()
    }
}

/// The most edits sent at once for one document (a fix-all, a formatting): past
/// them, one edit from the first change to the last. An edit costs the client far
/// more than the text it replaces: formatting a 10 MB document of 833,333 changed
/// lines, sent line by line, took the server 9 s and 2.4 GiB.
pub const MAX_EDITS: usize = 10_000;

/// `edits` of `snapshot`'s text (sorted, not overlapping) in the protocol's terms,
/// or past [`MAX_EDITS`] as one edit that does what they do.
pub fn text_edits(edits: Vec<Edit>, snapshot: &Snapshot, encoding: Encoding) -> Vec<lsp::TextEdit> {
    let edits = if edits.len() > MAX_EDITS {
        let edited = apply_edits(&snapshot.text, &edits);
        vec![Edit::minimal(0, &snapshot.text, &edited)]
    } else {
        edits
    };
    edits
        .into_iter()
        .map(|edit| lsp::TextEdit {
            range: snapshot.range(&edit.span, encoding),
            new_text: edit.content,
        })
        .collect()
}

/// The text edits of a fix in the protocol's terms.
pub fn fix_edits(fix: &Fix, snapshot: &Snapshot, encoding: Encoding) -> Vec<lsp::TextEdit> {
    fix.edits
        .iter()
        .map(|edit| lsp::TextEdit {
            range: snapshot.range(&edit.span, encoding),
            new_text: edit.content.clone(),
        })
        .collect()
}

pub fn semantic_legend() -> lsp::SemanticTokensLegend {
    lsp::SemanticTokensLegend {
        token_types: TOKEN_TYPES
            .iter()
            .map(|t| lsp::SemanticTokenType::new(t))
            .collect(),
        token_modifiers: TOKEN_MODIFIERS
            .iter()
            .map(|m| lsp::SemanticTokenModifier::new(m))
            .collect(),
    }
}

/// Encodes tokens as the protocol's relative five-tuples, one line per token.
pub fn encode_tokens(
    tokens: &[semantic::Token],
    snapshot: &Snapshot,
    encoding: Encoding,
) -> Vec<lsp::SemanticToken> {
    let mut out = Vec::with_capacity(tokens.len());
    let (mut line, mut column) = (0u32, 0u32);
    for token in tokens {
        let start = snapshot.position(token.span.start, encoding);
        let line_end = snapshot
            .index
            .line_range(start.line as usize, &snapshot.text)
            .end;
        let end = snapshot.position(token.span.end.min(line_end), encoding);
        if end.line != start.line || end.character <= start.character {
            continue;
        }
        let delta_line = start.line - line;
        let delta_start = if delta_line == 0 {
            start.character - column
        } else {
            start.character
        };
        out.push(lsp::SemanticToken {
            delta_line,
            delta_start,
            length: end.character - start.character,
            token_type: token.kind as u32,
            token_modifiers_bitset: token.modifiers,
        });
        line = start.line;
        column = start.character;
    }
    out
}

pub fn symbol_kind(kind: PayloadKind) -> lsp::SymbolKind {
    match kind {
        PayloadKind::Payload => lsp::SymbolKind::FUNCTION,
        PayloadKind::Probe => lsp::SymbolKind::INTERFACE,
        PayloadKind::Message => lsp::SymbolKind::EVENT,
        PayloadKind::Object => lsp::SymbolKind::OBJECT,
    }
}

pub fn completion_kind(kind: ItemKind) -> lsp::CompletionItemKind {
    match kind {
        ItemKind::Verb => lsp::CompletionItemKind::FUNCTION,
        ItemKind::Anchor => lsp::CompletionItemKind::ENUM_MEMBER,
        ItemKind::Frontend => lsp::CompletionItemKind::VALUE,
        ItemKind::Key => lsp::CompletionItemKind::PROPERTY,
        ItemKind::Keyword => lsp::CompletionItemKind::KEYWORD,
    }
}
