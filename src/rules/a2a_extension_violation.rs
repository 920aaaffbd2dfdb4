use super::{declare_rule, Context, Rule};
use crate::source::{FileKind, Span};
use crate::syntax::a2a::{lists_extension, EXTENSION_URI};
use crate::syntax::document::{A2aMessage, AgentCardExtension, Carrier};
use crate::syntax::json::{JsonNode, JsonValue};

declare_rule! {
    /// ## What it does
    /// Checks how an A2A message uses the Slipstream extension (SLIP-A2A v1), in
    /// `*.a2a.json` files. A message uses it when it lists the extension's URI in
    /// `extensions`, keeps metadata under that URI, or its first text part starts
    /// with `SLIP v`; such a message must
    /// - list `https://github.com/anthony-maio/slipcore/extensions/a2a-slipstream/v1`
    ///   in `extensions` (§2.3);
    /// - keep an object under that URI in `metadata`, with `slipVersion` (`v` and
    ///   digits, the version of its SLIP line), `ucrVersion` (a semantic version such
    ///   as `1.0.0`) and `encoding` `mnemonic` (§2.3, §4.1); `confidence`, when
    ///   present, is a number from 0 to 1;
    /// - carry a SLIP line in its first text part (§3.1), which is linted as a `.slip`
    ///   line, in place.
    ///
    /// `ucrHash` is SL607's; the text's own §3.3 example leaves it out of a message,
    /// so a message without it is not reported. An Agent Card's entry for the
    /// extension (`capabilities.extensions[]` with that `uri`) must have `params`
    /// with a `slipVersion`, and a `ucrVersion` in semantic-version form when
    /// present. A top-level value of an `*.a2a.json` file that is not a message, a
    /// SendMessage request (`{"message": ...}`), a JSON-RPC message or an Agent Card
    /// is reported too: nothing in it would be linted.
    ///
    /// ## Why is this bad?
    /// A receiver opts into decoding Slipstream per message: without the URI and
    /// metadata it reads the text part as prose, and a wrong `encoding` or version
    /// tells it to decode the line as something it is not.
    ///
    /// ## Example
    /// ```json
    /// {"role": "user", "parts": [{"text": "SLIP v1 planner reviewer RequestReview auth_module"}]}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"role": "user",
    ///  "parts": [{"text": "SLIP v1 planner reviewer RequestReview auth_module"}],
    ///  "extensions": ["https://github.com/anthony-maio/slipcore/extensions/a2a-slipstream/v1"],
    ///  "metadata": {"https://github.com/anthony-maio/slipcore/extensions/a2a-slipstream/v1":
    ///    {"slipVersion": "v1", "ucrVersion": "1.0.0", "encoding": "mnemonic"}}}
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: add the URI and the metadata the message's SLIP line needs.
    pub struct A2aExtensionViolation {
        code: "SL606",
        name: "a2a-extension-violation",
        severity: Error,
        hooks: [Carrier],
    }
}

/// What a message's metadata for the extension is called in messages.
const METADATA: &str = "the extension's metadata";

