//! The fixed vocabularies of the languages: SILP's verb whitelist, excluded verbs and
//! frontends, and Slipstream's UCR v1.0 anchors (`data/anchors.tsv`).

use crate::settings::{Draft, Settings};
use std::sync::OnceLock;

/// The 13 approved verbs (draft, "Verb Whitelist"), in the draft's order.
pub const VERBS: [&str; 13] = [
    "CANCEL",
    "START",
    "EMAIL",
    "FETCH",
    "PROCESS",
    "TRANSLATE",
    "BOOK",
    "ROUTE",
    "SEARCH",
    "UPDATE",
    "SUGGEST",
    "SWITCH",
    "NOTIFY",
];

/// Verbs the draft forbids, with the replacement it suggests (if any).
pub const EXCLUDED_VERBS: [(&str, Option<&str>); 2] =
    [("SWITCH_TOOL", Some("SWITCH")), ("ESCALATE", None)];

/// The standard frontends; `code` and `json` are the lossless ones.
pub const FRONTENDS: [&str; 5] = ["code", "json", "natural", "nl_json", "llmlingua2"];

/// Words allowed in `meta.seq` besides action codes and entity ids.
pub const SEQ_KEYWORDS: [&str; 4] = ["parallel", "sequential", "reason_first", "reason_last"];

/// Heartbeat intervals the draft defines (N turns; 9999 means none).
pub const HEARTBEATS: [u32; 6] = [1, 5, 10, 15, 20, 9999];

/// Comparison operators of code conditions and constraint `operator`s.
pub const OPERATORS: [&str; 6] = ["==", "!=", "<", ">", "<=", ">="];

/// Common verbs that mean a whitelisted one (`begin` for `start`): suggested for an
/// unknown verb no typo distance explains.
pub const VERB_SYNONYMS: [(&str, &str); 33] = [
    ("BEGIN", "START"),
    ("LAUNCH", "START"),
    ("RUN", "START"),
    ("INIT", "START"),
    ("KICKOFF", "START"),
    ("STOP", "CANCEL"),
    ("ABORT", "CANCEL"),
    ("HALT", "CANCEL"),
    ("TERMINATE", "CANCEL"),
    ("SEND", "EMAIL"),
    ("MAIL", "EMAIL"),
    ("GET", "FETCH"),
    ("RETRIEVE", "FETCH"),
    ("DOWNLOAD", "FETCH"),
    ("LOAD", "FETCH"),
    ("FIND", "SEARCH"),
    ("LOOKUP", "SEARCH"),
    ("QUERY", "SEARCH"),
    ("RESERVE", "BOOK"),
    ("SCHEDULE", "BOOK"),
    ("ALERT", "NOTIFY"),
    ("WARN", "NOTIFY"),
    ("INFORM", "NOTIFY"),
    ("CHANGE", "UPDATE"),
    ("EDIT", "UPDATE"),
    ("MODIFY", "UPDATE"),
    ("RECOMMEND", "SUGGEST"),
    ("PROPOSE", "SUGGEST"),
    ("ADVISE", "SUGGEST"),
    ("HANDLE", "PROCESS"),
    ("FORWARD", "ROUTE"),
    ("DISPATCH", "ROUTE"),
    ("REDIRECT", "ROUTE"),
];

/// The whitelisted verb to suggest for an unknown `verb` (upper case, no `!`): the
/// closest candidate by spelling, else the verb it is a common synonym of.
pub fn suggest_verb<'a>(
    verb: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    did_you_mean(verb, candidates).or_else(|| {
        VERB_SYNONYMS
            .iter()
            .find(|(synonym, _)| *synonym == verb)
            .map(|(_, whitelisted)| *whitelisted)
    })
}

/// Whether `verb` (upper case, no `!`) is whitelisted or added in configuration.
pub fn is_known_verb(verb: &str, settings: &Settings) -> bool {
    VERBS.contains(&verb) || settings.extend_verbs.iter().any(|v| v == verb)
}

/// The excluded-verb entry for `verb` (upper case, no `!`).
pub fn excluded_verb(verb: &str) -> Option<(&'static str, Option<&'static str>)> {
    EXCLUDED_VERBS.iter().copied().find(|(v, _)| *v == verb)
}

/// The frontend -00's degradation chain names besides the standard five
/// (`code -> math -> JSON -> natural language`); -01 removed it as undefined.
pub const DRAFT_00_FRONTEND: &str = "math";

