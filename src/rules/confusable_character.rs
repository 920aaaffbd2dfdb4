use super::{declare_rule, Context, Rule};
use crate::diagnostics::{Edit, Fix};
use crate::source::Span;
use crate::unicode::{
    ascii_look_alike, char_skeleton, code_point, describe, is_reported, is_word_char,
    looks_like_script, non_ascii_words,
};
use unicode_script::{Script, UnicodeScript};
use unicode_security::MixedScript;

/// How many distinct look-alikes a message names.
const NAMED: usize = 4;
/// How many characters of a long word a message quotes.
const QUOTED: usize = 40;

declare_rule! {
    /// ## What it does
    /// Reports a word that mixes scripts with look-alike characters: Latin with a
    /// Cyrillic `а` (U+0430) in `cаncel`, Latin with a Greek omicron, Cyrillic with a
    /// Latin `a`. A word is a run of letters, digits and combining marks, so verbs,
    /// names, keys, values, agent ids, anchors and action codes are each checked on
    /// their own (`_`, `-`, `.`, quotes, brackets and spaces separate words).
    ///
    /// A word is reported when it is not written in a single script (UTS #39; Han
    /// with Hiragana and Katakana counts as one, Japanese, script) and one of its
    /// characters outside its main script is a known look-alike of a character of
    /// the main script, or when it mixes Latin, Greek and Cyrillic and some letter
    /// passes for one of another of these alphabets (`Иваn`, whose `а` passes for
    /// Latin; `ΡΟΔΟS`; Greek counts there only when it outnumbers the Latin letters).
    /// Text in any one script is fine: `Иван`, `北京欢迎你`, `東京タワー`, `Café`, and
    /// so are mixes without look-alikes, such as `abc日本`, `我用AI模型` and `5μs`, and
    /// Greek symbols next to Latin letters that do not pass for Latin (`ΔT`, `MΩ`,
    /// `μA`, `λmax`).
    /// The main script is Latin when replacing the other characters by their
    /// look-alikes would give a plain ASCII word, otherwise the script most of the
    /// word's letters are in.
    ///
    /// Words joined by `_`, `-` or `.` form one token (a value, a domain name, a
    /// key), as rules.md judges tokens: a word of two or more letters in another
    /// script whose every letter passes for ASCII, joined to Latin text, is reported
    /// too (`аррӏе.com` in Cyrillic, `ΤΟΚΥΟ_Tower` in Greek, a key `app_сору`).
    /// Bilingual tokens such as `Москва_Moscow`, `Αθήνα_Athens` and `Москва.ru`, and
    /// one-letter symbols such as `α-helix`, are fine.
    ///
    /// ## Why is this bad?
    /// A receiver compares code points, people compare shapes. `cаncel` with a
    /// Cyrillic `а` is not the verb `cancel`, an agent id with a Greek `ο` routes
    /// somewhere else than the one it imitates, and a reviewer cannot tell. Mixing
    /// look-alikes inside one word is how homograph attacks spoof names.
    ///
    /// ## Example
    /// ```silp
    /// cаncel(flight)
    /// ```
    ///
    /// Use instead:
    /// ```silp
    /// cancel(flight)
    /// ```
    ///
    /// ## Fix
    /// When the word has Latin letters and every non-ASCII character of it has an
    /// ASCII look-alike (an ASCII letter or digit with the same confusable skeleton,
    /// UTS #39, in the same case: Cyrillic `І` becomes `I`, Cyrillic `і` becomes
    /// `i`), the fix makes those replacements, which spells the word in ASCII. It is
    /// unsafe: the author may have meant the other script, and the result is a
    /// different word.
    pub struct ConfusableCharacter {
        code: "SL202",
        name: "confusable-character",
        severity: Error,
        hooks: [Text],
    }
}

impl Rule for ConfusableCharacter {
    fn check_text(&self, ctx: &mut Context, span: Span) {
        let region = ctx.slice(&span);
        for (offset, word) in non_ascii_words(region) {
            if word.is_single_script() {
                check_token_part(ctx, region, span.start, offset, word);
            } else {
                check_word(ctx, span.start + offset, word);
            }
        }
    }
}

