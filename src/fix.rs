//! The fix engine behind `check --fix`: apply the fixes rules attach to their
//! diagnostics, round after round, until nothing more can be fixed.
//!
//! Each round lints the text, takes the allowed fixes (safe ones, and unsafe ones when
//! asked) in file order, skips any fix whose edits overlap or touch one already
//! taken (it is retried after the next lint, against the new text), applies them and
//! checks the result. The loop stops when a round applies nothing, or after
//! [`MAX_ROUNDS`].
//!
//! The check compares every payload before and after the round: each payload that
//! parsed must still parse, and must still decode to the same IR (or the same SLIP
//! tokens) unless one of the fixes that touched it is allowed to change its meaning
//! (an unsafe fix, or a safe normalisation such as an upper-cased action code; see
//! [`MEANING_PRESERVING`]). A round that fails the check is refused: the whole file
//! is left as it was and the reason is returned.

use crate::diagnostics::{apply_edits, is_valid_span, Applicability, Diagnostic, Edit, Fix};
use crate::ir::{from_code, from_json};
use crate::lint::lint_text;
use crate::settings::Settings;
use crate::source::{FileKind, LineIndex, Span};
use crate::syntax::json::{parse_json, JsonNode, JsonValue};
use crate::syntax::lines::split_trailing_comment;
use crate::syntax::region::{regions, Region};
use crate::syntax::{code, ping, slip};
use std::collections::BTreeMap;

/// The most lint-and-fix rounds one file gets.
pub const MAX_ROUNDS: usize = 10;

/// Rules whose safe fixes keep every payload's decoded meaning exactly: formatting
/// (SL504), nonstandard syntax (SL505), removing `null` optional fields (SL408) and
/// lower-casing function names (SL104). The other safe fixes normalise a value
/// (`!cancel` → `!CANCEL`, an excluded verb → its replacement, a req_id's case, an
/// anchor's case), so the IR they decode to differs by design.
pub const MEANING_PRESERVING: [&str; 4] = ["SL104", "SL408", "SL504", "SL505"];

/// Whether a fix of this applicability may be applied.
fn allowed(fix: &Fix, unsafe_fixes: bool) -> bool {
    fix.applicability == Applicability::Safe || unsafe_fixes
}

/// The result of fixing one text.
#[derive(Debug)]
pub struct Fixed {
    /// The text after every applied fix.
    pub text: String,
    /// How many diagnostics' fixes were applied.
    pub applied: usize,
    /// How many of them each rule had, by code.
    pub by_rule: BTreeMap<&'static str, usize>,
}

/// Fixes `text` (a file of `kind`) to a fixed point; `Err` says why the fixes were
/// refused, in which case nothing of the file should change.
pub fn fix_text(
    text: &str,
    kind: FileKind,
    settings: &Settings,
    unsafe_fixes: bool,
) -> Result<Fixed, String> {
    fix_with(text, kind, unsafe_fixes, &|current| {
        lint_text(current, kind, settings).diagnostics
    })
}

/// [`fix_text`] with the linting step given: `lint` returns the diagnostics of a
/// text of `kind` (what the language server or a test supplies).
pub fn fix_with(
    text: &str,
    kind: FileKind,
    unsafe_fixes: bool,
    lint: &dyn Fn(&str) -> Vec<Diagnostic>,
) -> Result<Fixed, String> {
    let mut current = text.to_string();
    let mut applied = 0;
    let mut by_rule = BTreeMap::new();
    for _ in 0..MAX_ROUNDS {
        let diagnostics = lint(&current);
        let chosen = choose(&current, &diagnostics, unsafe_fixes);
        if chosen.is_empty() {
            break;
        }
        let mut edits: Vec<Edit> = chosen
            .iter()
            .flat_map(|d| d.fix.iter().flat_map(|f| f.edits.iter().cloned()))
            .collect();
        edits.sort_by_key(|e| (e.span.start, e.span.end));
        let next = apply_edits(&current, &edits);
        if next == current {
            break;
        }
        verify(&current, &next, kind, &chosen)?;
        applied += chosen.len();
        for diagnostic in &chosen {
            *by_rule.entry(diagnostic.code()).or_insert(0) += 1;
        }
        current = next;
    }
    Ok(Fixed {
        text: current,
        applied,
        by_rule,
    })
}

