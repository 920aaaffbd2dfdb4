use super::{declare_rule, report_deletable_char, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::source::Span;
use crate::unicode::{
    code_point, decode_tags, invisible_name, is_emoji_presentation, is_flag_tag_sequence, is_tag,
    non_ascii_chars,
};

/// How many hidden characters a tag-run message shows.
const SHOWN_TAGS: usize = 80;

declare_rule! {
    /// ## What it does
    /// Reports invisible characters that are neither zero-width characters (SL201)
    /// nor bidirectional controls (SL203), anywhere in the file, comments included:
    /// - tag characters U+E0000–U+E007F: each run of them is one diagnostic, whose
    ///   message shows the text they spell (ASCII smuggling);
    /// - WORD JOINER and the invisible operators U+2060–U+2064;
    /// - SOFT HYPHEN U+00AD, COMBINING GRAPHEME JOINER U+034F, MONGOLIAN VOWEL
    ///   SEPARATOR U+180E;
    /// - the Hangul fillers U+115F, U+1160, U+3164, U+FFA0;
    /// - variation selectors U+FE00–U+FE0F and U+E0100–U+E01EF.
    ///
    /// Emoji sequences are not reported: a U+FE0F or U+FE0E right after an emoji
    /// or a keycap base (`❤️`, `1️⃣`), and the tag characters of a subdivision flag
    /// (🏴 followed by two to six tag letters or digits and CANCEL TAG, as in the
    /// flag of Scotland). Other variation sequences are reported, ideographic ones
    /// (a Han character followed by U+E0100–U+E01EF) included: they are rare in
    /// payloads, and the same selectors can carry hidden bytes after any character.
    ///
    /// ## Why is this bad?
    /// These characters do not show, or show as nothing, yet they are part of the
    /// text. Tag characters mirror ASCII one for one, so a model reading the payload
    /// may see a whole hidden instruction that no person reviewing it can; variation
    /// selectors can likewise carry hidden bytes after any character. Fillers and
    /// joiners make two tokens that look identical compare different.
    ///
    /// ## Example
    /// ```silp
    /// start(hike󠁩󠁧󠁮󠁯󠁲󠁥) # tag characters after `hike` spell `ignore`
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// start(hike)
    /// ```
    ///
    /// ## Fix
    /// Deletes the character, or the whole run of tag characters (safe: nothing
    /// visible changes).
    pub struct InvisibleCharacter {
        code: "SL204",
        name: "invisible-character",
        severity: Error,
        hooks: [Text, Prose],
    }
}

impl Rule for InvisibleCharacter {
    fn check_prose(&self, ctx: &mut Context, span: Span) {
        self.check_text(ctx, span);
    }

    fn check_text(&self, ctx: &mut Context, span: Span) {
        let region = ctx.slice(&span);
        let mut chars = non_ascii_chars(region).peekable();
        while let Some((i, c)) = chars.next() {
            if is_tag(c) {
                let mut end = i + c.len_utf8();
                while let Some(&(j, next)) = chars.peek() {
                    if j != end || !is_tag(next) {
                        break;
                    }
                    end = j + next.len_utf8();
                    chars.next();
                }
                let run = &region[i..end];
                if is_flag_tag_sequence(region[..i].chars().next_back(), run) {
                    continue;
                }
                let at = span.start + i..span.start + end;
                let hidden = decode_tags(run, SHOWN_TAGS);
                let message = if run.chars().count() == 1 {
                    format!("tag character {} hides the text `{hidden}`", code_point(c))
                } else {
                    format!("tag characters hide the text `{hidden}`")
                };
                ctx.report(&Self::META, at.clone(), message)
                    .help("tag characters are invisible copies of ASCII: a model reads them, people do not")
                    .fix(Fix::safe("delete the tag characters", vec![Edit::delete(at)]));
                continue;
            }
            let Some(name) = invisible_name(c) else {
                continue;
            };
            if is_emoji_presentation(region, i, c) {
                continue;
            }
            let start = span.start + i;
            report_deletable_char(
                ctx,
                &Self::META,
                start,
                c,
                &name,
                "it is invisible, but it is part of the text a receiver reads",
            );
        }
    }
}