/// Whether `side` (the text after a word, or before it read backwards) starts with
/// joiners and then a word holding a Latin letter. Only that next word is read, so
/// a long token costs linear time, not quadratic.
fn latin_across_joiner(side: impl Iterator<Item = char>) -> bool {
    let mut side = side.peekable();
    let mut joined = false;
    while side.next_if(|c| is_joiner(*c)).is_some() {
        joined = true;
    }
    joined
        && side
            .take_while(|c| is_word_char(*c))
            .any(|c| c.script() == Script::Latin)
}

/// The characters that join the words of one token (`paypal.com`, `5_Tianfu_Ave`).
fn is_joiner(c: char) -> bool {
    matches!(c, '_' | '-' | '.')
}

/// A word in one script other than Latin, each of whose letters passes for an ASCII
/// one, joined by `_`, `-` or `.` to Latin text in the same token (`аррӏе.com`,
/// `ΤΟΚΥΟ_Tower`): the token reads as ASCII but is not. Bilingual tokens whose other
/// part has letters of its own (`Москва_Moscow`, `Αθήνα_Athens`) are fine, and so is
/// a one-letter symbol (`α-helix`).
fn check_token_part(ctx: &mut Context, region: &str, base: usize, offset: usize, word: &str) {
    let joined_to_latin = latin_across_joiner(region[..offset].chars().rev())
        || latin_across_joiner(region[offset + word.len()..].chars());
    // One letter is a symbol more often than a spoof (`α-helix`, `γ-ray`).
    if !joined_to_latin
        || word.chars().nth(1).is_none()
        || word
            .chars()
            .any(|c| c.script() == Script::Latin || !c.is_alphabetic())
    {
        return;
    }
    let Some(edits) = ascii_spelling(word) else {
        return;
    };
    let start = base + offset;
    let script = word.chars().next().map_or(Script::Unknown, |c| c.script());
    let spelling = ascii_word(word, &edits);
    ctx.report(
        &ConfusableCharacter::META,
        start..start + word.len(),
        format!(
            "`{}` is {} joined to Latin text, and every letter of it passes for ASCII: it reads as `{spelling}`",
            quote(word),
            script.full_name()
        ),
    )
    .help("a receiver compares code points, not shapes: this token is not the one it looks like")
    .fix(Fix::unsafe_(
        format!("spell it `{spelling}`"),
        edits
            .into_iter()
            .map(|(at, text)| Edit::replace(start + at..start + at + len_at(word, at), text))
            .collect(),
    ));
}

/// A mixed-script word starting at byte `start` of the file.
fn check_word(ctx: &mut Context, start: usize, word: &str) {
    let ascii = ascii_spelling(word);
    let mut main = main_script(word, ascii.is_some());
    let mut look_alikes = look_alikes_of(word, main);
    if look_alikes.is_empty() {
        // Latin, Greek and Cyrillic letters never share a word: when the minority
        // letters look like nothing of the main script (`Иваn`), the word may still
        // pass for one in another of these alphabets (its `а` for Latin `a`). But
        // Greek letters that do not outnumber the Latin ones are symbols in Latin
        // text (`ΔT`, `MΩ`, `μA`, `λmax`), not a Greek word.
        let count = |script| word.chars().filter(|c| c.script() == script).count();
        let alphabets = if count(Script::Greek) > count(Script::Latin) {
            vec![Script::Latin, Script::Greek, Script::Cyrillic]
        } else {
            vec![Script::Latin, Script::Cyrillic]
        };
        let present: Vec<Script> = alphabets
            .into_iter()
            .filter(|script| word.chars().any(|c| c.script() == *script))
            .collect();
        if present.len() >= 2 {
            for script in present {
                look_alikes = look_alikes_of(word, script);
                if !look_alikes.is_empty() {
                    main = script;
                    break;
                }
            }
        }
    }
    if look_alikes.is_empty() {
        return;
    }
    let mut others: Vec<&str> = Vec::new();
    for c in &look_alikes {
        let name = c.script().full_name();
        if !others.contains(&name) {
            others.push(name);
        }
    }
    let mut named: Vec<String> = look_alikes
        .iter()
        .take(NAMED)
        .map(|c| {
            let shape = ascii_look_alike(*c).unwrap_or_else(|| char_skeleton(*c));
            if shape.is_empty() || shape == c.to_string() {
                describe(*c)
            } else {
                format!("{} looks like `{shape}`", describe(*c))
            }
        })
        .collect();
    if look_alikes.len() > NAMED {
        named.push(format!("and {} more", look_alikes.len() - NAMED));
    }
    let message = format!(
        "`{}` mixes {} with {} look-alikes: {}",
        quote(word),
        main.full_name(),
        others.join(" and "),
        named.join(", ")
    );
    let span = start..start + word.len();
    let reported = ctx.report(&ConfusableCharacter::META, span, message).help(
        "a receiver compares code points, not shapes: this is a different word from the one it looks like",
    );
    if let Some(edits) = ascii.filter(|_| main == Script::Latin) {
        let spelling = ascii_word(word, &edits);
        let edits = edits
            .into_iter()
            .map(|(at, text)| Edit::replace(start + at..start + at + len_at(word, at), text))
            .collect();
        reported.fix(Fix::unsafe_(format!("spell it `{spelling}`"), edits));
    }
}

