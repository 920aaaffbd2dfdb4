//! What the rules produce: diagnostics with byte spans, severities and fixes, the
//! fixed facts of each rule, and applying edits to a text. The bottom of the
//! linting layers (as `ruff_diagnostics` is ruff's): rules, the fix engine, the
//! formatter and the front ends all speak these types. Rendering them for people and
//! machines lives in `render`.

use crate::source::{floor_char_boundary, Span};
use serde::Serialize;
use std::borrow::Cow;

/// How serious a diagnostic is. `check` exits 1 when an error or warning remains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Hint,
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
            Severity::Hint => "hint",
        }
    }

    /// Whether a diagnostic of this severity makes `check` fail.
    pub fn fails_check(self) -> bool {
        self >= Severity::Warning
    }

    pub fn parse(text: &str) -> Option<Severity> {
        match text {
            "error" => Some(Severity::Error),
            "warning" => Some(Severity::Warning),
            "info" => Some(Severity::Info),
            "hint" => Some(Severity::Hint),
            _ => None,
        }
    }
}

/// Whether a fix may be applied without review.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Applicability {
    /// Keeps the payload's meaning; applied by `--fix`.
    Safe,
    /// May change meaning; applied only with `--unsafe-fixes`.
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// Replace the bytes of `span` with `content`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    pub span: Span,
    pub content: String,
}

impl Edit {
    pub fn replace(span: Span, content: impl Into<String>) -> Edit {
        Edit {
            span,
            content: content.into(),
        }
    }

    pub fn delete(span: Span) -> Edit {
        Edit::replace(span, "")
    }

    pub fn insert(at: usize, content: impl Into<String>) -> Edit {
        Edit::replace(at..at, content)
    }

