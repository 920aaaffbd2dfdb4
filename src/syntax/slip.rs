//! Slipstream SLIP v1 lines: `SLIP v1 <src> <dst> <anchor> [payload...]`.
//!
//! A `logos` lexer cuts the line into quoted strings, bare words and unterminated
//! quotes; tokens written without white space between them are then joined into one
//! word, because the reference decoder splits on white space runs only. A `chumsky`
//! parser reads the fields from those words. Every field accepts any word (the rules
//! judge versions, agents, anchors and payloads), so the only syntax errors are a line
//! that does not start with `SLIP`, a line that ends before its anchor, and an
//! unterminated quote.

use crate::source::Span;
use crate::syntax::{describe_found, SyntaxError};
use chumsky::input::{Input as _, ValueInput};
use chumsky::prelude::*;
use logos::Logos;

/// A token of a SLIP line as written, with its span.
#[derive(Clone, Debug, PartialEq)]
pub struct SlipToken<'s> {
    pub text: &'s str,
    pub span: Span,
}

/// A payload token: a bare word or a double-quoted string.
#[derive(Clone, Debug, PartialEq)]
pub struct SlipPayload<'s> {
    /// The token as written, quotes included.
    pub text: &'s str,
    pub span: Span,
    /// Whether the token is one double-quoted string (`"..."`), nothing glued to it.
    pub quoted: bool,
}

/// One Slipstream message. Fields after the first missing one are `None`.
#[derive(Clone, Debug, PartialEq)]
pub struct Message<'s> {
    pub marker: SlipToken<'s>,
    pub version: Option<SlipToken<'s>>,
    pub src: Option<SlipToken<'s>>,
    pub dst: Option<SlipToken<'s>>,
    pub anchor: Option<SlipToken<'s>>,
    /// Every token after the anchor, in order; the thread token stays in the list.
    pub payload: Vec<SlipPayload<'s>>,
    /// The thread id of the first payload token starting with `thread`.
    pub thread: Option<SlipToken<'s>>,
    /// Index in `payload` of the token `thread` was read from.
    pub thread_token: Option<usize>,
    /// From the start of the marker to the end of the last token.
    pub span: Span,
}

impl<'s> Message<'s> {
    /// Every token as written with its span, in order: the fields present, then
    /// the payload tokens.
    pub fn tokens(&self) -> impl Iterator<Item = (&'s str, Span)> + '_ {
        let fields = [
            Some(&self.marker),
            self.version.as_ref(),
            self.src.as_ref(),
            self.dst.as_ref(),
            self.anchor.as_ref(),
        ];
        fields
            .into_iter()
            .flatten()
            .map(|t| (t.text, t.span.clone()))
            .chain(self.payload.iter().map(|p| (p.text, p.span.clone())))
    }

    /// Whether every field is present: a message lacking one has a syntax error
    /// where its line ends. Fields after the first missing one are `None`, so the
    /// anchor tells.
    pub fn is_complete(&self) -> bool {
        self.anchor.is_some()
    }

    /// The payload tokens that carry content: all but the thread token.
    pub fn content(&self) -> impl Iterator<Item = &SlipPayload<'_>> {
        self.payload
            .iter()
            .enumerate()
            .filter(move |(i, _)| Some(*i) != self.thread_token)
            .map(|(_, p)| p)
    }
}

/// The result of parsing one line.
#[derive(Clone, Debug, Default)]
pub struct SlipParse<'s> {
    /// Boxed, as a code payload is (see `CodeParse`): a document's items are as
    /// large as their largest kind.
    pub message: Option<Box<Message<'s>>>,
    pub errors: Vec<SyntaxError>,
}

/// What the lexer recognises.
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"\s+")]
enum RawToken {
    /// A double-quoted string on one line.
    #[regex(r#""[^"\r\n]*""#)]
    Quoted,
    /// A run of characters other than white space and `"`.
    #[regex(r#"[^\s"]+"#)]
    Word,
    /// A `"` that no closing quote follows: the error token.
    #[token("\"")]
    UnterminatedQuote,
}