/// The diagnostics whose fixes are applied this round: allowed, with valid edits,
/// and not overlapping or touching an earlier one (those wait for the next round).
fn choose<'d>(
    text: &str,
    diagnostics: &'d [Diagnostic],
    unsafe_fixes: bool,
) -> Vec<&'d Diagnostic> {
    let mut candidates: Vec<(Span, &Diagnostic)> = diagnostics
        .iter()
        .filter_map(|d| {
            let fix = d.fix.as_ref().filter(|f| allowed(f, unsafe_fixes))?;
            let mut spans: Vec<&Span> = fix.edits.iter().map(|e| &e.span).collect();
            if spans.is_empty() || !spans.iter().all(|s| is_valid_span(text, s)) {
                return None;
            }
            spans.sort_by_key(|s| (s.start, s.end));
            // A fix whose own edits overlap cannot be applied in any order.
            if spans
                .windows(2)
                .any(|w| w[1].start < w[0].end || w[1].start == w[0].start)
            {
                return None;
            }
            let start = spans.first().map_or(0, |s| s.start);
            let end = spans.iter().map(|s| s.end).max().unwrap_or(start);
            Some((start..end, d))
        })
        .collect();
    candidates.sort_by_key(|(span, _)| (span.start, span.end));
    let mut chosen = Vec::new();
    let mut last_end: Option<usize> = None;
    for (span, diagnostic) in candidates {
        if last_end.is_some_and(|end| span.start <= end) {
            continue;
        }
        last_end = Some(span.end);
        chosen.push(diagnostic);
    }
    chosen
}

/// What one payload means, for comparing a text before and after a change: its IR
/// (or SLIP tokens, or JSON value) serialised, or `None` when it does not parse.
#[derive(Debug, PartialEq)]
pub struct PayloadMeaning {
    pub span: Span,
    pub meaning: Option<String>,
}

/// The meaning of every payload of a file of `kind`, in file order.
pub fn payload_meanings(text: &str, kind: FileKind) -> Vec<PayloadMeaning> {
    let mut out = Vec::new();
    for region in regions(text, kind) {
        meanings_in(&region, &mut out);
    }
    out
}

fn meanings_in(region: &Region, out: &mut Vec<PayloadMeaning>) {
    match region.kind {
        FileKind::Silp => {
            for line in region.lines() {
                if line.is_blank_or_comment() {
                    continue;
                }
                let payload = split_trailing_comment(line.text).0;
                let meaning = if ping::is_probe(payload) {
                    let (_, errors) = ping::parse_probe(payload, line.start);
                    errors
                        .is_empty()
                        .then(|| payload.split_whitespace().collect::<Vec<_>>().join(" "))
                } else {
                    code_meaning(payload)
                };
                out.push(PayloadMeaning {
                    span: line.span(),
                    meaning,
                });
            }
        }
        FileKind::Slip => {
            for line in region.lines() {
                if line.is_blank_or_comment() {
                    continue;
                }
                let parse = slip::parse_message(line.text, line.start);
                let meaning = parse.message.filter(|_| parse.errors.is_empty()).map(|m| {
                    let fields = [
                        Some(&m.marker),
                        m.version.as_ref(),
                        m.src.as_ref(),
                        m.dst.as_ref(),
                        m.anchor.as_ref(),
                    ];
                    let texts: Vec<&str> = fields
                        .into_iter()
                        .flatten()
                        .map(|t| t.text)
                        .chain(m.payload.iter().map(|p| p.text))
                        .collect();
                    texts.join("\u{0}")
                });
                out.push(PayloadMeaning {
                    span: line.span(),
                    meaning,
                });
            }
        }
        FileKind::SilpJson => json_meanings(&region.text(), region.span.start, true, out),
        FileKind::SilpJsonl => {
            for line in region.lines() {
                if !line.text.trim().is_empty() {
                    json_meanings(line.text, line.start, false, out);
                }
            }
        }
        FileKind::Nlip => nlip_meanings(&region.text(), region.span.clone(), out),
        FileKind::Markdown => {}
    }
}

