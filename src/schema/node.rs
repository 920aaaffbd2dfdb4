//! The parsed tree as a `jsonschema` instance representation, so documents are
//! validated where they lie instead of being copied into a `serde_json::Value` first
//! (that copy cost more than the validation itself).
//!
//! Objects answer as JSON parsers do only when their keys are distinct, so
//! [`super::validate`] uses this representation for documents without duplicate keys
//! and the `serde_json` copy (which keeps the last duplicate) for the rest.

use crate::syntax::json::{JsonMember, JsonNode, JsonValue};
use jsonschema::json::{Array, Json, JsonNumber, Node, NodeIdentity, Object};
use jsonschema::JsonType;
use serde_json::Value;
use std::borrow::Cow;

/// `&JsonNode` as a `jsonschema` representation.
pub struct SpannedJson;

impl Json for SpannedJson {
    type Node<'a> = &'a JsonNode;
    type PreparedKey = String;
    type StringBuffer = JsonNode;

    fn prepare_key(key: &str) -> String {
        key.to_owned()
    }

    fn with_string_node<T>(
        buffer: &mut JsonNode,
        string: &str,
        f: impl FnOnce(&JsonNode) -> T,
    ) -> T {
        *buffer = JsonNode {
            value: JsonValue::String(string.into()),
            span: 0..0,
        };
        f(buffer)
    }
}

/// A number as `serde_json` would have read it (the conversion is shared with
/// [`JsonNode::to_serde`], so both representations agree on every number).
pub struct SpannedNumber(serde_json::Number);

impl JsonNumber for SpannedNumber {
    fn as_u64(&self) -> Option<u64> {
        self.0.as_u64()
    }

    fn as_i64(&self) -> Option<i64> {
        self.0.as_i64()
    }

    fn as_f64(&self) -> Option<f64> {
        self.0.as_f64()
    }

    fn as_str(&self) -> Cow<'_, str> {
        Cow::Owned(self.0.to_string())
    }

    fn to_number(&self) -> Cow<'_, serde_json::Number> {
        Cow::Borrowed(&self.0)
    }
}

impl<'a> Node<'a, SpannedJson> for &'a JsonNode {
    type Object = &'a [JsonMember];
    type Array = &'a [JsonNode];
    type Number = SpannedNumber;

    fn as_object(&self) -> Option<&'a [JsonMember]> {
        match &self.value {
            JsonValue::Object(members) => Some(members),
            _ => None,
        }
    }

    fn as_array(&self) -> Option<&'a [JsonNode]> {
        match &self.value {
            JsonValue::Array(items) => Some(items),
            _ => None,
        }
    }

    fn as_string(&self) -> Option<Cow<'a, str>> {
        match &self.value {
            JsonValue::String(text) => Some(Cow::Borrowed(text)),
            _ => None,
        }
    }

    fn as_number(&self) -> Option<SpannedNumber> {
        match &self.value {
            JsonValue::Number(text) => Some(SpannedNumber(crate::syntax::json::serde_number(text))),
            _ => None,
        }
    }

    fn is_number(&self) -> bool {
        matches!(self.value, JsonValue::Number(_))
    }

    fn as_boolean(&self) -> Option<bool> {
        match self.value {
            JsonValue::Bool(value) => Some(value),
            _ => None,
        }
    }

    fn is_null(&self) -> bool {
        matches!(self.value, JsonValue::Null)
    }

    fn json_type(&self) -> JsonType {
        match self.value {
            JsonValue::Null => JsonType::Null,
            JsonValue::Bool(_) => JsonType::Boolean,
            JsonValue::Number(_) => JsonType::Number,
            JsonValue::String(_) => JsonType::String,
            JsonValue::Array(_) => JsonType::Array,
            JsonValue::Object(_) => JsonType::Object,
        }
    }

    fn to_value(&self) -> Cow<'a, Value> {
        Cow::Owned(self.to_serde())
    }

    fn identity(&self) -> Option<NodeIdentity> {
        Some(NodeIdentity::new(
            std::ptr::from_ref::<JsonNode>(*self) as usize
        ))
    }
}

impl<'a> Object<'a, SpannedJson> for &'a [JsonMember] {
    type Node = &'a JsonNode;
    type MemberName = &'a str;
    type MembersIter = Members<'a>;

    fn len(&self) -> usize {
        <[JsonMember]>::len(self)
    }

    fn get(&self, key: &String) -> Option<&'a JsonNode> {
        self.iter()
            .rev()
            .find(|member| member.key == *key)
            .map(|member| &member.value)
    }

    fn members(&self) -> Members<'a> {
        Members(self.iter())
    }
}

/// An object's members as `(name, value)` pairs.
pub struct Members<'a>(std::slice::Iter<'a, JsonMember>);

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, &'a JsonNode);

    fn next(&mut self) -> Option<Self::Item> {
        self.0
            .next()
            .map(|member| (member.key.as_str(), &member.value))
    }
}

impl<'a> Array<'a, SpannedJson> for &'a [JsonNode] {
    type Node = &'a JsonNode;
    type ElementsIter = std::slice::Iter<'a, JsonNode>;

    fn len(&self) -> usize {
        <[JsonNode]>::len(self)
    }

    fn elements(&self) -> std::slice::Iter<'a, JsonNode> {
        self.iter()
    }
}
