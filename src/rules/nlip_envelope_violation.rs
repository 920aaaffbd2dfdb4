use super::{declare_rule, Context, Rule};
use crate::syntax::json::{JsonNode, JsonValue};
use crate::syntax::nlip::{messages, FORMATS};

declare_rule! {
    /// ## What it does
    /// Checks the envelope of an NLIP message (`*.nlip.json`) and of each of its
    /// `submessages`: `format`, `subformat` and `content` must be present, `format`
    /// must be one of `text`, `token`, `structured`, `binary`, `location`, `error`,
    /// `generic`, and `content` must be a string or an object.
    ///
    /// A known format written in another case (`TEXT`) is accepted here: the
    /// reference SDK reads format values case-insensitively, and `nlip-format-case`
    /// (SL703) asks for the lower case it writes.
    ///
    /// ## Why is this bad?
    /// The reference NLIP SDK rejects a message without these fields, and a receiver
    /// cannot tell how to read content of an unknown format.
    ///
    /// ## Example
    /// ```json
    /// {"format": "txt", "content": "SLIP v1 alice bob RequestReview"}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"format": "text", "subformat": "english", "content": "SLIP v1 alice bob RequestReview"}
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: add the missing fields with the values the message needs.
    pub struct NlipEnvelopeViolation {
        code: "SL701",
        name: "nlip-envelope-violation",
        severity: Error,
        hooks: [Nlip],
    }
}

impl Rule for NlipEnvelopeViolation {
    fn check_nlip(&self, ctx: &mut Context, root: &JsonNode) {
        if let Some(submessages) = root.get("submessages") {
            match &submessages.value {
                JsonValue::Array(items) => {
                    for item in items.iter().filter(|item| !item.is_object()) {
                        ctx.report(
                            &Self::META,
                            item.span.clone(),
                            format!("a submessage must be an object, found {}", item.type_name()),
                        );
                    }
                }
                _ => {
                    ctx.report(
                        &Self::META,
                        submessages.span.clone(),
                        format!(
                            "`submessages` must be an array, found {}",
                            submessages.type_name()
                        ),
                    );
                }
            }
        }
        for (i, message) in messages(root).into_iter().enumerate() {
            let which = if i == 0 {
                "the message"
            } else {
                "this submessage"
            };
            for field in ["format", "subformat", "content"] {
                if message.get(field).is_none() {
                    ctx.report(
                        &Self::META,
                        message.span.clone(),
                        format!("{which} lacks `{field}`"),
                    );
                }
            }
            if let Some(format) = message.get("format") {
                match format.as_str() {
                    // Any case: the SDK reads it case-insensitively (SL703 asks for
                    // the lower case it writes).
                    Some(name) if FORMATS.contains(&name.to_lowercase().as_str()) => {}
                    Some(name) => {
                        ctx.report(
                            &Self::META,
                            format.span.clone(),
                            format!("`{name}` is not an NLIP format"),
                        )
                        .help(format!("use one of {}", FORMATS.join(", ")));
                    }
                    None => {
                        ctx.report(
                            &Self::META,
                            format.span.clone(),
                            format!("`format` must be a string, found {}", format.type_name()),
                        );
                    }
                }
            }
            if let Some(subformat) = message.get("subformat") {
                if subformat.as_str().is_none() {
                    ctx.report(
                        &Self::META,
                        subformat.span.clone(),
                        format!(
                            "`subformat` must be a string, found {}",
                            subformat.type_name()
                        ),
                    );
                }
            }
            if let Some(content) = message.get("content") {
                if !matches!(content.value, JsonValue::String(_) | JsonValue::Object(_)) {
                    ctx.report(
                        &Self::META,
                        content.span.clone(),
                        format!(
                            "`content` must be a string or an object, found {}",
                            content.type_name()
                        ),
                    );
                }
            }
        }
    }
}
