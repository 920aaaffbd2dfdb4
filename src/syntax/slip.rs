//! Slipstream SLIP v1 lines: `SLIP v1 <src> <dst> <anchor> [payload...]`.

use crate::source::Span;
use crate::syntax::SyntaxError;

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
    pub payload: Vec<SlipPayload<'s>>,
    /// The thread id of the first payload token starting with `thread`.
    pub thread: Option<SlipToken<'s>>,
    pub span: Span,
}

/// The result of parsing one line.
#[derive(Clone, Debug, Default)]
pub struct SlipParse<'s> {
    pub message: Option<Message<'s>>,
    pub errors: Vec<SyntaxError>,
}

/// Parses one SLIP line; `text` starts at byte `base` of its file.
pub fn parse_message(text: &str, base: usize) -> SlipParse<'_> {
    SlipParse {
        message: None,
        errors: vec![SyntaxError::new(
            base..base + text.len(),
            "SLIP parsing is not implemented yet",
        )],
    }
}
