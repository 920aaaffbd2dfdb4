use super::{declare_rule, report_deletable_char, Context, Rule};
use crate::source::Span;
use crate::unicode::{bidi_control_name, non_ascii_chars};

declare_rule! {
    /// ## What it does
    /// Reports each bidirectional control character, anywhere in the file, comments
    /// included: the embeddings and overrides U+202A–U+202E, the isolates
    /// U+2066–U+2069, and the marks U+200E (LEFT-TO-RIGHT MARK), U+200F
    /// (RIGHT-TO-LEFT MARK) and U+061C (ARABIC LETTER MARK).
    ///
    /// ## Why is this bad?
    /// Bidirectional controls reorder how text is displayed without changing what it
    /// is (the "Trojan Source" attack, CVE-2021-42574): a payload can show
    /// `allow(user)` on screen while the bytes a receiver decodes say something else,
    /// or hide the end of a value behind a comment. Right-to-left text (Arabic,
    /// Hebrew) displays correctly without them.
    ///
    /// ## Example
    /// ```silp
    /// start(hike) # a U+202E after "start(" shows the rest of the line reversed
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// start(hike)
    /// ```
    ///
    /// ## Fix
    /// Deletes the character (safe: it only changes how the text is displayed).
    pub struct BidiControl {
        code: "SL203",
        name: "bidi-control",
        severity: Error,
        hooks: [Text, Prose],
    }
}

impl Rule for BidiControl {
    fn check_prose(&self, ctx: &mut Context, span: Span) {
        self.check_text(ctx, span);
    }

    fn check_text(&self, ctx: &mut Context, span: Span) {
        let region = ctx.slice(&span);
        for (i, c) in non_ascii_chars(region) {
            let Some(name) = bidi_control_name(c) else {
                continue;
            };
            let start = span.start + i;
            report_deletable_char(ctx, &Self::META, start, c, name, "it reorders how the text is displayed, so what you see is not what a receiver reads");
        }
    }
}
