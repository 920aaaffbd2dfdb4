use super::{declare_rule, Context, Rule};
use crate::source::FileKind;
use crate::syntax::document::{Carrier, McpWrapper};
use crate::syntax::mcp::{ENCODING, PAYLOAD};

declare_rule! {
    /// ## What it does
    /// Checks the SILP wrapper of an MCP tool call (draft -01 §7.2): tool arguments
    /// holding `silp_encoding` (a frontend name) and `silp_payload` (the payload,
    /// written in that frontend) beside the tool's other parameters. It reports a
    /// wrapper with only one of the two fields, a `silp_encoding` that is not a
    /// string, a `silp_payload` that is not a string or is empty, and, in a
    /// `*.mcp-call.json` file, a top-level value that is neither a JSON-RPC message
    /// nor tool arguments holding a wrapper.
    ///
    /// Wrappers are found in `*.mcp-call.json` files, and wherever silp-lint reads
    /// JSON payloads: top-level objects of `.silp.json` and `.silp.jsonl` files and
    /// NLIP `content` objects. An object holding either field is a wrapper, not a
    /// payload; in a JSON-RPC request the wrapper is the request's `params`, or the
    /// `arguments` of a `tools/call`.
    ///
    /// The payload of a `code` or `json` wrapper is linted as a payload of that
    /// frontend, in place (positions inside the JSON string) when the string is
    /// written without escapes; otherwise its decoded text is linted and each finding
    /// covers the whole string. A name outside the known frontends is SL403's. A
    /// payload in a one-way frontend (`natural`, `nl_json`, `llmlingua2`) or one
    /// added with `extend-frontends` is prose or text silp-lint has no grammar for:
    /// only the character rules (SL201–SL204) read it, and nothing reports that it
    /// is not parsed, since the draft allows any frontend.
    ///
    /// ## Why is this bad?
    /// A receiver reads the payload in the frontend the encoding names: without it,
    /// or with a payload that is not text, it cannot decode the instruction, and the
    /// tool call fails or, worse, the tool runs on its other parameters alone.
    ///
    /// ## Example
    /// ```json
    /// {"silp_payload": "if !rain(t+1): start(hike)", "city": "Paris"}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"silp_encoding": "code", "silp_payload": "if !rain(t+1): start(hike)", "city": "Paris"}
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: add the missing field, or write the payload as a string in
    /// its frontend (a `json` payload is the JSON text, as a string).
    pub struct McpWrapperViolation {
        code: "SL704",
        name: "mcp-wrapper-violation",
        severity: Error,
        hooks: [Carrier],
    }
}

impl McpWrapperViolation {
    fn check_wrapper(ctx: &mut Context, wrapper: &McpWrapper) {
        match (&wrapper.encoding, &wrapper.payload) {
            (None, Some(_)) => {
                ctx.report(
                    &Self::META,
                    wrapper.object.clone(),
                    format!("`{PAYLOAD}` without `{ENCODING}`: its frontend is unknown, so it is not linted"),
                )
                .help(format!("add `\"{ENCODING}\": \"code\"` (or the frontend the payload is written in)"));
            }
            (Some(_), None) => {
                ctx.report(
                    &Self::META,
                    wrapper.object.clone(),
                    format!("`{ENCODING}` without `{PAYLOAD}`"),
                )
                .help(format!("add the payload as `\"{PAYLOAD}\"`"));
            }
            _ => {}
        }
        if let Some(encoding) = &wrapper.encoding {
            if encoding.value.as_str().is_none() {
                ctx.report(
                    &Self::META,
                    encoding.value.span.clone(),
                    format!(
                        "`{ENCODING}` must be a frontend name, found {}",
                        encoding.value.type_name()
                    ),
                );
            }
        }
        if let Some(payload) = &wrapper.payload {
            match payload.value.as_str() {
                Some(text) if text.trim().is_empty() => {
                    ctx.report(
                        &Self::META,
                        payload.value.span.clone(),
                        format!("`{PAYLOAD}` is empty"),
                    );
                }
                Some(_) => {}
                None => {
                    ctx.report(
                        &Self::META,
                        payload.value.span.clone(),
                        format!(
                            "`{PAYLOAD}` must be a string holding the payload, found {}",
                            payload.value.type_name()
                        ),
                    )
                    .help("write the payload as text in its frontend (a `json` payload as its JSON text)");
                }
            }
        }
    }
}

impl Rule for McpWrapperViolation {
    fn check_carrier(&self, ctx: &mut Context, carrier: &Carrier) {
        match carrier {
            Carrier::Mcp(wrapper) => Self::check_wrapper(ctx, wrapper),
            Carrier::Unrecognised {
                kind: FileKind::McpCall,
                value,
                found,
            } => {
                let expected = format!(
                    "a JSON-RPC message or tool arguments holding `{ENCODING}` and `{PAYLOAD}`"
                );
                let message = if *found == "an object" {
                    format!("this object is not {expected}: nothing in it is linted")
                } else {
                    format!("expected {expected}, found {found}")
                };
                ctx.report(&Self::META, value.clone(), message);
            }
            Carrier::A2aMessage(_) | Carrier::AgentCard(_) | Carrier::Unrecognised { .. } => {}
        }
    }
}
