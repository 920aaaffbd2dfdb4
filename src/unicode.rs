//! Character classification shared by the Unicode security rules (SL201–SL204):
//! which characters are invisible, zero-width or bidirectional controls, what they
//! are called, where emoji sequences legitimately use joiners and selectors, and how
//! a text splits into words for the mixed-script check.

use std::collections::HashMap;
use std::sync::OnceLock;
use unicode_script::{Script, UnicodeScript};
use unicode_security::{is_potential_mixed_script_confusable_char, skeleton};

/// `U+XXXX`, at least four hex digits.
pub fn code_point(c: char) -> String {
    format!("U+{:04X}", c as u32)
}

/// The name of a zero-width character (SL201), if `c` is one.
pub fn zero_width_name(c: char) -> Option<&'static str> {
    match c {
        '\u{200B}' => Some("zero-width space"),
        '\u{200C}' => Some("zero-width non-joiner"),
        '\u{200D}' => Some("zero-width joiner"),
        '\u{FEFF}' => Some("zero-width no-break space"),
        _ => None,
    }
}

/// The name of a bidirectional control character (SL203), if `c` is one.
pub fn bidi_control_name(c: char) -> Option<&'static str> {
    match c {
        '\u{061C}' => Some("arabic letter mark"),
        '\u{200E}' => Some("left-to-right mark"),
        '\u{200F}' => Some("right-to-left mark"),
        '\u{202A}' => Some("left-to-right embedding"),
        '\u{202B}' => Some("right-to-left embedding"),
        '\u{202C}' => Some("pop directional formatting"),
        '\u{202D}' => Some("left-to-right override"),
        '\u{202E}' => Some("right-to-left override"),
        '\u{2066}' => Some("left-to-right isolate"),
        '\u{2067}' => Some("right-to-left isolate"),
        '\u{2068}' => Some("first strong isolate"),
        '\u{2069}' => Some("pop directional isolate"),
        _ => None,
    }
}

/// Whether `c` is a tag character, U+E0000–U+E007F.
pub fn is_tag(c: char) -> bool {
    ('\u{E0000}'..='\u{E007F}').contains(&c)
}

/// Whether `c` is a variation selector (VS1–VS16 or VS17–VS256).
pub fn is_variation_selector(c: char) -> bool {
    ('\u{FE00}'..='\u{FE0F}').contains(&c) || ('\u{E0100}'..='\u{E01EF}').contains(&c)
}

/// The name of another invisible character (SL204, tag characters aside), if `c` is
/// one: fillers, invisible operators, the soft hyphen, variation selectors.
pub fn invisible_name(c: char) -> Option<String> {
    let name = match c {
        '\u{00AD}' => "soft hyphen",
        '\u{034F}' => "combining grapheme joiner",
        '\u{115F}' => "hangul choseong filler",
        '\u{1160}' => "hangul jungseong filler",
        '\u{180E}' => "mongolian vowel separator",
        '\u{2060}' => "word joiner",
        '\u{2061}' => "function application",
        '\u{2062}' => "invisible times",
        '\u{2063}' => "invisible separator",
        '\u{2064}' => "invisible plus",
        '\u{3164}' => "hangul filler",
        '\u{FFA0}' => "halfwidth hangul filler",
        '\u{FE00}'..='\u{FE0F}' => {
            return Some(format!("variation selector-{}", c as u32 - 0xFE00 + 1));
        }
        '\u{E0100}'..='\u{E01EF}' => {
            return Some(format!("variation selector-{}", c as u32 - 0xE0100 + 17));
        }
        _ => return None,
    };
    Some(name.to_string())
}