/// The distinct characters of `word` outside `script` that look like letters of it.
fn look_alikes_of(word: &str, script: Script) -> Vec<char> {
    let mut look_alikes: Vec<char> = Vec::new();
    for c in word.chars() {
        let own = c.script();
        if matches!(own, Script::Common | Script::Inherited | Script::Unknown)
            || own == script
            || look_alikes.contains(&c)
        {
            continue;
        }
        if looks_like_script(c, script) {
            look_alikes.push(c);
        }
    }
    look_alikes
}

/// For each non-ASCII character of `word`, its offset and the ASCII character it
/// passes for, when every one of them has one (so replacing them makes the word
/// ASCII).
fn ascii_spelling(word: &str) -> Option<Vec<(usize, String)>> {
    let mut edits = Vec::new();
    for (i, c) in word.char_indices() {
        if c.is_ascii() {
            continue;
        }
        edits.push((i, ascii_look_alike(c)?));
    }
    Some(edits)
}

/// `word` with the replacements of [`ascii_spelling`] made.
fn ascii_word(word: &str, edits: &[(usize, String)]) -> String {
    let mut out = String::with_capacity(word.len());
    let mut last = 0;
    for (at, text) in edits {
        out.push_str(&word[last..*at]);
        out.push_str(text);
        last = at + len_at(word, *at);
    }
    out.push_str(&word[last..]);
    out
}

/// The UTF-8 length of the character at byte `at` of `word`.
fn len_at(word: &str, at: usize) -> usize {
    word.get(at..)
        .and_then(|rest| rest.chars().next())
        .map_or(0, char::len_utf8)
}

/// The script the word means to be in: Latin when it can be spelled in ASCII and has
/// Latin letters, otherwise the script of most of its letters (ties go to Latin,
/// then to the script seen first).
fn main_script(word: &str, ascii_spelling: bool) -> Script {
    let mut counts: Vec<(Script, usize)> = Vec::new();
    for c in word.chars() {
        let script = c.script();
        if matches!(script, Script::Common | Script::Inherited | Script::Unknown) {
            continue;
        }
        match counts.iter_mut().find(|(s, _)| *s == script) {
            Some((_, n)) => *n += 1,
            None => counts.push((script, 1)),
        }
    }
    let has_latin = counts.iter().any(|(s, _)| *s == Script::Latin);
    if has_latin && ascii_spelling {
        return Script::Latin;
    }
    let mut best: Option<(Script, usize)> = None;
    for &(script, n) in &counts {
        let better = match best {
            None => true,
            Some((b, m)) => n > m || (n == m && script == Script::Latin && b != Script::Latin),
        };
        if better {
            best = Some((script, n));
        }
    }
    best.map_or(Script::Latin, |(s, _)| s)
}

/// The word for a message, cut after [`QUOTED`] characters, with the invisible
/// characters other rules report (joiners, selectors, the Arabic letter mark) shown
/// as `<U+XXXX>`.
fn quote(word: &str) -> String {
    let mut out = String::new();
    for (n, c) in word.chars().enumerate() {
        if n == QUOTED {
            out.push('…');
            break;
        }
        if is_reported(c) {
            out.push('<');
            out.push_str(&code_point(c));
            out.push('>');
        } else {
            out.push(c);
        }
    }
    out
}
