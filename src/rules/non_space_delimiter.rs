use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::source::Span;
use crate::syntax::describe_found;
use crate::syntax::document::Carrier;
use crate::syntax::json::is_verbatim;

declare_rule! {
    /// ## What it does
    /// Reports white space in an A2A message's SLIP text other than single spaces
    /// between tokens: a run of spaces, a tab, a line break or another space
    /// character, and white space before the line or after it. It checks the first
    /// text part of messages using the Slipstream extension, in `*.a2a.json` files.
    ///
    /// This is the second of the extension's token rules (§4: the wire text MUST use
    /// spaces as the only structural delimiter). The others are checked elsewhere:
    /// an anchor written as a hex index (`0x0032`, rule 1) is an unknown anchor
    /// (SL601, which names the mnemonic); SLIP's grammar needs none of the markers
    /// `|`, `{}`, `=`, `@`, `#` (rule 3), so a payload token holding one is only
    /// outside the safe profile (rule 4, SL605). In a `.slip` file the same spacing
    /// is SL504's, as formatting.
    ///
    /// ## Why is this bad?
    /// The extension keeps the model-visible text space-delimited so that tokenizers
    /// split it the same way everywhere; a receiver that splits on single spaces
    /// reads empty fields or glued tokens.
    ///
    /// ## Example
    /// ```json
    /// {"text": "SLIP v1 planner  reviewer\tRequestReview "}
    /// ```
    ///
    /// Use instead:
    /// ```json
    /// {"text": "SLIP v1 planner reviewer RequestReview"}
    /// ```
    ///
    /// ## Fix
    /// In text written without escapes, replaces the white space with one space, or
    /// deletes it before or after the line (safe: the reference decoder splits on
    /// any white space, so the tokens stay the same). Text written with escapes
    /// (`\t`, `\n`) is reported on the whole string, without a fix.
    pub struct NonSpaceDelimiter {
        code: "SL608",
        name: "non-space-delimiter",
        severity: Error,
        hooks: [Carrier],
    }
}

/// One stretch of white space that is not a single space between tokens, as a
/// byte range of the decoded text.
fn offending_runs(text: &str) -> Vec<Span> {
    let mut runs = Vec::new();
    let mut run: Option<usize> = None;
    let mut chars = text.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if !c.is_whitespace() {
            continue;
        }
        let start = *run.get_or_insert(at);
        let next = chars.peek().map(|&(_, n)| n);
        if next.is_some_and(char::is_whitespace) {
            continue;
        }
        let end = at + c.len_utf8();
        run = None;
        let single_space = &text[start..end] == " " && start > 0 && end < text.len();
        if !single_space {
            runs.push(start..end);
        }
    }
    runs
}

impl Rule for NonSpaceDelimiter {
    fn check_carrier(&self, ctx: &mut Context, carrier: &Carrier) {
        let Carrier::A2aMessage(message) = carrier else {
            return;
        };
        let Some((node, text)) = message.text.as_ref().and_then(|n| Some((n, n.as_str()?))) else {
            return;
        };
        if text.trim().is_empty() {
            return;
        }
        let in_place = is_verbatim(text, &node.span);
        let mut reported_escaped = false;
        for run in offending_runs(text) {
            let white = &text[run.clone()];
            let at_edge = run.start == 0 || run.end == text.len();
            let found = if run.start == 0 {
                "white space before the SLIP line".to_string()
            } else if run.end == text.len() {
                "white space after the SLIP line".to_string()
            } else if white.chars().all(|c| c == ' ') {
                format!("{} spaces between tokens", white.len())
            } else {
                format!("{} between tokens", describe_found(white))
            };
            let message = format!("{found}: SLIP-A2A separates tokens with single spaces only");
            if !in_place {
                // Every finding would cover the same string: the first says it.
                if !reported_escaped {
                    ctx.report(&Self::META, node.span.clone(), message);
                    reported_escaped = true;
                }
                continue;
            }
            let base = node.span.start + 1;
            let span = base + run.start..base + run.end;
            let replacement = if at_edge { "" } else { " " };
            ctx.report(&Self::META, span.clone(), message)
                .fix(Fix::safe(
                    if at_edge {
                        "Delete the white space"
                    } else {
                        "Replace with one space"
                    },
                    vec![Edit::replace(span, replacement)],
                ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::offending_runs;

    #[test]
    fn only_single_spaces_between_tokens_pass() {
        let runs = |text: &'static str| -> Vec<&'static str> {
            offending_runs(text).into_iter().map(|r| &text[r]).collect()
        };
        assert!(runs("SLIP v1 a b RequestReview x").is_empty());
        assert_eq!(
            runs(" SLIP v1  a\tb\u{a0}X\n"),
            [" ", "  ", "\t", "\u{a0}", "\n"]
        );
    }
}
