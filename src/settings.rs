//! Which rules run and how: the rule table (selection and severities, compiled once
//! when configuration loads, as ruff's `RuleTable`) and the vocabulary extensions.
//! Configuration files and CLI flags are compiled into these by `config`; rules and
//! the linter only ask them.

use crate::diagnostics::{RuleId, RuleMeta, Severity};

/// A set of rules, as bits of their ids.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RuleSet(u128);

impl RuleSet {
    /// How many rules a set can hold (the registry checks it stays below).
    pub const CAPACITY: usize = 128;
    pub const EMPTY: RuleSet = RuleSet(0);
    /// Every rule, whatever the registry holds.
    pub const ALL: RuleSet = RuleSet(u128::MAX);

    pub fn insert(&mut self, id: RuleId) {
        self.0 |= 1 << id.index();
    }

    pub fn contains(self, id: RuleId) -> bool {
        self.0 & (1 << id.index()) != 0
    }

    pub fn union(self, other: RuleSet) -> RuleSet {
        RuleSet(self.0 | other.0)
    }

    pub fn difference(self, other: RuleSet) -> RuleSet {
        RuleSet(self.0 & !other.0)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
}

/// Rule selection resolved for one file: which rules run, and at which severity.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleTable {
    enabled: RuleSet,
    /// The rules a selector other than `ALL` named: a rule that applies only where
    /// its profile does (SL605 outside A2A messages) runs everywhere when selected so.
    explicit: RuleSet,
    /// Severity overrides by rule id; `None` keeps the rule's default.
    severity: [Option<Severity>; RuleSet::CAPACITY],
}

impl Default for RuleTable {
    /// Every rule, at its default severity.
    fn default() -> RuleTable {
        RuleTable::new(RuleSet::ALL)
    }
}

impl RuleTable {
    /// The rules of `enabled`, at their default severities, none of them selected
    /// explicitly.
    pub fn new(enabled: RuleSet) -> RuleTable {
        RuleTable {
            enabled,
            explicit: RuleSet::EMPTY,
            severity: [None; RuleSet::CAPACITY],
        }
    }

    /// The rules of `enabled`, those of `explicit` selected explicitly (by a code or
    /// prefix rather than `ALL`).
    pub fn selected(enabled: RuleSet, explicit: RuleSet) -> RuleTable {
        RuleTable {
            explicit,
            ..RuleTable::new(enabled)
        }
    }

    pub fn enabled(&self, rule: &RuleMeta) -> bool {
        self.enabled.contains(rule.id)
    }

    /// Whether the rule runs and a selector named it, not only `ALL` or the default.
    pub fn explicitly_selected(&self, rule: &RuleMeta) -> bool {
        self.enabled(rule) && self.explicit.contains(rule.id)
    }

    pub fn severity(&self, rule: &RuleMeta) -> Severity {
        self.severity[rule.id.index()].unwrap_or(rule.severity)
    }

    /// The severity configuration gives `rule`, if it gives one.
    pub fn configured_severity(&self, rule: &RuleMeta) -> Option<Severity> {
        self.severity[rule.id.index()]
    }

    pub fn set_severity(&mut self, rule: RuleId, severity: Severity) {
        self.severity[rule.index()] = Some(severity);
    }

    /// Turns the rules of `rules` off.
    pub fn disable(&mut self, rules: RuleSet) {
        self.enabled = self.enabled.difference(rules);
    }
}

/// The revision of draft-hwang-silp-protocol that payloads are written against
/// (`draft = "00" | "01" | "02"`, `--draft`). Rules whose facts changed between
/// revisions say so in their documentation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Draft {
    /// -00: the whitelist is enforced, `math` is in the degradation chain.
    D00,
    /// -01: the whitelist is advisory, `math` is gone, the MCP wrapper exists.
    D01,
    /// -02 (July 2026), the newest: `seq` is strict serial order (§3.6).
    #[default]
    D02,
}

impl Draft {
    pub const ALL: [Draft; 3] = [Draft::D00, Draft::D01, Draft::D02];

    /// The revision written as configuration and `--draft` take it: `00`, `01`,
    /// `02` (a leading `-` is allowed).
    pub fn parse(text: &str) -> Option<Draft> {
        match text.trim().trim_start_matches('-') {
            "00" => Some(Draft::D00),
            "01" => Some(Draft::D01),
            "02" => Some(Draft::D02),
            _ => None,
        }
    }

    /// `-00`, `-01`, `-02`: how the revision is named in messages.
    pub fn name(self) -> &'static str {
        match self {
            Draft::D00 => "-00",
            Draft::D01 => "-01",
            Draft::D02 => "-02",
        }
    }
}

/// Resolved lint settings for one file.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Which rules run, at which severity.
    pub rules: RuleTable,
    /// The draft revision payloads are written against.
    pub draft: Draft,
    /// Installation verbs accepted besides the whitelist (upper case, no `!`).
    pub extend_verbs: Vec<String>,
    /// Frontend names accepted besides the standard five.
    pub extend_frontends: Vec<String>,
    /// SLIP extension anchors: mnemonic and index (0x8000..=0xFFFF).
    pub extend_anchors: Vec<(String, u16)>,
}

impl Settings {
    /// The defaults with only the rules of `rules` running, selected explicitly as
    /// `--select` naming them does.
    pub fn only(rules: RuleSet) -> Settings {
        Settings {
            rules: RuleTable::selected(rules, rules),
            ..Settings::default()
        }
    }

    pub fn enabled(&self, rule: &RuleMeta) -> bool {
        self.rules.enabled(rule)
    }

    pub fn severity(&self, rule: &RuleMeta) -> Severity {
        self.rules.severity(rule)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta(id: u8, severity: Severity) -> RuleMeta {
        RuleMeta {
            id: RuleId::new(id),
            code: "SL999",
            name: "test",
            severity,
            doc: "",
            protocol_error: None,
        }
    }

    #[test]
    fn tables_answer_by_id_with_default_severities() {
        let warning = meta(3, Severity::Warning);
        let mut set = RuleSet::EMPTY;
        set.insert(warning.id);
        let mut table = RuleTable::new(set);
        assert!(table.enabled(&warning));
        assert!(!table.enabled(&meta(4, Severity::Error)));
        assert_eq!(table.severity(&warning), Severity::Warning);
        table.set_severity(warning.id, Severity::Error);
        assert_eq!(table.severity(&warning), Severity::Error);
        assert!(!table.explicitly_selected(&warning));
        assert!(RuleTable::selected(set, set).explicitly_selected(&warning));
        table.disable(set);
        assert!(!table.enabled(&warning));
        assert!(RuleTable::default().enabled(&meta(127, Severity::Hint)));
        assert!(!RuleTable::default().explicitly_selected(&meta(127, Severity::Hint)));
    }
}