/// Whether `c` is an emoji (an approximation of Extended_Pictographic, plus the
/// regional indicators and skin-tone modifiers): a base that emoji presentation
/// selectors and zero-width joiners may follow.
pub fn is_emoji(c: char) -> bool {
    matches!(
        c as u32,
        0x00A9
            | 0x00AE
            | 0x203C
            | 0x2049
            | 0x2122
            | 0x2139
            | 0x2194..=0x2199
            | 0x21A9..=0x21AA
            | 0x231A..=0x231B
            | 0x2328
            | 0x2388
            | 0x23CF
            | 0x23E9..=0x23F3
            | 0x23F8..=0x23FA
            | 0x24C2
            | 0x25AA..=0x25AB
            | 0x25B6
            | 0x25C0
            | 0x25FB..=0x25FE
            | 0x2600..=0x27BF
            | 0x2934..=0x2935
            | 0x2B05..=0x2B07
            | 0x2B1B..=0x2B1C
            | 0x2B50
            | 0x2B55
            | 0x3030
            | 0x303D
            | 0x3297
            | 0x3299
            | 0x1F000..=0x1FAFF
            | 0x1FC00..=0x1FFFD
    )
}

/// Whether `c` starts a keycap sequence (`1️⃣`, `#️⃣`).
pub fn is_keycap_base(c: char) -> bool {
    c.is_ascii_digit() || c == '#' || c == '*'
}

/// Characters that continue an emoji without being one: presentation selectors,
/// skin-tone modifiers and the combining keycap.
fn is_emoji_continuation(c: char) -> bool {
    matches!(
        c,
        '\u{FE0E}' | '\u{FE0F}' | '\u{20E3}' | '\u{1F3FB}'..='\u{1F3FF}'
    )
}

/// The script of `c` when it is a letter or mark of a script whose orthography uses
/// ZWJ and ZWNJ between letters: Arabic (and Persian), Syriac, Mongolian and the
/// Indic scripts of U+0900–U+0DFF.
pub fn uses_joiners(c: char) -> Option<Script> {
    if is_reported(c) {
        return None; // the Arabic letter mark, the Mongolian vowel separator
    }
    let script = c.script();
    matches!(
        script,
        Script::Arabic
            | Script::Syriac
            | Script::Mongolian
            | Script::Devanagari
            | Script::Bengali
            | Script::Gurmukhi
            | Script::Gujarati
            | Script::Oriya
            | Script::Tamil
            | Script::Telugu
            | Script::Kannada
            | Script::Malayalam
            | Script::Sinhala
    )
    .then_some(script)
}

/// How far back the context checks look past marks and selectors.
const CONTEXT_LIMIT: usize = 32;

/// Whether the ZWJ or ZWNJ `joiner` at byte `at` of `text` is part of an emoji ZWJ
/// sequence (a ZWJ between two emoji) or of the orthography of a script that uses
/// joiners (between two letters of Arabic, Syriac, Mongolian or an Indic script, or
/// after a virama).
pub fn is_legitimate_joiner(text: &str, at: usize, joiner: char) -> bool {
    let (Some(before), Some(after)) = (text.get(..at), text.get(at + joiner.len_utf8()..)) else {
        return false;
    };
    // After a virama, a joiner selects a conjunct form, a half form or (in Malayalam,
    // word-finally) a chillu: part of the spelling wherever it stands.
    if before.chars().next_back().is_some_and(is_virama) {
        return true;
    }
    let Some(next) = after.chars().next() else {
        return false;
    };
    if joiner == '\u{200D}' && is_emoji(next) {
        let base = before
            .chars()
            .rev()
            .take(CONTEXT_LIMIT)
            .find(|c| !is_emoji_continuation(*c));
        if base.is_some_and(is_emoji) {
            return true;
        }
    }
    let Some(next_script) = uses_joiners(next) else {
        return false;
    };
    // Skip combining marks (harakat, nuqta) back to the letter they sit on.
    let base = before
        .chars()
        .rev()
        .take(CONTEXT_LIMIT)
        .find(|c| c.script() != Script::Inherited || is_format_mark(*c));
    base.and_then(uses_joiners) == Some(next_script)
}

/// The viramas of the scripts that spell with joiners after them (Brahmic scripts,
/// Myanmar's asat and virama, Khmer's coeng).
fn is_virama(c: char) -> bool {
    matches!(
        c,
        '\u{094D}'
            | '\u{09CD}'
            | '\u{0A4D}'
            | '\u{0ACD}'
            | '\u{0B4D}'
            | '\u{0BCD}'
            | '\u{0C4D}'
            | '\u{0CCD}'
            | '\u{0D4D}'
            | '\u{0DCA}'
            | '\u{1039}'
            | '\u{103A}'
            | '\u{17D2}'
    )
}

