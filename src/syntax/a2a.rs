//! Slipstream over A2A (the SLIP-A2A extension, v1): a SLIP line in the first text
//! part of an A2A message that lists the extension's URI in `extensions` and keeps
//! its metadata under that URI in `metadata`; Agent Cards advertise the extension in
//! `capabilities.extensions[]`.

use crate::syntax::json::JsonNode;
use crate::syntax::mcp::is_json_rpc;

/// The extension's URI: its identifier in `extensions`, `metadata` and Agent Cards.
pub const EXTENSION_URI: &str =
    "https://github.com/anthony-maio/slipcore/extensions/a2a-slipstream/v1";

/// Whether `value` is an A2A message: an object with `parts`, or of kind `message`.
fn is_message(value: &JsonNode) -> bool {
    value.is_object()
        && (value.get("parts").is_some()
            || value.get("kind").and_then(JsonNode::as_str) == Some("message"))
}

/// The A2A message a JSON value is or holds: the value itself, the `message` of a
/// SendMessage request, or in a JSON-RPC message the `params.message` of a request
/// or the `result` of a response that is a message.
pub fn message_in(value: &JsonNode) -> Option<&JsonNode> {
    if is_message(value) {
        return Some(value);
    }
    if is_json_rpc(value) {
        let params = value.get("params").and_then(|p| p.get("message"));
        let result = value.get("result").filter(|r| is_message(r));
        return params.filter(|m| m.is_object()).or(result);
    }
    value.get("message").filter(|m| m.is_object())
}

/// Whether `value` is a top-level value an A2A file may hold: a message, a
/// SendMessage request, a JSON-RPC message or an Agent Card (an object with
/// `capabilities`).
pub fn is_a2a_value(value: &JsonNode) -> bool {
    message_in(value).is_some() || is_json_rpc(value) || value.get("capabilities").is_some()
}

/// The entries of an Agent Card's `capabilities.extensions` that name this
/// extension.
pub fn card_extensions(card: &JsonNode) -> Vec<&JsonNode> {
    let entries = card
        .get("capabilities")
        .and_then(|c| c.get("extensions"))
        .and_then(JsonNode::as_array)
        .unwrap_or(&[]);
    entries
        .iter()
        .filter(|entry| entry.get("uri").and_then(JsonNode::as_str) == Some(EXTENSION_URI))
        .collect()
}

/// The `text` of a message's first text part (the first part holding a `text`
/// string).
pub fn first_text(message: &JsonNode) -> Option<&JsonNode> {
    message
        .get("parts")?
        .as_array()?
        .iter()
        .find_map(|part| part.get("text").filter(|text| text.as_str().is_some()))
}

/// The extension's entry in a message's `metadata`.
pub fn metadata_entry(message: &JsonNode) -> Option<&JsonNode> {
    message.get("metadata")?.get(EXTENSION_URI)
}

/// Whether an `extensions` value lists this extension.
pub fn lists_extension(extensions: &JsonNode) -> bool {
    extensions
        .as_array()
        .is_some_and(|uris| uris.iter().any(|u| u.as_str() == Some(EXTENSION_URI)))
}

/// Whether a message uses the extension: it lists the URI, keeps metadata under it,
/// or its first text part starts with `SLIP v`, as an NLIP `content` carrying SLIP
/// does (the reference decoder reads such a line as SLIP without the opt-in).
pub fn uses_extension(message: &JsonNode) -> bool {
    message.get("extensions").is_some_and(lists_extension)
        || metadata_entry(message).is_some()
        || first_text(message)
            .and_then(JsonNode::as_str)
            .is_some_and(|text| text.trim_start().starts_with("SLIP v"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::json::parse_json;

    fn root(text: &str) -> JsonNode {
        parse_json(text, 0).value.unwrap()
    }

    const MESSAGE: &str = r#"{"role":"user","parts":[{"file":{"name":"d.patch"}},{"text":"SLIP v1 a b RequestReview"}]}"#;

    #[test]
    fn messages_are_found_as_sent_in_each_binding() {
        for wrapped in [
            MESSAGE.to_string(),
            format!(r#"{{"message":{MESSAGE},"configuration":{{}}}}"#),
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"message/send","params":{{"message":{MESSAGE}}}}}"#
            ),
            format!(r#"{{"jsonrpc":"2.0","id":1,"result":{MESSAGE}}}"#),
        ] {
            let value = root(&wrapped);
            let message = message_in(&value).expect(&wrapped);
            assert_eq!(message.span.len(), MESSAGE.len(), "{wrapped}");
            assert!(is_a2a_value(&value));
        }
        assert!(message_in(&root(r#"{"jsonrpc":"2.0","result":{"kind":"task"}}"#)).is_none());
        assert!(!is_a2a_value(&root(r#"{"intent":"!START"}"#)));
    }

    #[test]
    fn the_first_text_part_is_the_slip_line() {
        let message = root(MESSAGE);
        let text = first_text(&message).and_then(JsonNode::as_str);
        assert_eq!(text, Some("SLIP v1 a b RequestReview"));
        assert!(uses_extension(&message), "a SLIP line without the opt-in");
        assert!(!uses_extension(&root(
            r#"{"parts":[{"text":"SLIPPERY road"}]}"#
        )));
        let opted_in = format!(r#"{{"parts":[],"extensions":["{EXTENSION_URI}"]}}"#);
        assert!(uses_extension(&root(&opted_in)));
        let metadata = format!(r#"{{"parts":[],"metadata":{{"{EXTENSION_URI}":{{}}}}}}"#);
        assert!(metadata_entry(&root(&metadata)).is_some());
    }

    #[test]
    fn agent_cards_name_the_extension_in_their_capabilities() {
        let card = root(&format!(
            r#"{{"name":"a","capabilities":{{"extensions":[{{"uri":"other"}},{{"uri":"{EXTENSION_URI}","params":{{}}}}]}}}}"#
        ));
        assert!(is_a2a_value(&card));
        assert_eq!(card_extensions(&card).len(), 1);
    }
}
