//! The semantic model: the SILP IR as Rust types, decoded from whichever frontend a
//! payload was written in, with the span of every value so rules can point at it.
//!
//! Equality and serialisation look only at values, never spans, so two IRs decoded
//! from different texts compare equal when they mean the same thing.

pub mod compile;
pub mod from_code;
pub mod from_json;
pub mod req_id;

use crate::source::Span;
use compact_str::CompactString;
use serde::{Serialize, Serializer};
use std::ops::Deref;

/// A value and where it was written. Compares and serialises as the bare value.
#[derive(Clone, Debug, Default)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Spanned<T> {
        Spanned { node, span }
    }
}

impl<T> Deref for Spanned<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.node
    }
}

impl<T: PartialEq> PartialEq for Spanned<T> {
    fn eq(&self, other: &Self) -> bool {
        self.node == other.node
    }
}

impl<T: Serialize> Serialize for Spanned<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.node.serialize(serializer)
    }
}

/// A string value with its span. Held inline up to 24 bytes, as the JSON tree holds
/// it: decoding a payload's short ids, verbs and values copies no heap string.
pub type Text = Spanned<CompactString>;

/// Which surface a payload was written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Origin {
    /// A code-frontend line (`if !rain(t+1): start(hike)`).
    #[default]
    Code,
    /// A flat JSON-frontend object (`{"intent":"!START","act":"hike"}`).
    JsonFrontend,
    /// A full IR document (has `silp`, `version`, `entities` or `meta`).
    IrDocument,
}

/// How a verb was written, which decides the spelling rules that apply to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerbForm {
    /// A code-frontend function name: `cancel`.
    FunctionName,
    /// An IR action code: `!CANCEL`.
    ActionCode,
    /// The verb part of a JSON-frontend `action_<verb>` key: `email`.
    ActionKey,
}

/// One place a verb is written in a payload, as written.
#[derive(Clone, Debug, PartialEq)]
pub struct VerbUse {
    pub text: CompactString,
    /// The verb in whitelist spelling: no `!`, upper case (`!cancel` -> `CANCEL`).
    /// Spelt once here, since several rules look it up.
    pub normalized: CompactString,
    pub span: Span,
    pub form: VerbForm,
}

impl VerbUse {
    pub fn new(text: CompactString, span: Span, form: VerbForm) -> VerbUse {
        let normalized = upper_case_after(text.trim_start_matches('!'), "");
        VerbUse {
            text,
            normalized,
            span,
            form,
        }
    }
}

/// `prefix` then `text` in upper case (`!` and `cancel` give `!CANCEL`). Verbs are
/// short ASCII words: those are upper-cased where they lie in the new string, stored
/// inline, with no heap string, no formatting and no second copy.
pub fn upper_case_after(text: &str, prefix: &str) -> CompactString {
    if prefix.is_empty() && text.is_ascii() && !text.bytes().any(|b| b.is_ascii_lowercase()) {
        // Already upper case, as most action codes are written.
        return CompactString::new(text);
    }
    let mut upper = CompactString::from(prefix);
    if text.is_ascii() {
        upper.push_str(text);
        upper[prefix.len()..].make_ascii_uppercase();
    } else {
        upper.push_str(&text.to_uppercase());
    }
    upper
}

/// A SILP IR payload (draft §Layer 1).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Ir {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub silp: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<Text>,
    /// The primary action code (`!CANCEL`); `None` when the payload names none.
    pub intent: Option<Text>,
    pub entities: Vec<Entity>,
    pub constraints: Vec<Constraint>,
    pub alternatives: Vec<Alternative>,
    pub meta: Meta,
    #[serde(skip)]
    pub origin: Origin,
    /// The whole payload.
    #[serde(skip)]
    pub span: Span,
    /// Every verb written in the payload, each once, in source order.
    #[serde(skip)]
    pub verbs: Vec<VerbUse>,
}

impl Ir {
    /// Entities of the primary action: no `action`, or the intent's.
    pub fn primary_entities(&self) -> impl Iterator<Item = &Entity> {
        self.entities.iter().filter(move |e| self.is_primary(e))
    }

    pub fn is_primary(&self, entity: &Entity) -> bool {
        match (&entity.action, &self.intent) {
            (None, _) => true,
            (Some(action), Some(intent)) => action.node == intent.node,
            (Some(_), None) => false,
        }
    }

    /// Whether the payload carries negation: a `!type` constraint or a `!=` comparison.
    pub fn has_negation(&self) -> bool {
        self.constraints.iter().any(|c| {
            c.kind.starts_with('!') || c.operator.as_ref().is_some_and(|op| op.node == "!=")
        })
    }
}

/// A member of an entity, constraint, alternative or `meta` object that the model has
/// no field for (the schema allows extra keys there): its key and JSON value, spanning
/// the key. Kept so that compiling to JSON and converting to the IR print it where
/// the reference implementation does.
pub type Extra = Spanned<(String, serde_json::Value)>;

/// An argument slot of the primary action, or a value of a secondary action.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Entity {
    pub id: Text,
    pub value: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action: Option<Text>,
    /// Members the model has no field for, in the order written.
    #[serde(skip)]
    pub extra: Vec<Extra>,
    #[serde(skip)]
    pub span: Span,
}

/// A condition on the task. `kind` is the IR's `type` (a leading `!` negates).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Constraint {
    #[serde(rename = "type")]
    pub kind: Text,
    pub value: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operator: Option<Text>,
    /// Members the model has no field for, in the order written.
    #[serde(skip)]
    pub extra: Vec<Extra>,
    #[serde(skip)]
    pub span: Span,
}

/// A fallback action of the else-branch.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Alternative {
    pub action: Text,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location: Option<Text>,
    /// Members the model has no field for, in the order written.
    #[serde(skip)]
    pub extra: Vec<Extra>,
    #[serde(skip)]
    pub span: Span,
}

/// Protocol metadata. Only IR documents write it; other frontends leave it empty.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Meta {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub req_id: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session_id: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub priority: Option<Spanned<i64>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence: Option<Spanned<f64>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub seq: Vec<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub out: Option<Text>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_agent: Option<Text>,
    /// Members the model has no field for, in the order written.
    #[serde(skip)]
    pub extra: Vec<Extra>,
    /// The `meta` object itself, when written.
    #[serde(skip)]
    pub span: Option<Span>,
}

#[cfg(test)]
mod tests {
    use super::upper_case_after;

    #[test]
    fn upper_case_agrees_with_unicode_after_its_prefix() {
        for text in [
            "cancel",
            "Start",
            "ROLL_BACK",
            "straße",
            "çağrı",
            "",
            "a1-b",
            "a_verb_longer_than_twenty_four_bytes",
        ] {
            assert_eq!(upper_case_after(text, ""), text.to_uppercase(), "{text}");
            assert_eq!(
                upper_case_after(text, "!"),
                format!("!{}", text.to_uppercase()),
                "{text}"
            );
        }
        // The prefix is kept as written.
        assert_eq!(upper_case_after("x", "ab"), "abX");
    }
}
