//! `//ping` probes: `//ping code,json[,...] [session=XY] [heartbeat=N]`, a line of a
//! `.silp` file listing the sender's frontends. The draft names probes without
//! defining their syntax; this is silp-lint's convention (languages.md §2).

use crate::source::Span;
use crate::syntax::code::Word;
use crate::syntax::SyntaxError;

#[derive(Clone, Debug, PartialEq)]
pub struct Probe<'s> {
    /// The frontend names, in order.
    pub frontends: Vec<Word<'s>>,
    /// The value of `session=`.
    pub session: Option<Word<'s>>,
    /// The value of `heartbeat=`.
    pub heartbeat: Option<Word<'s>>,
    pub span: Span,
}

/// Whether a (trimmed) line is a probe.
pub fn is_probe(line: &str) -> bool {
    line.trim_start().starts_with("//ping")
}

/// Parses a probe line; `text` starts at byte `base` of its file.
pub fn parse_probe(text: &str, base: usize) -> (Option<Probe<'_>>, Vec<SyntaxError>) {
    let mut errors = Vec::new();
    let words = split_whitespace_spans(text, base);
    let Some(first) = words.first() else {
        return (None, errors);
    };
    let end = words.last().map_or(first.span.1, |w| w.span.1);
    let mut probe = Probe {
        frontends: Vec::new(),
        session: None,
        heartbeat: None,
        span: first.span.0..end,
    };
    if first.text != "//ping" {
        errors.push(SyntaxError::new(
            first.span(),
            format!(
                "expected `//ping` followed by a space, found `{}`",
                first.text
            ),
        ));
        return (None, errors);
    }
    let Some(list) = words.get(1) else {
        errors.push(SyntaxError::new(
            first.span.1..first.span.1,
            "expected a comma-separated list of frontends after `//ping`",
        ));
        return (Some(probe), errors);
    };
    let mut offset = list.span.0;
    for name in list.text.split(',') {
        let word = Word {
            text: name,
            span: (offset, offset + name.len()),
        };
        if name.is_empty() {
            errors.push(SyntaxError::new(
                word.span(),
                "expected a frontend name, found an empty list item",
            ));
        } else {
            probe.frontends.push(word);
        }
        offset += name.len() + 1;
    }
    for option in &words[2..] {
        let (key, value) = option.text.split_once('=').unwrap_or((option.text, ""));
        let value_start = option.span.0 + key.len() + 1;
        let value = Word {
            text: value,
            span: (value_start.min(option.span.1), option.span.1),
        };
        let slot = match key {
            "session" => &mut probe.session,
            "heartbeat" => &mut probe.heartbeat,
            _ => {
                errors.push(SyntaxError::new(
                    option.span(),
                    format!(
                        "expected `session=XY` or `heartbeat=N`, found `{}`",
                        option.text
                    ),
                ));
                continue;
            }
        };
        if !option.text.contains('=') {
            errors.push(SyntaxError::new(
                option.span(),
                format!("expected `=` after `{key}`"),
            ));
        } else if slot.is_some() {
            errors.push(SyntaxError::new(
                option.span(),
                format!("`{key}` is given twice"),
            ));
        } else {
            *slot = Some(value);
        }
    }
    (Some(probe), errors)
}

fn split_whitespace_spans(text: &str, base: usize) -> Vec<Word<'_>> {
    let mut words = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        match (start, c.is_whitespace()) {
            (None, false) => start = Some(i),
            (Some(s), true) => {
                words.push(Word {
                    text: &text[s..i],
                    span: (base + s, base + i),
                });
                start = None;
            }
            _ => {}
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_frontends_and_options_with_spans() {
        let line = "//ping code,json,math session=ab heartbeat=5";
        let (probe, errors) = parse_probe(line, 100);
        assert!(errors.is_empty(), "{errors:?}");
        let probe = probe.unwrap();
        let names: Vec<&str> = probe.frontends.iter().map(|w| w.text).collect();
        assert_eq!(names, ["code", "json", "math"]);
        assert_eq!(probe.frontends[2].span, (117, 121));
        assert_eq!(probe.session.unwrap().text, "ab");
        assert_eq!(probe.heartbeat.unwrap().text, "5");
    }

    #[test]
    fn reports_unknown_options_and_missing_lists() {
        let (_, errors) = parse_probe("//ping", 0);
        assert_eq!(errors.len(), 1);
        let (_, errors) = parse_probe("//ping code ttl=4", 0);
        assert_eq!(errors[0].span, 12..17);
    }
}
