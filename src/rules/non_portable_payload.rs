use super::{declare_rule, Context, Rule};
use crate::syntax::describe_found;
use crate::syntax::slip::{Message, SlipPayload};

declare_rule! {
    /// ## What it does
    /// Reports a Slipstream payload token outside the portable profile: a token must
    /// be either a bare word of ASCII letters, digits, `.`, `-` and `_`, or a
    /// double-quoted string of printable ASCII (space included) without `"` and `\`.
    ///
    /// The profile is the SLIP-A2A extension's (its ABNF's `PAYLOAD = SAFE / QUOTED`;
    /// §4: payload tokens SHOULD be safe identifiers), so the rule checks where that
    /// extension applies: the SLIP text of A2A messages, in `*.a2a.json` files. In
    /// other SLIP text (`.slip` files, Markdown fences, NLIP messages) it runs only
    /// when a selector names it: `--select SL605`, `select = ["SL6"]` (`ALL`, like
    /// the default, does not). The Slipstream reference accepts any token, and its
    /// own training data writes such tokens freely: 808 of its 2,267 distinct lines
    /// (over a third; tokens such as `task:` and `60%`) would be warned about, so the
    /// warning would be noise everywhere but where the profile is promised.
    ///
    /// ## Why is this bad?
    /// The reference decoder splits a message on white space and keeps every token
    /// as-is, but other implementations, logs and transports may escape, normalise or
    /// re-split anything else: quotes glued to words, backslashes, non-ASCII letters,
    /// emoji and control characters do not survive every hop unchanged. They also
    /// cost several tokens each in LLM tokenizers, which is what SLIP exists to save.
    ///
    /// ## Example
    /// ```slip
    /// SLIP v1 planner executor RequestTask déployer auth:module "say \"hi\""
    /// ```
    ///
    /// Use instead:
    /// ```slip
    /// SLIP v1 planner executor RequestTask deploy auth_module "say hi"
    /// ```
    ///
    /// ## Fix
    /// No automatic fix: transliterating or dropping characters can change what the
    /// payload says. Rewrite the token in portable characters, or quote free text
    /// that needs other printable ASCII.
    pub struct NonPortablePayload {
        code: "SL605",
        name: "non-portable-payload",
        severity: Warning,
        hooks: [Slip],
    }
}

/// A character allowed in a bare payload word.
fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')
}

/// A character allowed between the quotes of a quoted payload.
fn is_quoted_char(c: char) -> bool {
    matches!(c, ' '..='~') && c != '"' && c != '\\'
}

/// The first character that puts `payload` outside the portable profile, if any.
fn first_offending(payload: &SlipPayload) -> Option<char> {
    let inner = payload
        .text
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
        .filter(|_| payload.quoted);
    match inner {
        Some(inner) => inner.chars().find(|c| !is_quoted_char(*c)),
        None => payload.text.chars().find(|c| !is_word_char(*c)),
    }
}

/// A payload token for a message, in backticks (shortened), when every character is
/// visible or a plain space; `None` when it holds other white space or controls.
fn show_token(text: &str) -> Option<String> {
    if !text
        .chars()
        .all(|c| c == ' ' || (!c.is_whitespace() && !c.is_control()))
    {
        return None;
    }
    let shown: String = text.chars().take(40).collect();
    let more = if text.chars().nth(40).is_some() {
        "..."
    } else {
        ""
    };
    Some(format!("`{shown}{more}`"))
}

impl Rule for NonPortablePayload {
    fn check_slip(&self, ctx: &mut Context, message: &Message) {
        if !ctx.a2a_profile_applies(&Self::META) {
            return;
        }
        for payload in &message.payload {
            let Some(bad) = first_offending(payload) else {
                continue;
            };
            let help = if payload.quoted {
                "inside quotes, use printable ASCII without `\"` and `\\`"
            } else {
                "use ASCII letters, digits, `.`, `-` and `_`, or quote free text: \"...\""
            };
            ctx.report(
                &Self::META,
                payload.span.clone(),
                format!(
                    "payload token {}is not portable: it holds {}",
                    show_token(payload.text).map_or(String::new(), |t| t + " "),
                    describe_found(bad.encode_utf8(&mut [0; 4]))
                ),
            )
            .help(help);
        }
    }
}
