use super::{declare_rule, Context, Rule};
use crate::syntax::a2a::EXTENSION_URI;
use crate::syntax::document::Carrier;
use crate::syntax::json::JsonNode;
use crate::vocabulary::{ucr_hash, UCR_VERSION};

declare_rule! {
    /// ## What it does
    /// Checks the `ucrHash` of an A2A message's Slipstream metadata and of an Agent
    /// Card's Slipstream extension `params` against the UCR silp-lint lints with: the
    /// 46 UCR v1.0 core anchors and the extension anchors of `[extend-anchors]`. It
    /// reports a hash that is not `sha256:` and 64 lower-case hex digits (the texts'
    /// own placeholder `sha256:<hex>` included), a hash of another anchor table, and
    /// an Agent Card whose params leave `ucrHash` out (§5: agents SHOULD publish it).
    /// A message may leave it out (the extension's own §3.3 example does).
    ///
    /// The hash is computed as the extension's §5 and its reference helper
    /// (`stable_ucr_hash`) compute it: the anchors sorted by index, one line each,
    /// `index|mnemonic|canonical|coords` with the index in decimal and the four
    /// coordinates comma-joined, lines joined by a line feed with none at the end,
    /// then SHA-256 over the UTF-8 bytes. Configuration gives an extension anchor only
    /// a mnemonic and an index, so its canonical text and coordinates are empty, as
    /// the helper writes an anchor without them: `32768|EXT_CheckTheKubernetesPod||`.
    /// The core anchors alone hash to
    /// `sha256:19bb36792d59061553d1b63cc4d56ec3e8748b7b059737754057fa3e7abbc700`.
    ///
    /// ## Why is this bad?
    /// Agents SHOULD reject a message whose `ucrHash` differs from their own (§5): the
    /// anchors would mean different things at each end, or the receiver falls back
    /// to plain text. A placeholder left in a template fails every check.
    ///
    /// ## Example
    /// ```json
    /// {"slipVersion": "v1", "ucrVersion": "1.0.0", "ucrHash": "sha256:<hex>", "encoding": "mnemonic"}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"slipVersion": "v1", "ucrVersion": "1.0.0",
    ///  "ucrHash": "sha256:19bb36792d59061553d1b63cc4d56ec3e8748b7b059737754057fa3e7abbc700",
    ///  "encoding": "mnemonic"}
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: the help gives the hash of the configured UCR. A peer whose
    /// extension anchors carry canonical text and coordinates hashes them too; when
    /// its hash is right, turn this rule off for those files (`per-file-ignores`).
    pub struct UcrHashMismatch {
        code: "SL607",
        name: "ucr-hash-mismatch",
        severity: Warning,
        hooks: [Carrier],
    }
}

/// Whether `text` has the form of a `ucrHash`: `sha256:` and 64 lower-case hex digits.
fn is_sha256(text: &str) -> bool {
    text.strip_prefix("sha256:").is_some_and(|hex| {
        hex.len() == 64 && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    })
}

impl UcrHashMismatch {
    fn check(ctx: &mut Context, hash: &JsonNode, what: &str) {
        let Some(written) = hash.as_str() else {
            ctx.report(
                &Self::META,
                hash.span.clone(),
                format!(
                    "{what} `ucrHash` must be a string, found {}",
                    hash.type_name()
                ),
            );
            return;
        };
        let extensions = &ctx.settings().extend_anchors;
        let expected = ucr_hash(extensions);
        let configured = match extensions.len() {
            0 => format!("the UCR v{UCR_VERSION} core anchors"),
            n => format!(
                "the UCR v{UCR_VERSION} core anchors and {n} extension anchor{} of `[extend-anchors]`",
                if n == 1 { "" } else { "s" }
            ),
        };
        if !is_sha256(written) {
            ctx.report(
                &Self::META,
                hash.span.clone(),
                format!("{what} `ucrHash` is not a SHA-256 hash (`sha256:` and 64 lower-case hex digits)"),
            )
            .help(format!("{configured} hash to `{expected}`"));
        } else if written != expected {
            let core = ucr_hash(&[]);
            let help = if written == core {
                format!(
                    "it is the hash of the core anchors alone; {configured} hash to `{expected}`"
                )
            } else {
                format!("{configured} hash to `{expected}`")
            };
            ctx.report(
                &Self::META,
                hash.span.clone(),
                format!("{what} `ucrHash` is not the hash of the UCR silp-lint is configured with"),
            )
            .help(help);
        }
    }
}

impl Rule for UcrHashMismatch {
    fn check_carrier(&self, ctx: &mut Context, carrier: &Carrier) {
        match carrier {
            Carrier::A2aMessage(message) => {
                let hash = message
                    .metadata
                    .as_ref()
                    .and_then(|m| m.get(EXTENSION_URI))
                    .and_then(|entry| entry.get("ucrHash"));
                if let Some(hash) = hash {
                    Self::check(ctx, hash, "the message's");
                }
            }
            Carrier::AgentCard(card) => {
                let Some(params) = card.entry.get("params").filter(|p| p.is_object()) else {
                    return;
                };
                let Some(hash) = params.get("ucrHash") else {
                    let expected = ucr_hash(&ctx.settings().extend_anchors);
                    ctx.report(
                        &Self::META,
                        params.span.clone(),
                        "the Agent Card's Slipstream params lack `ucrHash`: clients cannot check that they share its UCR",
                    )
                    .help(format!("add `\"ucrHash\": \"{expected}\"`"));
                    return;
                };
                Self::check(ctx, hash, "the Agent Card's");
            }
            Carrier::Mcp(_) | Carrier::Unrecognised { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_sha256;

    #[test]
    fn hashes_are_recognised_by_form() {
        assert!(is_sha256(&format!("sha256:{}", "0a".repeat(32))));
        assert!(!is_sha256("sha256:<hex>"));
        assert!(!is_sha256(&format!("sha256:{}", "0A".repeat(32))));
        assert!(!is_sha256(&format!("SHA256:{}", "0a".repeat(32))));
        assert!(!is_sha256(&"0a".repeat(32)));
    }
}