/// Whether one of SL201, SL203 or SL204 may report `c`.
pub fn is_reported(c: char) -> bool {
    !c.is_ascii()
        && (zero_width_name(c).is_some()
            || bidi_control_name(c).is_some()
            || is_tag(c)
            || invisible_name(c).is_some())
}

/// `text` with every invisible, bidi-control and control character written as
/// `<U+XXXX>`, so a message quoting user text shows what is there and cannot
/// reorder or hide the terminal line it is printed on.
pub fn visible(text: &str) -> std::borrow::Cow<'_, str> {
    let hidden =
        |c: char| is_reported(c) || (c.is_control() && c != '\n') || is_variation_selector(c);
    // Printable ASCII and line breaks, tested without stopping early so that the
    // loop runs many bytes at a time: messages are nearly all plain.
    let plain = !text.bytes().fold(false, |hidden, b| {
        hidden | (b < b' ' && b != b'\n') | (b > b'~')
    });
    if plain || !text.chars().any(hidden) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut shown = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if hidden(c) {
            shown.push_str(&format!("<U+{:04X}>", c as u32));
        } else {
            shown.push(c);
        }
    }
    std::borrow::Cow::Owned(shown)
}

/// Inherited-script characters that are not combining marks on a letter.
fn is_format_mark(c: char) -> bool {
    zero_width_name(c).is_some() || is_variation_selector(c) || c == '\u{034F}'
}

/// Whether the variation selector at byte `at` of `text` follows an emoji or a
/// keycap base (U+FE0E and U+FE0F only): an emoji presentation sequence.
pub fn is_emoji_presentation(text: &str, at: usize, selector: char) -> bool {
    if selector != '\u{FE0E}' && selector != '\u{FE0F}' {
        return false;
    }
    text.get(..at)
        .and_then(|before| before.chars().next_back())
        .is_some_and(|c| is_emoji(c) || is_keycap_base(c))
}

/// Whether a run of tag characters that directly follows `base` is a well-formed
/// emoji tag sequence (a subdivision flag such as Scotland's 🏴󠁧󠁢󠁳󠁣󠁴󠁿): U+1F3F4
/// then two to six tag letters or digits then CANCEL TAG.
pub fn is_flag_tag_sequence(base: Option<char>, run: &str) -> bool {
    if base != Some('\u{1F3F4}') {
        return false;
    }
    let Some(spec) = run.strip_suffix('\u{E007F}') else {
        return false;
    };
    let count = spec.chars().count();
    (2..=6).contains(&count)
        && spec
            .chars()
            .all(|c| matches!(c, '\u{E0030}'..='\u{E0039}' | '\u{E0061}'..='\u{E007A}'))
}

/// The text a run of tag characters spells: U+E0020–U+E007E are ASCII shifted by
/// U+E0000; the others show as `<U+E0001>`. Long texts are cut at `limit` characters.
pub fn decode_tags(run: &str, limit: usize) -> String {
    let mut out = String::new();
    for (i, c) in run.chars().enumerate() {
        if i == limit {
            out.push('…');
            break;
        }
        let ascii = (c as u32)
            .checked_sub(0xE0000)
            .and_then(char::from_u32)
            .filter(|a| is_tag(c) && (' '..='~').contains(a));
        match ascii {
            Some(ascii) => out.push(ascii),
            _ => {
                out.push('<');
                out.push_str(&code_point(c));
                out.push('>');
            }
        }
    }
    out
}

/// Whether `c` continues a word for the mixed-script check: letters, digits and
/// combining marks (any character that belongs to a particular script, or inherits
/// the script of the letter before it).
pub fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_alphanumeric();
    }
    c.is_alphanumeric() || !matches!(c.script(), Script::Common | Script::Unknown)
}