/// Whether `name` is a standard frontend, one added in configuration, or (under
/// draft -00) `math`.
pub fn is_known_frontend(name: &str, settings: &Settings) -> bool {
    FRONTENDS.contains(&name)
        || settings.extend_frontends.iter().any(|f| f == name)
        || (settings.draft == Draft::D00 && name == DRAFT_00_FRONTEND)
}

/// The closest candidate to `word` when it is close enough to be a likely typo.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = word.to_lowercase();
    let length = lower.chars().count();
    let letters = LetterCounts::of(&lower);
    // Optimal string alignment: edits and adjacent swaps, without the allocations
    // of unrestricted Damerau-Levenshtein, which no typo of a short word needs. A
    // candidate whose length or letters differ by more than the allowed distance
    // cannot be close: it is skipped before any distance is computed.
    candidates
        .into_iter()
        .filter_map(|c| {
            let c_length = c.chars().count();
            let allowed = (c_length.max(3) / 3).max(1) + usize::from(c.len() > 8);
            if length.abs_diff(c_length) > allowed
                || (c.is_ascii() && letters.distance_at_least(c) > allowed)
            {
                return None;
            }
            let distance = strsim::osa_distance(&lower, &c.to_lowercase());
            (distance <= allowed).then_some((distance, c))
        })
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, c)| c)
}

/// How often each ASCII character occurs in a lower-cased word, every other
/// character counted together: a lower bound on edit distances that costs no
/// allocation. An edit adds or removes at most one character on each side of two
/// words' counts (a swap none), so their distance is at least the larger number of
/// characters one has and the other lacks. Most anchors of a codebook are ruled out
/// by it before their distance is computed.
struct LetterCounts([i32; 129]);

impl LetterCounts {
    fn of(lower: &str) -> LetterCounts {
        let mut counts = [0; 129];
        for ch in lower.chars() {
            counts[if ch.is_ascii() { ch as usize } else { 128 }] += 1;
        }
        LetterCounts(counts)
    }

    /// The bound against `candidate`, an ASCII word compared without case.
    fn distance_at_least(&self, candidate: &str) -> usize {
        let mut counts = self.0;
        for byte in candidate.bytes() {
            counts[usize::from(byte.to_ascii_lowercase() & 0x7f)] -= 1;
        }
        let (surplus, lack) = counts.iter().fold((0, 0), |(surplus, lack), &count| {
            (surplus + count.max(0), lack + (-count).max(0))
        });
        surplus.max(lack).unsigned_abs() as usize
    }
}

/// A UCR anchor: its index, mnemonic, canonical description and 4-D coordinates
/// (ACTION, POLARITY, DOMAIN, URGENCY).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Anchor {
    pub index: u16,
    pub mnemonic: String,
    pub canonical: String,
    pub coordinates: [u8; 4],
}

/// The 46 UCR v1.0 core anchors.
pub fn core_anchors() -> &'static [Anchor] {
    static ANCHORS: OnceLock<Vec<Anchor>> = OnceLock::new();
    ANCHORS.get_or_init(|| {
        include_str!("../data/anchors.tsv")
            .lines()
            .skip(1)
            .filter_map(|line| {
                let fields: Vec<&str> = line.split('\t').collect();
                let [index, mnemonic, canonical, a, p, d, u] = fields.as_slice() else {
                    return None;
                };
                Some(Anchor {
                    index: u16::from_str_radix(index.trim_start_matches("0x"), 16).ok()?,
                    mnemonic: mnemonic.to_string(),
                    canonical: canonical.to_string(),
                    coordinates: [
                        a.parse().ok()?,
                        p.parse().ok()?,
                        d.parse().ok()?,
                        u.parse().ok()?,
                    ],
                })
            })
            .collect()
    })
}

pub fn core_anchor(mnemonic: &str) -> Option<&'static Anchor> {
    core_anchors().iter().find(|a| a.mnemonic == mnemonic)
}

/// The version of the core anchors' UCR.
pub const UCR_VERSION: &str = "1.0.0";

