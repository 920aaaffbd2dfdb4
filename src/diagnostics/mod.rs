//! What the rules produce: diagnostics with byte spans, severities and fixes.
//! Rendering them for people and machines lives in `render`.

pub mod render;

use crate::rules::RuleMeta;
use crate::source::Span;
use serde::Serialize;

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
}

/// A set of edits that together repair one diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fix {
    pub applicability: Applicability,
    pub message: String,
    pub edits: Vec<Edit>,
}

impl Fix {
    pub fn safe(message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix {
            applicability: Applicability::Safe,
            message: message.into(),
            edits,
        }
    }

    pub fn unsafe_(message: impl Into<String>, edits: Vec<Edit>) -> Fix {
        Fix {
            applicability: Applicability::Unsafe,
            message: message.into(),
            edits,
        }
    }
}

/// Another place that explains a diagnostic (e.g. the first use of a duplicated id).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    /// The file, as named in the run; `None` for the diagnostic's own file.
    pub path: Option<String>,
    pub span: Span,
    pub message: String,
}

/// One finding of one rule in one file.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub rule: &'static RuleMeta,
    pub severity: Severity,
    pub message: String,
    pub help: Option<String>,
    pub span: Span,
    pub fix: Option<Fix>,
    pub related: Vec<Related>,
}

impl Diagnostic {
    pub fn code(&self) -> &'static str {
        self.rule.code
    }
}