/// The non-ASCII characters of `text` with their byte offsets: all that the Unicode
/// rules look at, found without decoding the ASCII between them (32, then eight
/// bytes at a time), which is most of a prompt library.
pub fn non_ascii_chars(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    const HIGH_BITS: u64 = 0x8080_8080_8080_8080;
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while let Some(block) = bytes.get(at..).and_then(<[u8]>::first_chunk::<32>) {
            let word =
                |i: usize| u64::from_ne_bytes(block[i..i + 8].try_into().unwrap_or_default());
            if (word(0) | word(8) | word(16) | word(24)) & HIGH_BITS != 0 {
                break;
            }
            at += 32;
        }
        while let Some(chunk) = bytes.get(at..).and_then(<[u8]>::first_chunk::<8>) {
            if u64::from_ne_bytes(*chunk) & HIGH_BITS != 0 {
                break;
            }
            at += 8;
        }
        while bytes.get(at).is_some_and(u8::is_ascii) {
            at += 1;
        }
        let c = text.get(at..)?.chars().next()?;
        let start = at;
        at += c.len_utf8();
        Some((start, c))
    })
}

/// The words of `text` that hold a non-ASCII character, with their byte offsets.
/// A word is a maximal run of word characters ([`is_word_char`]).
pub fn non_ascii_words(text: &str) -> impl Iterator<Item = (usize, &str)> + '_ {
    let mut searched_to = 0;
    non_ascii_chars(text).filter_map(move |(at, c)| {
        if at < searched_to || !is_word_char(c) {
            return None;
        }
        let start = text[..at]
            .char_indices()
            .rev()
            .take_while(|(_, c)| is_word_char(*c))
            .last()
            .map_or(at, |(i, _)| i);
        let end = text[at..]
            .char_indices()
            .find(|(_, c)| !is_word_char(*c))
            .map_or(text.len(), |(i, _)| at + i);
        searched_to = end;
        Some((start, &text[start..end]))
    })
}

/// The confusable skeleton of one character (UTS #39), as a string.
pub fn char_skeleton(c: char) -> String {
    let mut buf = [0u8; 4];
    skeleton(c.encode_utf8(&mut buf)).collect()
}

/// The ASCII letter or digit `c` passes for, when there is one: an ASCII character
/// with the same skeleton, of the same case as `c` where that choice matters (the
/// skeleton of both `I` and `l` is `l`), or the skeleton itself when it is ASCII.
pub fn ascii_look_alike(c: char) -> Option<String> {
    static BY_SKELETON: OnceLock<HashMap<String, Vec<char>>> = OnceLock::new();
    let table = BY_SKELETON.get_or_init(|| {
        let mut table: HashMap<String, Vec<char>> = HashMap::new();
        for a in ('a'..='z').chain('A'..='Z').chain('0'..='9') {
            table.entry(char_skeleton(a)).or_default().push(a);
        }
        table
    });
    let shape = char_skeleton(c);
    if let Some(candidates) = table.get(&shape) {
        let same_case = |a: &&char| {
            (c.is_lowercase() && a.is_ascii_lowercase())
                || (c.is_uppercase() && a.is_ascii_uppercase())
        };
        let best = candidates
            .iter()
            .find(same_case)
            .or_else(|| candidates.iter().find(|a| a.is_ascii_digit()))
            .or_else(|| candidates.first());
        if let Some(best) = best {
            return Some(best.to_string());
        }
    }
    (!shape.is_empty() && shape.chars().all(|a| a.is_ascii_alphanumeric())).then_some(shape)
}

/// For each skeleton of a potential mixed-script confusable character, the scripts
/// of the characters that have it: which scripts hold a look-alike of which shape.
fn prototype_scripts() -> &'static HashMap<String, Vec<Script>> {
    static TABLE: OnceLock<HashMap<String, Vec<Script>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: HashMap<String, Vec<Script>> = HashMap::new();
        for c in (0..0x2_0000).filter_map(char::from_u32) {
            if is_potential_mixed_script_confusable_char(c) {
                let scripts = table.entry(char_skeleton(c)).or_default();
                let script = c.script();
                if !scripts.contains(&script) {
                    scripts.push(script);
                }
            }
        }
        table
    })
}