/// The SLIP-A2A extension's `ucrHash` of the UCR made of the core anchors and the
/// extension anchors `extensions` (mnemonic, index): `sha256:` and the lower-case
/// hex SHA-256 of the anchors sorted by index, one line each, joined by `\n` with
/// no final newline, a line being `index|mnemonic|canonical|coords` with the index
/// in decimal and the coordinates as comma-joined integers — the extension's §5, as
/// its reference helper (`stable_ucr_hash`) writes it. Extension anchors have no
/// canonical text or coordinates in configuration: both are empty, as the helper
/// writes an anchor without them (`32768|EXT_CheckTheKubernetesPod||`).
pub fn ucr_hash(extensions: &[(String, u16)]) -> String {
    // The core anchors' hash, the common case, is computed once.
    static CORE: OnceLock<String> = OnceLock::new();
    if extensions.is_empty() {
        return CORE.get_or_init(|| hash_anchors(&[])).clone();
    }
    hash_anchors(extensions)
}

fn hash_anchors(extensions: &[(String, u16)]) -> String {
    let mut lines: Vec<(u16, String)> = core_anchors()
        .iter()
        .map(|a| {
            let [action, polarity, domain, urgency] = a.coordinates;
            let line = format!(
                "{}|{}|{}|{action},{polarity},{domain},{urgency}",
                a.index, a.mnemonic, a.canonical
            );
            (a.index, line)
        })
        .chain(
            extensions
                .iter()
                .map(|(mnemonic, index)| (*index, format!("{index}|{mnemonic}||"))),
        )
        .collect();
    lines.sort();
    let canonical: Vec<&str> = lines.iter().map(|(_, line)| line.as_str()).collect();
    format!(
        "sha256:{}",
        crate::ir::req_id::hash(&canonical.join("\n"), 64)
    )
}

/// Whether `mnemonic` is a core anchor or an extension anchor from configuration.
pub fn is_known_anchor(mnemonic: &str, settings: &Settings) -> bool {
    core_anchor(mnemonic).is_some() || settings.extend_anchors.iter().any(|(m, _)| m == mnemonic)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn all_46_core_anchors_load() {
        let anchors = core_anchors();
        assert_eq!(anchors.len(), 46);
        assert_eq!(core_anchor("Fallback").unwrap().index, 0x00FF);
        assert_eq!(
            core_anchor("ObserveState").unwrap().coordinates,
            [0, 4, 2, 3]
        );
    }

    /// The expected values were computed independently, in Python, with the
    /// extension's reference helper `stable_ucr_hash` over the UCR v1.0 anchors as
    /// the Slipstream reference's `create_base_ucr` lists them (extension anchors as
    /// `{"index": 32768, "mnemonic": "EXT_CheckTheKubernetesPod"}`, without canonical
    /// text or coordinates).
    #[test]
    fn the_ucr_hash_is_the_reference_helpers() {
        assert_eq!(
            ucr_hash(&[]),
            "sha256:19bb36792d59061553d1b63cc4d56ec3e8748b7b059737754057fa3e7abbc700"
        );
        let extensions = [
            ("CustomAnchor".to_string(), 0x8001),
            ("EXT_CheckTheKubernetesPod".to_string(), 0x8000),
        ];
        assert_eq!(
            ucr_hash(&extensions),
            "sha256:e312a3f81985a1481b57b13f6452eafdc79ceca44eebd312c8fa56067aa1f806"
        );
    }

    proptest::proptest! {
        #[test]
        fn the_letter_count_bound_never_exceeds_the_distance(
            word in "[a-dA-D\u{200B}\u{0430}\u{212A}K]{0,12}",
            candidate in "[a-dA-DkK]{0,12}",
        ) {
            let lower = word.to_lowercase();
            let distance = strsim::osa_distance(&lower, &candidate.to_lowercase());
            let bound = LetterCounts::of(&lower).distance_at_least(&candidate);
            proptest::prop_assert!(bound <= distance, "{} > {}", bound, distance);
        }
    }

    #[test]
    fn suggestions_catch_typos_only() {
        assert_eq!(did_you_mean("cancl", VERBS.iter().copied()), Some("CANCEL"));
        assert_eq!(did_you_mean("serch", VERBS.iter().copied()), Some("SEARCH"));
        assert_eq!(suggest_verb("BEGIN", VERBS.iter().copied()), Some("START"));
        assert_eq!(suggest_verb("STRAT", VERBS.iter().copied()), Some("START"));
        assert_eq!(suggest_verb("FROBNICATE", VERBS.iter().copied()), None);
        for (synonym, verb) in VERB_SYNONYMS {
            assert!(
                VERBS.contains(&verb) && !VERBS.contains(&synonym),
                "{synonym}"
            );
        }
        assert_eq!(did_you_mean("delete", VERBS.iter().copied()), None);
    }
}
