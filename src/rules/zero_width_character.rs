use super::{declare_rule, report_deletable_char, Context, Rule};
use crate::source::Span;
use crate::unicode::{is_legitimate_joiner, non_ascii_chars, zero_width_name};

declare_rule! {
    /// ## What it does
    /// Reports each zero-width character: ZERO WIDTH SPACE (U+200B), ZERO WIDTH
    /// NON-JOINER (U+200C), ZERO WIDTH JOINER (U+200D) and ZERO WIDTH NO-BREAK SPACE
    /// (U+FEFF), anywhere in the file, comments included.
    ///
    /// A U+FEFF at the very start of a file is a byte-order mark and is not reported.
    /// Joiners that a writing system needs are not reported either, so multilingual
    /// values stay clean:
    /// - a ZWJ between two emoji, as in the emoji ZWJ sequence 👨‍👩‍👧;
    /// - a ZWNJ or ZWJ between two letters of a script whose spelling uses them:
    ///   Arabic (and Persian, as in `می‌خواهم`), Syriac, Mongolian, and the Indic
    ///   scripts of U+0900–U+0DFF (Devanagari, Bengali, Gurmukhi, Gujarati, Oriya,
    ///   Tamil, Telugu, Kannada, Malayalam, Sinhala);
    /// - a ZWNJ or ZWJ right after a virama (the Brahmic scripts, Myanmar, Khmer),
    ///   where it selects a conjunct, a half form or a Malayalam chillu.
    ///
    /// Every other zero-width character is reported.
    ///
    /// ## Why is this bad?
    /// A zero-width character is invisible in editors, terminals and code review, but
    /// it is part of the token it sits in: `cancel` with a U+200B inside is not the
    /// verb `cancel` to a receiver, and an agent id or `req_id` with one inside does
    /// not match the one it looks identical to. Hidden characters are also a way to
    /// smuggle instructions or split a word past a filter.
    ///
    /// ## Example
    /// ```silp
    /// can​cel(flight) # a U+200B hides between `can` and `cel`
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// cancel(flight)
    /// ```
    ///
    /// ## Fix
    /// Deletes the character (safe: it has no visible effect, so the text reads the
    /// same afterwards).
    pub struct ZeroWidthCharacter {
        code: "SL201",
        name: "zero-width-character",
        severity: Error,
        hooks: [Text, Prose],
    }
}

impl Rule for ZeroWidthCharacter {
    fn check_prose(&self, ctx: &mut Context, span: Span) {
        self.check_text(ctx, span);
    }

    fn check_text(&self, ctx: &mut Context, span: Span) {
        let region = ctx.slice(&span);
        for (i, c) in non_ascii_chars(region) {
            let Some(name) = zero_width_name(c) else {
                continue;
            };
            let start = span.start + i;
            if c == '\u{FEFF}' && start == 0 {
                continue; // a byte-order mark
            }
            if (c == '\u{200C}' || c == '\u{200D}') && is_legitimate_joiner(region, i, c) {
                continue;
            }
            report_deletable_char(
                ctx,
                &Self::META,
                start,
                c,
                name,
                "it is invisible, but it is part of the token it sits in",
            );
        }
    }
}