/// Whether `c` (of another script) can pass for a character of `script`: it is a
/// potential mixed-script confusable whose skeleton is written in `script`, or is
/// the skeleton of a confusable character of `script`.
pub fn looks_like_script(c: char, script: Script) -> bool {
    if !is_potential_mixed_script_confusable_char(c) {
        return false;
    }
    let shape = char_skeleton(c);
    let mut scripts = shape
        .chars()
        .map(|s| s.script())
        .filter(|s| !matches!(s, Script::Common | Script::Inherited));
    let written_in =
        scripts.next().is_some_and(|first| first == script) && scripts.all(|s| s == script);
    written_in
        || prototype_scripts()
            .get(&shape)
            .is_some_and(|scripts| scripts.contains(&script))
}

/// `U+0430 CYRILLIC SMALL LETTER A`: the code point and the character's name, or its
/// script when the name is not in the small table of common look-alikes.
pub fn describe(c: char) -> String {
    match char_name(c) {
        Some(name) => format!("{} {name}", code_point(c)),
        None => format!("{} ({} character)", code_point(c), c.script().full_name()),
    }
}

/// Names of U+0400–U+040F (capitals) and U+0450–U+045F (their small letters).
const CYRILLIC_EXTENDED: [&str; 16] = [
    "IE WITH GRAVE",
    "IO",
    "DJE",
    "GJE",
    "UKRAINIAN IE",
    "DZE",
    "BYELORUSSIAN-UKRAINIAN I",
    "YI",
    "JE",
    "LJE",
    "NJE",
    "TSHE",
    "KJE",
    "I WITH GRAVE",
    "SHORT U",
    "DZHE",
];

/// Names of U+0410–U+042F (capitals) and U+0430–U+044F (their small letters).
const CYRILLIC_BASIC: [&str; 32] = [
    "A",
    "BE",
    "VE",
    "GHE",
    "DE",
    "IE",
    "ZHE",
    "ZE",
    "I",
    "SHORT I",
    "KA",
    "EL",
    "EM",
    "EN",
    "O",
    "PE",
    "ER",
    "ES",
    "TE",
    "U",
    "EF",
    "HA",
    "TSE",
    "CHE",
    "SHA",
    "SHCHA",
    "HARD SIGN",
    "YERU",
    "SOFT SIGN",
    "E",
    "YU",
    "YA",
];

const GREEK: [&str; 25] = [
    "ALPHA",
    "BETA",
    "GAMMA",
    "DELTA",
    "EPSILON",
    "ZETA",
    "ETA",
    "THETA",
    "IOTA",
    "KAPPA",
    "LAMDA",
    "MU",
    "NU",
    "XI",
    "OMICRON",
    "PI",
    "RHO",
    "FINAL SIGMA",
    "SIGMA",
    "TAU",
    "UPSILON",
    "PHI",
    "CHI",
    "PSI",
    "OMEGA",
];

