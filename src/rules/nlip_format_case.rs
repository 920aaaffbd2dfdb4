use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::syntax::json::JsonNode;
use crate::syntax::nlip::{messages, FORMATS};

declare_rule! {
    /// ## What it does
    /// Reports an NLIP `format` value that names a known format in a case other
    /// than lower case, such as `"TEXT"` or `"Structured"`, in a message or a
    /// submessage.
    ///
    /// Case is compared as the SDK compares it (Python's `str.lower`, full Unicode
    /// lower-casing). A value that names no format in any case is
    /// `nlip-envelope-violation`'s (SL701).
    ///
    /// ## Why is this bad?
    /// The reference NLIP SDK reads `format` case-insensitively but writes it in
    /// lower case, so the message is understood, yet it differs from what the SDK
    /// and every peer that uses it write; a stricter receiver may reject it.
    ///
    /// ## Example
    /// ```json
    /// {"format": "TEXT", "subformat": "english", "content": "hello"}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"format": "text", "subformat": "english", "content": "hello"}
    /// ```
    ///
    /// ## Fix
    /// Rewrites the value in lower case (safe: the SDK reads both alike).
    pub struct NlipFormatCase {
        code: "SL703",
        name: "nlip-format-case",
        severity: Warning,
        hooks: [Nlip],
    }
}

impl Rule for NlipFormatCase {
    fn check_nlip(&self, ctx: &mut Context, root: &JsonNode) {
        for message in messages(root) {
            let Some(format) = message.get("format") else {
                continue;
            };
            let Some(name) = format.as_str() else {
                continue;
            };
            let lower = name.to_lowercase();
            if lower == name || !FORMATS.contains(&lower.as_str()) {
                continue;
            }
            ctx.report(
                &Self::META,
                format.span.clone(),
                format!(
                    "NLIP format `{name}` is not lower case; the reference SDK reads it case-insensitively and writes `{lower}`"
                ),
            )
            .fix(Fix::safe(
                format!("Lower-case to `{lower}`"),
                vec![Edit::replace(format.span.clone(), format!("\"{lower}\""))],
            ));
        }
    }
}
