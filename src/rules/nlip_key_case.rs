use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::syntax::json::JsonNode;
use crate::syntax::nlip::messages;

/// The keys of an NLIP message and submessage.
const KEYS: [&str; 6] = [
    "messagetype",
    "format",
    "subformat",
    "content",
    "label",
    "submessages",
];

declare_rule! {
    /// ## What it does
    /// Reports an NLIP envelope key that is not written in lower case, such as
    /// `Format` or `MessageType`.
    ///
    /// For the reference SDK, a message with `Format` lacks `format`, so
    /// `nlip-envelope-violation` (SL701) reports it too. Only the envelope's own keys
    /// are checked (`messagetype`, `format`, `subformat`, `content`, `label`,
    /// `submessages`); other keys are the application's.
    ///
    /// ## Why is this bad?
    /// The reference NLIP SDK is case-sensitive and reads only the lower-case keys:
    /// `Format` is ignored (or the message rejected for lacking `format`).
    ///
    /// ## Example
    /// ```json
    /// {"Format": "text", "subformat": "english", "content": "hello"}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"format": "text", "subformat": "english", "content": "hello"}
    /// ```
    ///
    /// ## Fix
    /// Lower-casing the key (safe), unless the message already has the lower-case
    /// key: renaming would then make a duplicate whose last copy silently wins, so
    /// remove one of the two by hand.
    pub struct NlipKeyCase {
        code: "SL702",
        name: "nlip-key-case",
        severity: Warning,
        hooks: [Nlip],
    }
}

impl Rule for NlipKeyCase {
    fn check_nlip(&self, ctx: &mut Context, root: &JsonNode) {
        for message in messages(root) {
            for member in message.members() {
                // Most keys are lower-case ASCII already: no lowered copy to compare.
                let key = member.key.as_str();
                if key.is_ascii() && !key.bytes().any(|b| b.is_ascii_uppercase()) {
                    continue;
                }
                let lower = member.key.to_lowercase();
                if lower == member.key || !KEYS.contains(&lower.as_str()) {
                    continue;
                }
                let reported = ctx.report(
                    &Self::META,
                    member.key_span.clone(),
                    format!(
                        "NLIP key `{}` is not lower case; the reference SDK reads only `{lower}`",
                        member.key
                    ),
                );
                // Renaming onto a key the message already has would make a duplicate
                // whose last copy wins: the message would change meaning.
                if member.key_is_verbatim() && message.get(&lower).is_none() {
                    reported.fix(Fix::safe(
                        format!("Rename to `{lower}`"),
                        vec![Edit::replace(
                            member.key_span.start + 1..member.key_span.end - 1,
                            lower,
                        )],
                    ));
                }
            }
        }
    }
}