/// The Unicode name of an ASCII letter or digit, or of a basic Cyrillic or Greek
/// letter (the usual look-alikes).
pub fn char_name(c: char) -> Option<String> {
    let cp = c as u32;
    match c {
        'a'..='z' => Some(format!("LATIN SMALL LETTER {}", c.to_ascii_uppercase())),
        'A'..='Z' => Some(format!("LATIN CAPITAL LETTER {c}")),
        '0'..='9' => {
            const DIGITS: [&str; 10] = [
                "ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE",
            ];
            Some(format!("DIGIT {}", DIGITS[(cp - 0x30) as usize]))
        }
        '\u{0400}'..='\u{045F}' => {
            let case = if cp < 0x0430 { "CAPITAL" } else { "SMALL" };
            let name = match cp {
                0x0400..=0x040F => CYRILLIC_EXTENDED[(cp - 0x0400) as usize],
                0x0410..=0x042F => CYRILLIC_BASIC[(cp - 0x0410) as usize],
                0x0430..=0x044F => CYRILLIC_BASIC[(cp - 0x0430) as usize],
                _ => CYRILLIC_EXTENDED[(cp - 0x0450) as usize],
            };
            Some(format!("CYRILLIC {case} LETTER {name}"))
        }
        // U+03A2 is unassigned (there is no capital final sigma).
        '\u{0391}'..='\u{03A9}' if cp != 0x03A2 => Some(format!(
            "GREEK CAPITAL LETTER {}",
            GREEK[(cp - 0x0391) as usize]
        )),
        '\u{03B1}'..='\u{03C9}' => Some(format!(
            "GREEK SMALL LETTER {}",
            GREEK[(cp - 0x03B1) as usize]
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_of_look_alikes() {
        assert_eq!(describe('\u{0430}'), "U+0430 CYRILLIC SMALL LETTER A");
        assert_eq!(describe('\u{0410}'), "U+0410 CYRILLIC CAPITAL LETTER A");
        assert_eq!(
            describe('\u{0456}'),
            "U+0456 CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I"
        );
        assert_eq!(describe('\u{044F}'), "U+044F CYRILLIC SMALL LETTER YA");
        assert_eq!(describe('\u{03BF}'), "U+03BF GREEK SMALL LETTER OMICRON");
        assert_eq!(
            describe('\u{03C2}'),
            "U+03C2 GREEK SMALL LETTER FINAL SIGMA"
        );
        assert_eq!(describe('\u{03A3}'), "U+03A3 GREEK CAPITAL LETTER SIGMA");
        assert_eq!(describe('\u{03A9}'), "U+03A9 GREEK CAPITAL LETTER OMEGA");
        assert_eq!(describe('l'), "U+006C LATIN SMALL LETTER L");
        assert_eq!(describe('\u{0561}'), "U+0561 (Armenian character)");
    }

    /// Every maximal run of word characters, the plain way.
    fn all_words(text: &str) -> Vec<(usize, &str)> {
        let mut found = Vec::new();
        let mut start = None;
        for (i, c) in text.char_indices().chain([(text.len(), ' ')]) {
            match (is_word_char(c), start) {
                (true, None) => start = Some(i),
                (false, Some(s)) => {
                    found.push((s, &text[s..i]));
                    start = None;
                }
                _ => {}
            }
        }
        found
    }

    #[test]
    fn non_ascii_words_split_on_punctuation_and_keep_marks() {
        let found: Vec<_> = non_ascii_words("start(hike_2) cafe\u{301}-x क्ष Иван=ok").collect();
        assert_eq!(found, vec![(14, "cafe\u{301}"), (23, "क्ष"), (33, "Иван")]);
    }

    proptest::proptest! {
        #[test]
        fn non_ascii_scans_skip_only_ascii(text in "([a-z_ (=]{0,45}[\u{301}éИ北😀\u{200B}\u{E0041}]{0,2}){0,5}") {
            let chars: Vec<_> = text.char_indices().filter(|(_, c)| !c.is_ascii()).collect();
            proptest::prop_assert_eq!(non_ascii_chars(&text).collect::<Vec<_>>(), chars);
            let words: Vec<_> = all_words(&text).into_iter().filter(|(_, w)| !w.is_ascii()).collect();
            proptest::prop_assert_eq!(non_ascii_words(&text).collect::<Vec<_>>(), words);
        }
    }

    #[test]
    fn look_alikes_by_script() {
        assert!(looks_like_script('\u{0430}', Script::Latin));
        assert!(looks_like_script('a', Script::Cyrillic));
        assert!(!looks_like_script('T', Script::Katakana));
        assert!(!looks_like_script('\u{65E5}', Script::Latin));
    }

    #[test]
    fn ascii_look_alikes_keep_the_case() {
        let alike = |c| ascii_look_alike(c);
        assert_eq!(alike('\u{0406}').as_deref(), Some("I"));
        assert_eq!(alike('\u{0456}').as_deref(), Some("i"));
        assert_eq!(alike('\u{04CF}').as_deref(), Some("l"));
        assert_eq!(alike('\u{041E}').as_deref(), Some("O"));
        assert_eq!(alike('\u{043E}').as_deref(), Some("o"));
        assert_eq!(alike('\u{0417}').as_deref(), Some("3"));
        assert_eq!(alike('\u{03C4}'), None);
        assert_eq!(alike('\u{00E9}'), None);
    }

    #[test]
    fn tags_decode_to_ascii() {
        assert_eq!(decode_tags("\u{E0068}\u{E0069}", 10), "hi");
        assert_eq!(decode_tags("\u{E0001}\u{E0041}", 10), "<U+E0001>A");
        assert_eq!(decode_tags("\u{E0061}\u{E0061}\u{E0061}", 2), "aa…");
    }
}