/// An NLIP message: the envelope (carried payload strings left out), then each
/// carried SILP or SLIP payload decoded as its own text, so a fix inside a carried
/// payload is judged by that payload's meaning.
fn nlip_meanings(text: &str, span: Span, out: &mut Vec<PayloadMeaning>) {
    let parse = parse_json(text, span.start);
    let Some(root) = parse.value.filter(|_| parse.errors.is_empty()) else {
        out.push(PayloadMeaning {
            span,
            meaning: None,
        });
        return;
    };
    let carried: Vec<(FileKind, &JsonNode)> = crate::syntax::nlip::messages(&root)
        .into_iter()
        .filter_map(crate::syntax::nlip::carried_payload)
        // A carried object is part of the envelope's own JSON meaning.
        .filter(|(_, node)| node.as_str().is_some())
        .collect();
    let spans: Vec<&Span> = carried.iter().map(|(_, node)| &node.span).collect();
    out.push(PayloadMeaning {
        span: span.clone(),
        meaning: Some(without_strings(&root, &spans).to_string()),
    });
    for (kind, node) in carried {
        let decoded = node.as_str().unwrap_or_default();
        for inner in payload_meanings(decoded, kind) {
            out.push(PayloadMeaning {
                span: node.span.clone(),
                meaning: inner.meaning,
            });
        }
    }
}

/// A JSON value with the strings at `spans` replaced by `null`.
fn without_strings(node: &JsonNode, spans: &[&Span]) -> serde_json::Value {
    match &node.value {
        JsonValue::String(_) if spans.contains(&&node.span) => serde_json::Value::Null,
        JsonValue::Array(items) => items.iter().map(|i| without_strings(i, spans)).collect(),
        JsonValue::Object(members) => serde_json::Value::Object(
            members
                .iter()
                .map(|m| (m.key.clone(), without_strings(&m.value, spans)))
                .collect(),
        ),
        _ => node.to_serde(),
    }
}

fn code_meaning(payload: &str) -> Option<String> {
    let parse = code::parse_payload(payload, 0);
    if !parse.errors.is_empty() {
        return None;
    }
    let tree = parse.payload?;
    let mut meaning = serde_json::to_string(&from_code::decode(&tree)).ok()?;
    // `with NAME` has no IR counterpart; it is part of what the line says.
    if let Some((_, name)) = &tree.with {
        meaning.push_str("\u{0}with ");
        meaning.push_str(name.text);
    }
    Some(meaning)
}

fn json_meanings(text: &str, base: usize, allow_array: bool, out: &mut Vec<PayloadMeaning>) {
    let parse = parse_json(text, base);
    let Some(root) = parse.value.filter(|_| parse.errors.is_empty()) else {
        out.push(PayloadMeaning {
            span: base..base + text.len(),
            meaning: None,
        });
        return;
    };
    match &root.value {
        JsonValue::Array(items) if allow_array => {
            for item in items {
                out.push(json_meaning(item));
            }
        }
        _ => out.push(json_meaning(&root)),
    }
}

fn json_meaning(node: &JsonNode) -> PayloadMeaning {
    let meaning = if matches!(node.value, JsonValue::Object(_)) {
        serde_json::to_string(&from_json::decode(node)).ok()
    } else {
        Some(node.to_serde().to_string())
    };
    PayloadMeaning {
        span: node.span.clone(),
        meaning,
    }
}