    /// The smallest edit turning `old` (which starts at byte `start` of its file) into
    /// `new`: the common prefix and suffix are left out.
    pub fn minimal(start: usize, old: &str, new: &str) -> Edit {
        let prefix = old
            .bytes()
            .zip(new.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        let prefix = floor_char_boundary(old, prefix.min(new.len()));
        let prefix = floor_char_boundary(new, prefix);
        let max_suffix = (old.len() - prefix).min(new.len() - prefix);
        let suffix = old
            .bytes()
            .rev()
            .zip(new.bytes().rev())
            .take(max_suffix)
            .take_while(|(a, b)| a == b)
            .count();
        let mut old_end = old.len() - suffix;
        let mut new_end = new.len() - suffix;
        // Move the cut forward to char boundaries in both texts (they hold the same
        // suffix bytes, so one step fixes both).
        while !old.is_char_boundary(old_end) || !new.is_char_boundary(new_end) {
            old_end += 1;
            new_end += 1;
        }
        Edit::replace(
            start + prefix..start + old_end,
            new.get(prefix..new_end).unwrap_or(""),
        )
    }
}

/// Applies `edits` (sorted by position, not overlapping) to `text`; an edit that
/// overlaps an earlier one or is off the text's char boundaries is skipped.
pub fn apply_edits<E: std::borrow::Borrow<Edit>>(text: &str, edits: &[E]) -> String {
    if edits.is_empty() {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for edit in edits {
        let edit = edit.borrow();
        if edit.span.start < at || !is_valid_span(text, &edit.span) {
            continue;
        }
        out.push_str(&text[at..edit.span.start]);
        out.push_str(&edit.content);
        at = edit.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// Whether `span` lies within `text`, on char boundaries.
pub fn is_valid_span(text: &str, span: &Span) -> bool {
    span.start <= span.end
        && span.end <= text.len()
        && text.is_char_boundary(span.start)
        && text.is_char_boundary(span.end)
}

/// A set of edits that together repair one diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub applicability: Applicability,
    pub message: Cow<'static, str>,
    pub edits: Vec<Edit>,
}

impl Fix {
    pub fn safe(message: impl Into<Cow<'static, str>>, edits: Vec<Edit>) -> Fix {
        Fix {
            applicability: Applicability::Safe,
            message: message.into(),
            edits,
        }
    }

    pub fn unsafe_(message: impl Into<Cow<'static, str>>, edits: Vec<Edit>) -> Fix {
        Fix {
            applicability: Applicability::Unsafe,
            message: message.into(),
            edits,
        }
    }
}

/// A diagnostic's fix as the fix engine holds it: the rule, where the diagnostic
/// is, and the edits, without the messages. A line of a million calls needs a
/// million fixes at once; a fix of one edit, nearly every fix, holds it inline,
/// so each takes a quarter of its diagnostic's memory and no allocation but its
/// replacement text.
#[derive(Clone, Debug)]
pub struct PendingFix {
    pub rule: &'static RuleMeta,
    /// The diagnostic's span: suppressions match its start, and fixes are taken
    /// in its order.
    pub span: Span,
    pub applicability: Applicability,
    edits: PendingEdits,
}

/// A fix's edits: one inline, or several.
#[derive(Clone, Debug, PartialEq, Eq)]
enum PendingEdits {
    One(Edit),
    Many(Vec<Edit>),
}

impl PendingFix {
    /// The fix of `diagnostic`, if it has one.
    pub fn of(diagnostic: Diagnostic) -> Option<PendingFix> {
        let fix = diagnostic.fix?;
        let Fix {
            applicability,
            mut edits,
            ..
        } = *fix;
        let edits = match edits.pop() {
            Some(edit) if edits.is_empty() => PendingEdits::One(edit),
            Some(edit) => {
                edits.push(edit);
                PendingEdits::Many(edits)
            }
            None => PendingEdits::Many(edits),
        };
        Some(PendingFix {
            rule: diagnostic.rule,
            span: diagnostic.span,
            applicability,
            edits,
        })
    }

    /// The fix of `diagnostic`, if it has one, copied: for a diagnostic a report
    /// keeps as well.
    pub fn copied_from(diagnostic: &Diagnostic) -> Option<PendingFix> {
        let fix = diagnostic.fix.as_deref()?;
        let edits = match &fix.edits[..] {
            [edit] => PendingEdits::One(edit.clone()),
            edits => PendingEdits::Many(edits.to_vec()),
        };
        Some(PendingFix {
            rule: diagnostic.rule,
            span: diagnostic.span.clone(),
            applicability: fix.applicability,
            edits,
        })
    }

    pub fn code(&self) -> &'static str {
        self.rule.code
    }

    pub fn edits(&self) -> &[Edit] {
        match &self.edits {
            PendingEdits::One(edit) => std::slice::from_ref(edit),
            PendingEdits::Many(edits) => edits,
        }
    }
}

impl PartialEq for PendingFix {
    fn eq(&self, other: &PendingFix) -> bool {
        self.rule.code == other.rule.code
            && self.span == other.span
            && self.applicability == other.applicability
            && self.edits == other.edits
    }
}

impl Eq for PendingFix {}

/// Another place that explains a diagnostic (e.g. the first use of a duplicated id).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    /// The file, as named in the run; `None` for the diagnostic's own file.
    pub path: Option<String>,
    pub span: Span,
    pub message: String,
}

/// A rule's position in the registry (`rules::registry`), which rule selection is
/// compiled against: a set of rules is a bit set of these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RuleId(u8);

impl RuleId {
    pub const fn new(index: u8) -> RuleId {
        RuleId(index)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The fixed facts of a rule: its public code and name, default severity and docs.
#[derive(Debug)]
pub struct RuleMeta {
    pub id: RuleId,
    pub code: &'static str,
    pub name: &'static str,
    pub severity: Severity,
    /// The rule's doc comment, one source line per line.
    pub doc: &'static str,
    /// The SILP protocol error code a receiver would answer with, if any.
    pub protocol_error: Option<&'static str>,
}

impl RuleMeta {
    /// The doc comment as Markdown, with the comment's leading space removed.
    pub fn documentation(&self) -> String {
        let mut out = String::with_capacity(self.doc.len());
        for line in self.doc.lines() {
            out.push_str(line.strip_prefix(' ').unwrap_or(line));
            out.push('\n');
        }
        out
    }

    /// The "What it does" section without its heading, for SARIF's full description.
    pub fn what_it_does(&self) -> String {
        let doc = self.documentation();
        let body = doc.split("## What it does").nth(1).unwrap_or(&doc);
        body.split("\n## ").next().unwrap_or("").trim().to_string()
    }

    /// The first sentence of "What it does", for rule lists and SARIF short text.
    pub fn summary(&self) -> String {
        let body = self.what_it_does();
        let para = body.split("\n\n").next().unwrap_or("").replace('\n', " ");
        let sentence = match para.find(". ") {
            Some(end) => &para[..=end],
            None => para.as_str(),
        };
        sentence.trim().to_string()
    }
}

/// One finding of one rule in one file.
///
/// A file may hold many thousands, so texts that are the same for every diagnostic
/// of a rule are borrowed, not copied, and the fix (most diagnostics have none) is
/// boxed.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub rule: &'static RuleMeta,
    pub severity: Severity,
    pub message: String,
    pub help: Option<Cow<'static, str>>,
    pub span: Span,
    pub fix: Option<Box<Fix>>,
    pub related: Vec<Related>,
}

impl Diagnostic {
    pub fn code(&self) -> &'static str {
        self.rule.code
    }