/// A white-space-delimited token, as the parser sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'s> {
    /// Anything but a lone quoted string (quotes glued to other text included).
    Word(&'s str),
    /// Exactly one quoted string.
    Quoted(&'s str),
}

/// A token as the parser yields it, with its span in the line.
#[derive(Clone, Debug)]
struct Lexeme<'s> {
    text: &'s str,
    span: Span,
}

/// What the parser reads from a line, before spans are made absolute. The payload
/// tokens are the line's last `payload_tokens` tokens, taken from the lexer's list
/// rather than collected again: a line may hold millions of them.
struct Parsed<'s> {
    marker: Option<Lexeme<'s>>,
    fields: [Option<Lexeme<'s>>; 4],
    payload_tokens: usize,
}

/// The fields after the marker, as error messages name them.
const FIELD_NAMES: [&str; 4] = [
    "the version",
    "the source agent",
    "the destination agent",
    "the anchor",
];

/// The tokens of a line, as the parser reads them: raw tokens that touch joined
/// into one word. An unterminated quote is read as a word and noted in `errors`.
struct Tokens<'s> {
    text: &'s str,
    lexer: logos::Lexer<'s, RawToken>,
    /// The token being joined with whatever touches it.
    pending: Option<(Tok<'s>, Span)>,
    errors: Vec<SyntaxError>,
}

