//! Which rules run and how: rule selection, severities and vocabulary extensions.
//! The CLI builds these from flags (and configuration files); the server likewise.

use crate::diagnostics::Severity;
use crate::rules::RuleMeta;
use std::collections::HashMap;

/// Resolved lint settings for one file.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Codes or code prefixes to run; empty means every rule.
    pub select: Vec<String>,
    /// Codes or code prefixes never to run (wins over `select`).
    pub ignore: Vec<String>,
    /// Per-code severity overrides; `None` turns the rule off.
    pub severity: HashMap<String, Option<Severity>>,
    /// Installation verbs accepted besides the whitelist (upper case, no `!`).
    pub extend_verbs: Vec<String>,
    /// Frontend names accepted besides the standard five.
    pub extend_frontends: Vec<String>,
    /// SLIP extension anchors: mnemonic and index (0x8000..=0xFFFF).
    pub extend_anchors: Vec<(String, u16)>,
}

/// Whether a rule code is named by a selector: a whole code or a prefix (`SL1`).
pub fn selector_matches(selector: &str, code: &str) -> bool {
    selector.eq_ignore_ascii_case("ALL") || code.starts_with(&selector.to_ascii_uppercase())
}

impl Settings {
    pub fn enabled(&self, rule: &RuleMeta) -> bool {
        let selected =
            self.select.is_empty() || self.select.iter().any(|s| selector_matches(s, rule.code));
        selected
            && !self.ignore.iter().any(|s| selector_matches(s, rule.code))
            && !matches!(self.severity.get(rule.code), Some(None))
    }

    pub fn severity(&self, rule: &RuleMeta) -> Severity {
        match self.severity.get(rule.code) {
            Some(Some(severity)) => *severity,
            _ => rule.severity,
        }
    }
}