    /// Moves every place in its own file the diagnostic names (its span, related
    /// places there, its fix's edits) by `by` bytes: a diagnostic found in part of
    /// a text, placed in the whole.
    pub fn shift(&mut self, by: isize) {
        self.span = shifted(&self.span, by);
        for related in self.related.iter_mut().filter(|r| r.path.is_none()) {
            related.span = shifted(&related.span, by);
        }
        if let Some(fix) = &mut self.fix {
            for edit in &mut fix.edits {
                edit.span = shifted(&edit.span, by);
            }
        }
    }
}

/// `span` moved by `by` bytes, no further back than the start of the text.
pub fn shifted(span: &Span, by: isize) -> Span {
    let move_ = |o: usize| (o as isize + by).max(0) as usize;
    move_(span.start)..move_(span.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fix engine's copy of a fix keeps what applying and checking it needs:
    /// the rule, the diagnostic's span, the applicability and every edit in order.
    #[test]
    fn a_pending_fix_keeps_the_rule_place_and_edits_of_its_diagnostic() {
        static RULE: RuleMeta = RuleMeta {
            id: RuleId::new(0),
            code: "SL104",
            name: "function-name-case",
            severity: Severity::Error,
            doc: "",
            protocol_error: None,
        };
        let rule = &RULE;
        let diagnostic = |fix: Option<Fix>| Diagnostic {
            rule,
            severity: Severity::Error,
            message: "function name `Start` is not lower case".to_string(),
            help: None,
            span: 3..8,
            fix: fix.map(Box::new),
            related: Vec::new(),
        };
        assert!(PendingFix::of(diagnostic(None)).is_none());
        let one = vec![Edit::replace(3..8, "start")];
        let many = vec![
            Edit::delete(0..1),
            Edit::insert(4, "x"),
            Edit::delete(9..10),
        ];
        for (fix, edits) in [
            (Fix::safe("lower-case", one.clone()), one),
            (Fix::unsafe_("several", many.clone()), many),
            (Fix::safe("none", Vec::new()), Vec::new()),
        ] {
            let applicability = fix.applicability;
            let pending = PendingFix::of(diagnostic(Some(fix))).unwrap();
            assert_eq!(pending.code(), "SL104");
            assert_eq!(pending.span, 3..8);
            assert_eq!(pending.applicability, applicability);
            assert_eq!(pending.edits(), &edits[..]);
        }
    }

    #[test]
    fn edits_off_char_boundaries_are_ignored() {
        let text = "é";
        assert_eq!(apply_edits(text, &[Edit::replace(1..2, "x")]), "é");
        assert_eq!(apply_edits(text, &[Edit::replace(0..2, "e")]), "e");
    }

    #[test]
    fn minimal_edits_cut_on_char_boundaries() {
        let edit = Edit::minimal(10, "a( é )", "a(é)");
        assert_eq!(edit.span, 12..16);
        assert_eq!(edit.content, "é");
        let edit = Edit::minimal(0, "é", "è");
        assert_eq!(edit.span, 0..2);
        assert_eq!(edit.content, "è");
    }
}