/// Whether `text` is a SLIP version: `v` and digits.
fn is_slip_version(text: &str) -> bool {
    text.strip_prefix('v')
        .is_some_and(|digits| !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
}

/// Whether `text` is a semantic version: three dot-separated numbers, then
/// optionally a `-` pre-release or `+` build suffix.
fn is_semantic_version(text: &str) -> bool {
    let core = text.split(['-', '+']).next().unwrap_or(text);
    let parts: Vec<&str> = core.split('.').collect();
    parts.len() == 3
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The version token of a SLIP line (`v1` of `SLIP v1 a b Anchor`).
fn line_version(text: &str) -> Option<&str> {
    let mut words = text.split_whitespace();
    (words.next() == Some("SLIP"))
        .then(|| words.next())
        .flatten()
}

impl A2aExtensionViolation {
    fn report(ctx: &mut Context, span: Span, message: String) {
        ctx.report(&Self::META, span, message);
    }

    fn message(ctx: &mut Context, message: &A2aMessage) {
        match &message.extensions {
            Some(extensions) if !matches!(extensions.value, JsonValue::Array(_)) => {
                Self::report(
                    ctx,
                    extensions.span.clone(),
                    format!(
                        "`extensions` must be an array of extension URIs, found {}",
                        extensions.type_name()
                    ),
                );
            }
            Some(extensions) if lists_extension(extensions) => {}
            listed => {
                let span = listed.as_ref().map_or(&message.object, |e| &e.span);
                ctx.report(
                    &Self::META,
                    span.clone(),
                    "the message uses the Slipstream extension but does not list it in `extensions`",
                )
                .help(format!("add \"{EXTENSION_URI}\" to `extensions`"));
            }
        }
        Self::metadata(ctx, message);
        match message.text.as_ref().and_then(|t| Some((t, t.as_str()?))) {
            None => Self::report(
                ctx,
                message.object.clone(),
                "the message has no text part to carry its SLIP line".to_string(),
            ),
            Some((text, line)) if line.trim().is_empty() => Self::report(
                ctx,
                text.span.clone(),
                "the first text part is empty; expected a SLIP line".to_string(),
            ),
            Some(_) => {}
        }
    }

    fn metadata(ctx: &mut Context, message: &A2aMessage) {
        let Some(metadata) = &message.metadata else {
            ctx.report(
                &Self::META,
                message.object.clone(),
                "the message lacks `metadata` for the Slipstream extension",
            )
            .help(format!("add `metadata` with an object under \"{EXTENSION_URI}\": `slipVersion`, `ucrVersion`, `encoding`"));
            return;
        };
        if !Self::is_object(ctx, metadata, "`metadata`") {
            return;
        }
        let Some(entry) = metadata.get(EXTENSION_URI) else {
            ctx.report(
                &Self::META,
                metadata.span.clone(),
                "`metadata` has no entry for the Slipstream extension",
            )
            .help(format!("add \"{EXTENSION_URI}\": {{\"slipVersion\": \"v1\", \"ucrVersion\": \"1.0.0\", \"encoding\": \"mnemonic\"}}"));
            return;
        };
        if !Self::is_object(ctx, entry, METADATA) {
            return;
        }
        let line = message
            .text
            .as_ref()
            .and_then(JsonNode::as_str)
            .and_then(line_version);
        Self::slip_version(ctx, entry, line, METADATA);
        Self::ucr_version(ctx, entry, Some(METADATA));
        match entry.get("encoding") {
            None => Self::missing(ctx, entry, METADATA, "encoding"),
            Some(encoding) if encoding.as_str() == Some("mnemonic") => {}
            Some(encoding) => {
                ctx.report(
                    &Self::META,
                    encoding.span.clone(),
                    "`encoding` must be `mnemonic`: SLIP-A2A v1 writes anchors as mnemonics",
                )
                .help("write `\"encoding\": \"mnemonic\"` and the anchors as mnemonics");
            }
        }
        if let Some(confidence) = entry.get("confidence") {
            let in_range = match &confidence.value {
                JsonValue::Number(n) => n.parse::<f64>().is_ok_and(|n| (0.0..=1.0).contains(&n)),
                _ => false,
            };
            if !in_range {
                Self::report(
                    ctx,
                    confidence.span.clone(),
                    "`confidence` must be a number from 0 to 1".to_string(),
                );
            }
        }
    }

    /// Whether `node` (`what`) is an object; reported when it is not.
    fn is_object(ctx: &mut Context, node: &JsonNode, what: &str) -> bool {
        if !node.is_object() {
            Self::report(
                ctx,
                node.span.clone(),
                format!("{what} must be an object, found {}", node.type_name()),
            );
        }
        node.is_object()
    }

    /// Reports `object` (`what`) lacking `field`.
    fn missing(ctx: &mut Context, object: &JsonNode, what: &str, field: &str) {
        Self::report(ctx, object.span.clone(), format!("{what} lacks `{field}`"));
    }

    /// `slipVersion` of `object` (`what`): required, `v` and digits, and (in a
    /// message) its line's.
    fn slip_version(ctx: &mut Context, object: &JsonNode, line: Option<&str>, what: &str) {
        let Some(version) = object.get("slipVersion") else {
            Self::missing(ctx, object, what, "slipVersion");
            return;
        };
        match version.as_str() {
            Some(text) if !is_slip_version(text) => Self::report(
                ctx,
                version.span.clone(),
                format!(
                    "`slipVersion` `{text}` is not a SLIP version (`v` and digits, such as `v1`)"
                ),
            ),
            Some(text) => {
                if let Some(line) = line.filter(|line| *line != text) {
                    Self::report(
                        ctx,
                        version.span.clone(),
                        format!("`slipVersion` says `{text}`, but the SLIP line is `{line}`"),
                    );
                }
            }
            None => Self::report(
                ctx,
                version.span.clone(),
                format!(
                    "`slipVersion` must be a string, found {}",
                    version.type_name()
                ),
            ),
        }
    }

    /// `ucrVersion`: a semantic version; required of `required` (what `object` is).
    fn ucr_version(ctx: &mut Context, object: &JsonNode, required: Option<&str>) {
        let Some(version) = object.get("ucrVersion") else {
            if let Some(what) = required {
                Self::missing(ctx, object, what, "ucrVersion");
            }
            return;
        };
        if !version.as_str().is_some_and(is_semantic_version) {
            Self::report(
                ctx,
                version.span.clone(),
                "`ucrVersion` must be a semantic version string, such as `1.0.0`".to_string(),
            );
        }
    }

    fn card(ctx: &mut Context, card: &AgentCardExtension) {
        let Some(params) = card.entry.get("params") else {
            ctx.report(
                &Self::META,
                card.entry.span.clone(),
                "the Agent Card's Slipstream extension entry lacks `params`",
            )
            .help("add `params` with `slipVersion`, `ucrVersion` and `ucrHash`");
            return;
        };
        if !Self::is_object(ctx, params, "`params`") {
            return;
        }
        Self::slip_version(ctx, params, None, "the Agent Card's Slipstream `params`");
        Self::ucr_version(ctx, params, None);
    }
}

impl Rule for A2aExtensionViolation {
    fn check_carrier(&self, ctx: &mut Context, carrier: &Carrier) {
        match carrier {
            Carrier::A2aMessage(message) => Self::message(ctx, message),
            Carrier::AgentCard(card) => Self::card(ctx, card),
            Carrier::Unrecognised {
                kind: FileKind::A2a,
                value,
                found,
            } => {
                let expected =
                    "an A2A message, a SendMessage request, a JSON-RPC message or an Agent Card";
                let message = if *found == "an object" {
                    format!("this object is not {expected}: nothing in it is linted")
                } else {
                    format!("expected {expected}, found {found}")
                };
                Self::report(ctx, value.clone(), message);
            }
            Carrier::Mcp(_) | Carrier::Unrecognised { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_are_recognised_by_form() {
        assert!(is_slip_version("v1") && is_slip_version("v12"));
        assert!(!is_slip_version("1") && !is_slip_version("v") && !is_slip_version("v1.0"));
        for good in ["1.0.0", "10.2.3-rc.1", "1.0.0+build"] {
            assert!(is_semantic_version(good), "{good}");
        }
        for bad in ["1.0", "1.0.0.0", "v1.0.0", "", "1..0", "-1.0.0"] {
            assert!(!is_semantic_version(bad), "{bad}");
        }
        assert_eq!(line_version("  SLIP v2 a b X"), Some("v2"));
        assert_eq!(line_version("slip v1"), None);
    }
}