impl<'s> Tokens<'s> {
    fn new(text: &'s str) -> Tokens<'s> {
        Tokens {
            text,
            lexer: RawToken::lexer(text),
            pending: None,
            errors: Vec::new(),
        }
    }
}

impl<'s> Iterator for Tokens<'s> {
    type Item = (Tok<'s>, Span);

    fn next(&mut self) -> Option<(Tok<'s>, Span)> {
        while let Some(raw) = self.lexer.next() {
            let span = self.lexer.span();
            let raw = raw.unwrap_or(RawToken::UnterminatedQuote);
            if raw == RawToken::UnterminatedQuote {
                self.errors.push(SyntaxError::new(
                    span.clone(),
                    "this quoted string is never closed; expected a closing `\"` before the end of line",
                ));
            }
            let token = match self.pending.take() {
                Some((_, last)) if last.end == span.start => {
                    let joined = last.start..span.end;
                    (
                        Tok::Word(self.text.get(joined.clone()).unwrap_or("")),
                        joined,
                    )
                }
                done => {
                    let slice = self.text.get(span.clone()).unwrap_or("");
                    let tok = match raw {
                        RawToken::Quoted => Tok::Quoted(slice),
                        RawToken::Word | RawToken::UnterminatedQuote => Tok::Word(slice),
                    };
                    self.pending = Some((tok, span));
                    if done.is_some() {
                        return done;
                    }
                    continue;
                }
            };
            self.pending = Some(token);
        }
        self.pending.take()
    }
}

/// Lexes `text`, joining tokens that touch into one; unterminated quotes become errors.
fn lex(text: &str) -> (Vec<(Tok<'_>, SimpleSpan)>, Vec<SyntaxError>) {
    let mut lexed = Vec::new();
    if text.len() >= crate::memory::LARGE_BUFFER_BYTES {
        // Tokens are apart, so there are at most half as many as bytes. Reserved
        // at once, the list is not doubled (and copied) as it fills: the pages it
        // does not fill are never touched.
        lexed.reserve_exact(text.len().div_ceil(2));
    }
    let mut tokens = Tokens::new(text);
    lexed.extend(tokens.by_ref().map(|(tok, span)| (tok, span.into())));
    (lexed, tokens.errors)
}

/// Whether `text` reads back as `message`: it lexes without errors into the same
/// tokens, which the grammar (it reads tokens alone) parses into the same message.
/// Found token by token, without the token list a parse would build.
pub fn reads_back_as(text: &str, message: &Message) -> bool {
    let mut tokens = Tokens::new(text);
    let same = tokens
        .by_ref()
        .map(|(tok, _)| match tok {
            Tok::Word(text) | Tok::Quoted(text) => text,
        })
        .eq(message.tokens().map(|(text, _)| text));
    same && tokens.errors.is_empty()
}

/// The message grammar over lexed tokens. `eol` is the line length, where a missing
/// field is reported.
fn parser<'tok, 'src: 'tok, I>(
    eol: usize,
) -> impl Parser<'tok, I, Parsed<'src>, extra::Err<Rich<'tok, Tok<'src>>>>
where
    I: ValueInput<'tok, Token = Tok<'src>, Span = SimpleSpan>,
{
    let token = select! {
        Tok::Word(text) | Tok::Quoted(text) = e => {
            let span: SimpleSpan = e.span();
            Lexeme { text, span: span.into_range() }
        },
    };
    let marker = token
        .or_not()
        .validate(move |found, _, emitter| match found {
            Some(lexeme) if lexeme.text == "SLIP" => Some(lexeme),
            Some(lexeme) => {
                emitter.emit(Rich::custom(
                    lexeme.span.clone().into(),
                    format!(
                        "expected `SLIP` to start the message, found {}",
                        describe_found(lexeme.text)
                    ),
                ));
                None
            }
            None => {
                emitter.emit(Rich::custom(
                    (eol..eol).into(),
                    "expected `SLIP` to start the message, found end of line",
                ));
                None
            }
        });
    marker
        .then(token.or_not())
        .then(token.or_not())
        .then(token.or_not())
        .then(token.or_not())
        .then(token.repeated().count())
        .then_ignore(end())
        .validate(
            move |(((((marker, version), src), dst), anchor), payload_tokens), _, emitter| {
                let fields = [version, src, dst, anchor];
                if let Some(marker) = &marker {
                    if let Some(missing) = fields.iter().position(Option::is_none) {
                        let after = match missing {
                            0 => marker.text,
                            i => fields[i - 1].as_ref().map_or("", |l| l.text),
                        };
                        emitter.emit(Rich::custom(
                            (eol..eol).into(),
                            format!(
                                "expected {} after {}, found end of line",
                                FIELD_NAMES[missing],
                                describe_found(after)
                            ),
                        ));
                    }
                }
                Parsed {
                    marker,
                    fields,
                    payload_tokens,
                }
            },
        )
}

/// The thread id of a payload token: what follows `thread` in the first token that
/// starts with it (languages.md §5; `thread42` → `42`, and `thread` alone → ``).
/// The reference decoder wants a digit, `_` or `-` after `thread`; the spec folder,
/// which wins, does not.
fn thread_id(text: &str) -> Option<&str> {
    text.strip_prefix("thread")
}

/// Parses one SLIP line; `text` starts at byte `base` of its file.
pub fn parse_message(text: &str, base: usize) -> SlipParse<'_> {
    let (tokens, mut errors) = lex(text);
    let eol = text.len();
    let input = tokens
        .as_slice()
        .map((eol..eol).into(), |(tok, span)| (tok, span));
    let (output, parse_errors) = parser(eol).parse(input).into_output_errors();
    errors.extend(parse_errors.into_iter().map(|error| {
        let span = error.span().into_range();
        let message = match error.reason() {
            chumsky::error::RichReason::Custom(message) => message.clone(),
            chumsky::error::RichReason::ExpectedFound { found, .. } => {
                let found = match found.as_deref() {
                    Some(Tok::Word(t) | Tok::Quoted(t)) => describe_found(t),
                    None => "end of line".to_string(),
                };
                format!("unexpected {found}")
            }
        };
        SyntaxError::new(span, message)
    }));
    errors.sort_by_key(|e| (e.span.start, e.span.end));
    for error in &mut errors {
        error.span = base + error.span.start..base + error.span.end;
    }
    let message = output
        .and_then(|parsed| build(parsed, tokens, base))
        .map(Box::new);
    SlipParse { message, errors }
}

/// Turns what the parser read from `tokens` into a [`Message`] with absolute spans.
/// The payload is collected in place of the tokens (a token and a payload token
/// have one size), so a line of millions of tokens holds one list of them at a time.
fn build<'s>(
    parsed: Parsed<'s>,
    tokens: Vec<(Tok<'s>, SimpleSpan)>,
    base: usize,
) -> Option<Message<'s>> {
    let absolute = |span: &Span| base + span.start..base + span.end;
    let token = |lexeme: &Lexeme<'s>| SlipToken {
        text: lexeme.text,
        span: absolute(&lexeme.span),
    };
    let marker = parsed.marker?;
    let [version, src, dst, anchor] = parsed.fields;
    let first_payload = tokens.len().saturating_sub(parsed.payload_tokens);
    let last_payload_end = tokens[first_payload..].last().map(|(_, span)| span.end);
    let payload: Vec<SlipPayload<'_>> = tokens
        .into_iter()
        .skip(first_payload)
        .map(|(tok, span)| {
            let (text, quoted) = match tok {
                Tok::Word(text) => (text, false),
                Tok::Quoted(text) => (text, true),
            };
            SlipPayload {
                text,
                span: absolute(&span.into_range()),
                quoted,
            }
        })
        .collect();
    let (thread_token, thread) = payload
        .iter()
        .enumerate()
        .filter(|(_, p)| !p.quoted)
        .find_map(|(i, p)| {
            let id = thread_id(p.text)?;
            let start = p.span.end - id.len();
            Some((
                Some(i),
                Some(SlipToken {
                    text: id,
                    span: start..p.span.end,
                }),
            ))
        })
        .unwrap_or((None, None));
    let last_end = [&version, &src, &dst, &anchor]
        .into_iter()
        .flatten()
        .map(|l| l.span.end)
        .chain(last_payload_end)
        .max()
        .unwrap_or(marker.span.end);
    Some(Message {
        span: absolute(&(marker.span.start..last_end)),
        marker: token(&marker),
        version: version.as_ref().map(token),
        src: src.as_ref().map(token),
        dst: dst.as_ref().map(token),
        anchor: anchor.as_ref().map(token),
        payload,
        thread,
        thread_token,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The payload is collected in place of the lexer's tokens only while the two
    /// have one size and alignment; otherwise a line of millions of tokens would
    /// hold both lists at once.
    #[test]
    fn a_payload_token_takes_the_place_of_a_lexed_token() {
        use std::mem::{align_of, size_of};
        assert_eq!(size_of::<(Tok, SimpleSpan)>(), size_of::<SlipPayload>());
        assert_eq!(align_of::<(Tok, SimpleSpan)>(), align_of::<SlipPayload>());
        let line = format!("SLIP v1 a b Accept{}", " x".repeat(100));
        let (tokens, _) = lex(&line);
        let lexed_at = tokens.as_ptr();
        let lexeme = |i: usize| {
            let (Tok::Word(text) | Tok::Quoted(text), span) = tokens[i];
            Lexeme {
                text,
                span: span.into_range(),
            }
        };
        let parsed = Parsed {
            marker: Some(lexeme(0)),
            fields: [1, 2, 3, 4].map(|i| Some(lexeme(i))),
            payload_tokens: 100,
        };
        let message = build(parsed, tokens, 0).expect("a message");
        assert_eq!(message.payload.len(), 100);
        assert_eq!(message.payload.as_ptr().cast(), lexed_at);
    }

    fn texts<'s>(message: &'s Message<'s>) -> Vec<&'s str> {
        message.payload.iter().map(|p| p.text).collect()
    }

    /// The text each span of a message covers, fields then payload.
    fn covered<'s>(line: &'s str, base: usize, message: &Message<'_>) -> Vec<&'s str> {
        message
            .tokens()
            .map(|(_, s)| &line[s.start - base..s.end - base])
            .collect()
    }

    #[test]
    fn parses_a_full_message_with_absolute_spans() {
        let line = "SLIP v1 planner executor RequestTask implement_auth_module";
        let parse = parse_message(line, 100);
        assert!(parse.errors.is_empty(), "{:?}", parse.errors);
        let message = parse.message.unwrap();
        assert_eq!(message.marker.span, 100..104);
        assert_eq!(message.version.as_ref().unwrap().text, "v1");
        assert_eq!(message.version.as_ref().unwrap().span, 105..107);
        assert_eq!(message.src.as_ref().unwrap().text, "planner");
        assert_eq!(message.dst.as_ref().unwrap().text, "executor");
        assert_eq!(message.anchor.as_ref().unwrap().text, "RequestTask");
        assert_eq!(message.anchor.as_ref().unwrap().span, 125..136);
        assert_eq!(texts(&message), ["implement_auth_module"]);
        assert_eq!(message.payload[0].span, 137..158);
        assert_eq!(message.span, 100..158);
        assert_eq!(message.thread, None);
    }

    #[test]
    fn tabs_and_runs_of_spaces_separate_tokens() {
        let line = "  SLIP\tv1   alice \t bob\tRequestReview   lgtm  ";
        let parse = parse_message(line, 0);
        assert!(parse.errors.is_empty(), "{:?}", parse.errors);
        let message = parse.message.unwrap();
        assert_eq!(
            covered(line, 0, &message),
            ["SLIP", "v1", "alice", "bob", "RequestReview", "lgtm"]
        );
        assert_eq!(message.marker.span, 2..6);
        assert_eq!(message.span, 2..line.trim_end().len());
    }

    #[test]
    fn a_missing_field_is_an_error_but_the_prefix_is_kept() {
        let parse = parse_message("SLIP v1 alice", 10);
        assert_eq!(parse.errors.len(), 1);
        assert_eq!(
            parse.errors[0].message,
            "expected the destination agent after `alice`, found end of line"
        );
        assert_eq!(parse.errors[0].span, 23..23);
        let message = parse.message.unwrap();
        assert_eq!(message.src.as_ref().unwrap().text, "alice");
        assert_eq!(message.dst, None);
        assert_eq!(message.anchor, None);
        assert!(message.payload.is_empty());
    }

    #[test]
    fn each_missing_field_is_named_once() {
        let cases = [
            (
                "SLIP",
                "expected the version after `SLIP`, found end of line",
            ),
            (
                "SLIP v1",
                "expected the source agent after `v1`, found end of line",
            ),
            (
                "SLIP v1 a b",
                "expected the anchor after `b`, found end of line",
            ),
        ];
        for (line, expected) in cases {
            let parse = parse_message(line, 0);
            let messages: Vec<&str> = parse.errors.iter().map(|e| e.message.as_str()).collect();
            assert_eq!(messages, [expected], "{line}");
            assert!(parse.message.is_some());
        }
        // Trailing white space: the error is at the very end of the line.
        let parse = parse_message("SLIP v1 a b  ", 0);
        assert_eq!(parse.errors[0].span, 13..13);
    }

    #[test]
    fn a_line_not_starting_with_slip_is_an_error() {
        let parse = parse_message("slip v1 alice bob RequestTask", 5);
        assert!(parse.message.is_none());
        assert_eq!(parse.errors.len(), 1);
        assert_eq!(parse.errors[0].span, 5..9);
        assert_eq!(
            parse.errors[0].message,
            "expected `SLIP` to start the message, found `slip`"
        );
    }

    #[test]
    fn an_empty_line_is_an_error() {
        for line in ["", "   \t "] {
            let parse = parse_message(line, 3);
            assert!(parse.message.is_none());
            assert_eq!(parse.errors.len(), 1);
            assert_eq!(
                parse.errors[0].message,
                "expected `SLIP` to start the message, found end of line"
            );
            assert_eq!(parse.errors[0].span, 3 + line.len()..3 + line.len());
        }
    }

    #[test]
    fn quoted_payloads_keep_their_spaces_and_quotes() {
        let line = r#"SLIP v1 a b Fallback "check the  logs" now"#;
        let parse = parse_message(line, 0);
        assert!(parse.errors.is_empty(), "{:?}", parse.errors);
        let message = parse.message.unwrap();
        assert_eq!(texts(&message), [r#""check the  logs""#, "now"]);
        assert!(message.payload[0].quoted);
        assert!(!message.payload[1].quoted);
        assert_eq!(
            &line[message.payload[0].span.clone()],
            r#""check the  logs""#
        );
    }

    #[test]
    fn text_glued_to_a_quote_is_one_word() {
        let parse = parse_message(r#"SLIP v1 a b X pre"quoted"post "x""y""#, 0);
        assert!(parse.errors.is_empty(), "{:?}", parse.errors);
        let message = parse.message.unwrap();
        assert_eq!(texts(&message), [r#"pre"quoted"post"#, r#""x""y""#]);
        assert!(message.payload.iter().all(|p| !p.quoted));
    }

    #[test]
    fn an_unterminated_quote_is_an_error_and_the_rest_is_parsed() {
        let line = r#"SLIP v1 alice bob Fallback "check the logs thread7"#;
        let parse = parse_message(line, 0);
        assert_eq!(parse.errors.len(), 1, "{:?}", parse.errors);
        let quote = line.find('"').unwrap();
        assert_eq!(parse.errors[0].span, quote..quote + 1);
        assert!(parse.errors[0].message.contains("never closed"));
        let message = parse.message.unwrap();
        assert_eq!(texts(&message), [r#""check"#, "the", "logs", "thread7"]);
        assert_eq!(message.thread.as_ref().unwrap().text, "7");

        // An unterminated quote before the anchor: fields are still read.
        let parse = parse_message(r#"SLIP v1 "alice bob RequestTask"#, 0);
        assert_eq!(parse.errors.len(), 1);
        assert_eq!(parse.errors[0].span, 8..9);
        let message = parse.message.unwrap();
        assert_eq!(message.src.unwrap().text, r#""alice"#);
        assert_eq!(message.anchor.unwrap().text, "RequestTask");
    }

    #[test]
    fn the_first_thread_token_gives_the_thread_id() {
        let line = "SLIP v1 worker manager InformProgress done thread42 thread7 milestone3";
        let parse = parse_message(line, 1000);
        let message = parse.message.unwrap();
        let thread = message.thread.as_ref().unwrap();
        assert_eq!(thread.text, "42");
        let at = line.find("thread42").unwrap() + 1000 + "thread".len();
        assert_eq!(thread.span, at..at + 2);
        assert_eq!(message.thread_token, Some(1));
        let content: Vec<&str> = message.content().map(|p| p.text).collect();
        assert_eq!(content, ["done", "thread7", "milestone3"]);

        for (line, id) in [
            ("SLIP v1 a b MetaAck thread_abc", Some("_abc")),
            ("SLIP v1 a b MetaAck thread-task", Some("-task")),
            ("SLIP v1 a b MetaAck thread", Some("")),
            ("SLIP v1 a b MetaAck threading", Some("ing")),
            (r#"SLIP v1 a b MetaAck "thread42""#, None),
        ] {
            let message = parse_message(line, 0).message.unwrap();
            assert_eq!(message.thread.map(|t| t.text), id, "{line}");
        }
    }

    #[test]
    fn non_ascii_agents_and_payloads_have_char_boundary_spans() {
        let line = "SLIP v1 ålice 北京 RequestTask café 😀 \"naïve\"";
        let parse = parse_message(line, 0);
        assert!(parse.errors.is_empty(), "{:?}", parse.errors);
        let message = parse.message.unwrap();
        assert_eq!(
            covered(line, 0, &message),
            [
                "SLIP",
                "v1",
                "ålice",
                "北京",
                "RequestTask",
                "café",
                "😀",
                "\"naïve\""
            ]
        );
        assert!(message.payload[2].quoted);
    }

    #[test]
    fn unicode_white_space_separates_tokens() {
        let line = "SLIP\u{3000}v1\u{a0}a b MetaAck";
        let message = parse_message(line, 0).message.unwrap();
        assert_eq!(
            covered(line, 0, &message),
            ["SLIP", "v1", "a", "b", "MetaAck"]
        );
    }
}
