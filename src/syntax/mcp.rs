//! SILP in MCP tool calls (draft -01 §7.2): the tool's arguments hold
//! `silp_encoding` (a frontend name) and `silp_payload` (a payload written in that
//! frontend) beside its other parameters, in the `params` of a JSON-RPC request —
//! `params.arguments` for `tools/call`.

use crate::source::FileKind;
use crate::syntax::json::JsonNode;

/// The field naming the payload's frontend.
pub const ENCODING: &str = "silp_encoding";
/// The field holding the payload.
pub const PAYLOAD: &str = "silp_payload";

/// Whether `object` is a SILP wrapper: an object holding either field, so that a
/// missing partner is reported rather than the object read as something else. The
/// wrapper exists from draft -01 on; this is the one place that decides it.
pub fn is_wrapper(object: &JsonNode) -> bool {
    object.get(ENCODING).is_some() || object.get(PAYLOAD).is_some()
}

/// Whether `value` is a JSON-RPC 2.0 message (an object with `jsonrpc`).
pub fn is_json_rpc(value: &JsonNode) -> bool {
    value.get("jsonrpc").is_some()
}

/// The wrapper a JSON value holds: the value itself (tool arguments written on their
/// own), or in a JSON-RPC request its `params`, or the `arguments` of those params
/// (a `tools/call`).
pub fn wrapper_in(value: &JsonNode) -> Option<&JsonNode> {
    if !value.is_object() {
        return None;
    }
    // One pass over the members, as [`is_wrapper`], [`is_json_rpc`] and `get`
    // would read them: every JSON payload of a run is asked.
    let (mut wrapper, mut json_rpc, mut params) = (false, false, None);
    for member in value.members() {
        match member.key.as_str() {
            ENCODING | PAYLOAD => wrapper = true,
            "jsonrpc" => json_rpc = true,
            // The last one written, as JSON parsers keep.
            "params" => params = Some(&member.value),
            _ => {}
        }
    }
    if wrapper {
        return Some(value);
    }
    let params = params.filter(|_| json_rpc)?;
    [Some(params), params.get("arguments")]
        .into_iter()
        .flatten()
        .find(|candidate| candidate.is_object() && is_wrapper(candidate))
}

/// The kind of text a payload of `encoding` is read as: `code` is a code-frontend
/// line, `json` a JSON-frontend or IR document. The one-way frontends (`natural`,
/// `nl_json`, `llmlingua2`) and configured ones have no grammar silp-lint checks.
pub fn payload_kind(encoding: &str) -> Option<FileKind> {
    match encoding {
        "code" => Some(FileKind::Silp),
        "json" => Some(FileKind::SilpJson),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::json::parse_json;

    fn wrapper_span(text: &str) -> Option<String> {
        let root = parse_json(text, 0).value.unwrap();
        wrapper_in(&root).map(|w| text[w.span.clone()].to_string())
    }

    #[test]
    fn wrappers_are_found_on_their_own_and_in_json_rpc_requests() {
        let arguments = r#"{"silp_encoding":"code","silp_payload":"start(x)","city":"Paris"}"#;
        assert_eq!(wrapper_span(arguments).as_deref(), Some(arguments));
        let call = format!(
            r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"plan","arguments":{arguments}}}}}"#
        );
        assert_eq!(wrapper_span(&call).as_deref(), Some(arguments));
        let params = format!(r#"{{"jsonrpc":"2.0","method":"x","params":{arguments}}}"#);
        assert_eq!(wrapper_span(&params).as_deref(), Some(arguments));
        // Only a partner: still a wrapper, whose missing field is reported.
        assert!(wrapper_span(r#"{"silp_payload":"start(x)"}"#).is_some());
        // `params` of something that is not a JSON-RPC message is a tool parameter.
        assert!(wrapper_span(&format!(r#"{{"params":{arguments}}}"#)).is_none());
        assert!(wrapper_span(r#"{"jsonrpc":"2.0","method":"tools/list"}"#).is_none());
        assert!(wrapper_span(r#"["silp_payload"]"#).is_none());
        // Members in any order; of a repeated `params`, the last one written.
        let late = format!(r#"{{"params":{{"a":1}},"params":{arguments},"jsonrpc":"2.0"}}"#);
        assert_eq!(wrapper_span(&late).as_deref(), Some(arguments));
        let replaced = format!(r#"{{"jsonrpc":"2.0","params":{arguments},"params":{{"a":1}}}}"#);
        assert!(wrapper_span(&replaced).is_none());
    }

    #[test]
    fn only_the_lossless_frontends_are_read() {
        assert_eq!(payload_kind("code"), Some(FileKind::Silp));
        assert_eq!(payload_kind("json"), Some(FileKind::SilpJson));
        for one_way in ["natural", "nl_json", "llmlingua2", "math", "Code"] {
            assert_eq!(payload_kind(one_way), None, "{one_way}");
        }
    }
}