/// Checks a round's result against the text it started from (see the module docs).
fn verify(old: &str, new: &str, kind: FileKind, chosen: &[&Diagnostic]) -> Result<(), String> {
    let before = payload_meanings(old, kind);
    let after = payload_meanings(new, kind);
    let index = LineIndex::new(old);
    let place = |span: &Span| {
        let at = index.location(old, span.start);
        format!("{}:{}", at.line, at.column)
    };
    let touching = |span: &Span| -> Vec<&Diagnostic> {
        chosen
            .iter()
            .copied()
            .filter(|d| {
                d.fix
                    .iter()
                    .flat_map(|f| &f.edits)
                    .any(|e| e.span.start <= span.end && e.span.end >= span.start)
            })
            .collect()
    };
    let codes = |diagnostics: &[&Diagnostic]| {
        let mut codes: Vec<&str> = diagnostics.iter().map(|d| d.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        if codes.is_empty() {
            "the fixes".to_string()
        } else {
            format!("the {} fix", codes.join(", "))
        }
    };
    if before.len() != after.len() {
        return Err(format!(
            "refusing to apply {}: the file would hold {} payloads instead of {}",
            codes(chosen),
            after.len(),
            before.len()
        ));
    }
    for (b, a) in before.iter().zip(&after) {
        let (Some(was), Some(is)) = (&b.meaning, &a.meaning) else {
            if b.meaning.is_some() {
                return Err(format!(
                    "refusing to apply {}: the payload at {} would no longer parse",
                    codes(&touching(&b.span)),
                    place(&b.span)
                ));
            }
            continue;
        };
        if was == is {
            continue;
        }
        let responsible = touching(&b.span);
        let may_change = responsible.iter().any(|d| {
            d.fix.as_ref().is_some_and(|f| {
                f.applicability == Applicability::Unsafe || !MEANING_PRESERVING.contains(&d.code())
            })
        });
        if !may_change {
            return Err(format!(
                "refusing to apply {}: the payload at {} would decode differently",
                codes(&responsible),
                place(&b.span)
            ));
        }
    }
    Ok(())
}

/// Checks that `new` holds the same payloads as `old`, each meaning exactly the
/// same: the guard before writing a formatted file.
pub fn verify_same_meaning(old: &str, new: &str, kind: FileKind) -> Result<(), String> {
    let before = payload_meanings(old, kind);
    let after = payload_meanings(new, kind);
    if before.len() != after.len() {
        return Err(format!(
            "refusing to write: the result would hold {} payloads instead of {}",
            after.len(),
            before.len()
        ));
    }
    let index = LineIndex::new(old);
    for (b, a) in before.iter().zip(&after) {
        if b.meaning != a.meaning {
            let at = index.location(old, b.span.start);
            return Err(format!(
                "refusing to write: the payload at {}:{} would {}",
                at.line,
                at.column,
                if a.meaning.is_none() {
                    "no longer parse"
                } else {
                    "decode differently"
                }
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overlapping_fixes_wait_for_the_next_round() {
        let text = r#"{"intent":"!START","meta":{"req_id":"a1b2c3d4","next_agent":null,"session_id":null}}"#;
        let fixed = fix_text(text, FileKind::SilpJson, &Settings::default(), false).unwrap();
        assert_eq!(fixed.applied, 2);
        assert_eq!(
            fixed.text,
            r#"{"intent":"!START","meta":{"req_id":"a1b2c3d4"}}"#
        );
        let value: serde_json::Value = serde_json::from_str(&fixed.text).unwrap();
        assert!(value["meta"].get("next_agent").is_none());
    }

    #[test]
    fn meanings_compare_values_not_spacing() {
        let a = payload_meanings("start( a )\n", FileKind::Silp);
        let b = payload_meanings("start(a)\n", FileKind::Silp);
        assert_eq!(a[0].meaning, b[0].meaning);
        assert!(verify_same_meaning("start(a)", "start(b)", FileKind::Silp).is_err());
        assert!(verify_same_meaning("start(a)", "start(a", FileKind::Silp).is_err());
        assert!(verify_same_meaning("start(a)", "start(a)\nstop(b)", FileKind::Silp).is_err());
    }
}
