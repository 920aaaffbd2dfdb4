//! The input guard between the client's byte stream and tower-lsp-server.
//!
//! tower-lsp-server stops reading for good after one undecodable message (its
//! framed reader ends the stream on the first decode error), and it answers unknown
//! methods silently. The guard reads the LSP framing itself, forwards each
//! well-formed JSON-RPC message unchanged (with a canonical `Content-Length`
//! header), and instead of forwarding a malformed one it reports it to the client
//! through `window/logMessage`; it also logs methods the server does not handle.
//!
//! Framing faults cost the faulty message only; the guard resynchronises on the
//! next `Content-Length` header:
//! - a message body is at most [`MAX_BODY`] (64 MiB, room for a 10 MB document
//!   however its JSON is escaped). A larger declared length is rejected at once, without
//!   waiting for its body: the header is logged and skipped, and so is what follows
//!   up to the next header. A request skipped this way gets no answer (its id was in
//!   the body).
//! - bytes that do not start a header, a header block that is malformed or longer
//!   than 8 KiB, and a body that holds a `Content-Length:` line (which JSON cannot
//!   hold: the declared length ran into the next message) are skipped up to the next
//!   header, so the message after a bad frame is read as sent.

use super::capabilities::handles;
use super::requests::shutdown;
use super::session::Session;
use memchr::memmem;
use std::sync::Arc;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tower_lsp_server::jsonrpc::{Request, Response};
use tower_lsp_server::ls_types::MessageType;

/// Longest header block accepted before the input counts as garbage.
const MAX_HEADER: usize = 8 * 1024;

/// Largest message body accepted: a 10 MB document fits even with every byte
/// escaped as `\u00XX`.
pub const MAX_BODY: usize = 64 * 1024 * 1024;

/// How every header block starts (`Content-Length` or `Content-Type`), in any case.
const HEADER_START: &[u8] = b"content-";

/// The header that gives a body's length.
const CONTENT_LENGTH: &[u8] = b"content-length";

/// One step of reading the input.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// More bytes are needed.
    Incomplete,
    /// A complete message body.
    Message(Vec<u8>),
    /// Bytes that were skipped, how many, and why.
    Garbage { skipped: usize, why: String },
}

/// Cuts the client's byte stream into message bodies, resynchronising on the next
/// header after anything that is not a well-formed frame.
#[derive(Default)]
pub struct Framer {
    buf: Vec<u8>,
    /// Where the search of the pending body for a header line goes on from: each byte
    /// of a body is searched once, however it arrives.
    searched: usize,
}

impl Framer {
    /// Appends bytes read from the client.
    pub fn push(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    /// Takes the next frame off the front of the input.
    pub fn next_frame(&mut self) -> Frame {
        let buf = &self.buf;
        if buf.is_empty() {
            return Frame::Incomplete;
        }
        let start = &buf[..buf.len().min(HEADER_START.len())];
        if !start.eq_ignore_ascii_case(&HEADER_START[..start.len()]) {
            return self.skip_to_header(0, "bytes that are not an LSP header".to_string());
        }
        let head = &buf[..buf.len().min(MAX_HEADER + 4)];
        let Some(end) = memmem::find(head, b"\r\n\r\n") else {
            if buf.len() > MAX_HEADER {
                return self.skip_to_header(1, "a header longer than 8 KiB".to_string());
            }
            return Frame::Incomplete;
        };
        let length = match content_length(&buf[..end]) {
            Ok(length) => length,
            Err(why) => return self.skip_to_header(1, why),
        };
        if length > MAX_BODY {
            return self.skip_to_header(
                1,
                format!(
                    "a message of {length} bytes, over the limit of {} MiB (and what \
                     follows up to the next header)",
                    MAX_BODY >> 20
                ),
            );
        }
        // JSON cannot hold a header line (its strings hold no raw line breaks), so a
        // body with one ran into the next message: the length was wrong.
        let body = end + 4;
        let cut_off = match find_content_length_line(buf, self.searched.max(body), body + length) {
            HeaderLine::At(at) => {
                return self.skip_to_header(
                    at,
                    format!(
                        "a message whose body ({length} bytes declared) runs into the next \
                         message's header"
                    ),
                )
            }
            HeaderLine::CutOff(at) => {
                self.searched = at;
                Some(at)
            }
            HeaderLine::None(resume) => {
                self.searched = resume;
                None
            }
        };
        if buf.len() < body + length {
            return Frame::Incomplete;
        }
        let message = buf[body..body + length].to_vec();
        // A header cut off by the end of the input may go on past this body (which is
        // then no JSON): its start stays, to be read with what follows.
        self.take(cut_off.unwrap_or(body + length));
        Frame::Message(message)
    }

    /// Skips to the next header start at or after `from` (or, when there is none
    /// yet, all but a tail that may begin one).
    fn skip_to_header(&mut self, from: usize, why: String) -> Frame {
        let buf = &self.buf;
        let skipped = find_ignoring_case(buf, HEADER_START, from).unwrap_or_else(|| {
            let tail_from = from.max(buf.len().saturating_sub(HEADER_START.len() - 1));
            (tail_from..buf.len())
                .find(|&i| buf[i..].eq_ignore_ascii_case(&HEADER_START[..buf.len() - i]))
                .unwrap_or(buf.len())
        });
        self.take(skipped);
        Frame::Garbage {
            skipped,
            why: format!("skipped {skipped} bytes: {why}"),
        }
    }

    fn take(&mut self, count: usize) {
        self.buf.drain(..count);
        self.searched = 0;
    }
}

/// The body length a header block (without its blank line) declares, or why it
/// declares none that can be used.
fn content_length(header: &[u8]) -> Result<usize, String> {
    let text = String::from_utf8_lossy(header);
    let shown: String = text.chars().take(80).collect();
    let mut length = None;
    for line in text.split("\r\n") {
        let is_token = |name: &str| {
            !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
        };
        let Some((name, value)) = line.split_once(':').filter(|(name, _)| is_token(name)) else {
            return Err(format!("a malformed header {shown:?}"));
        };
        if name.as_bytes().eq_ignore_ascii_case(CONTENT_LENGTH) {
            let parsed = value.trim().parse::<usize>().ok();
            if length.is_some() || parsed.is_none() {
                return Err(format!(
                    "a header without a usable Content-Length: {shown:?}"
                ));
            }
            length = parsed;
        }
    }
    length.ok_or_else(|| format!("a header without a usable Content-Length: {shown:?}"))
}

/// What a search of a body for a `Content-Length: <digits>\r\n` line found.
#[derive(Debug, PartialEq, Eq)]
enum HeaderLine {
    /// One starts here.
    At(usize),
    /// One may start here: its line is cut off by the end of what has arrived.
    CutOff(usize),
    /// None starts before the body's end; search again from here once more arrives.
    None(usize),
}

/// Searches `bytes` from `from` for a `Content-Length: <digits>\r\n` line that
/// starts before `starts_before` (the declared body's end).
fn find_content_length_line(bytes: &[u8], from: usize, starts_before: usize) -> HeaderLine {
    let window = &bytes[..bytes.len().min(starts_before + CONTENT_LENGTH.len() - 1)];
    let mut at = from;
    while let Some(found) = find_ignoring_case(window, CONTENT_LENGTH, at) {
        let rest = &bytes[found + CONTENT_LENGTH.len()..];
        let count = |from: usize, what: fn(&u8) -> bool| {
            rest.get(from..)
                .map_or(0, |s| s.iter().take_while(|&b| what(b)).count())
        };
        let blank = |b: &u8| matches!(b, b' ' | b'\t');
        let colon = count(0, blank);
        let digits_from = colon + 1 + count(colon + 1, blank);
        let digits = count(digits_from, u8::is_ascii_digit);
        let line_end = digits_from + digits;
        match (rest.get(colon), rest.get(line_end), rest.get(line_end + 1)) {
            (None, _, _) | (Some(b':'), None, _) => return HeaderLine::CutOff(found),
            (Some(b':'), Some(b'\r'), None) if digits > 0 => return HeaderLine::CutOff(found),
            (Some(b':'), Some(b'\r'), Some(b'\n')) if digits > 0 => return HeaderLine::At(found),
            _ => at = found + 1,
        }
    }
    // A header name cut off by the end of what has arrived.
    let tail = window
        .len()
        .saturating_sub(CONTENT_LENGTH.len() - 1)
        .max(from);
    let cut_off = (tail..window.len().min(starts_before))
        .find(|&i| window[i..].eq_ignore_ascii_case(&CONTENT_LENGTH[..window.len() - i]));
    match cut_off {
        Some(at) if window.len() == bytes.len() => HeaderLine::CutOff(at),
        _ => HeaderLine::None(tail),
    }
}

/// The first occurrence of ASCII `needle` (lower case) in `haystack` at or after
/// `from`, in any case.
fn find_ignoring_case(haystack: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    let first = needle[0];
    let mut at = from;
    while let Some(i) = haystack
        .get(at..)
        .and_then(|rest| memchr::memchr2(first, first.to_ascii_uppercase(), rest))
    {
        let found = at + i;
        if haystack
            .get(found..found + needle.len())
            .is_some_and(|candidate| candidate.eq_ignore_ascii_case(needle))
        {
            return Some(found);
        }
        at = found + 1;
    }
    None
}

/// What to do with one message body.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Forward it; `Some(note)` also logs the note (an unhandled method).
    Forward(Option<String>),
    /// Drop it and log why.
    Drop(String),
}

/// Checks one message body the way tower-lsp-server will decode it.
pub fn check_message(body: &[u8]) -> Verdict {
    let Ok(text) = std::str::from_utf8(body) else {
        return Verdict::Drop("dropped a message that is not valid UTF-8".to_string());
    };
    if text.trim().is_empty() {
        return Verdict::Drop("dropped an empty message".to_string());
    }
    // The order tower-lsp-server tries: a response, then a request.
    if serde_json::from_str::<Response>(text).is_ok() {
        return Verdict::Forward(None);
    }
    if let Ok(request) = serde_json::from_str::<Request>(text) {
        let method = request.method();
        if handles(method) {
            return Verdict::Forward(None);
        }
        let note = if request.id().is_some() {
            format!("unknown request `{method}`: answered with MethodNotFound")
        } else {
            format!("ignored the notification `{method}`, which silp-lsp does not handle")
        };
        return Verdict::Forward(Some(note));
    }
    let shown: String = text.chars().take(120).collect();
    match serde_json::from_str::<serde::de::IgnoredAny>(text) {
        Ok(_) => Verdict::Drop(format!(
            "dropped a JSON value that is not a JSON-RPC 2.0 message: {shown}"
        )),
        Err(error) => Verdict::Drop(format!("dropped malformed JSON ({error}): {shown}")),
    }
}

/// Whether a message body is a `shutdown` request.
fn is_shutdown(body: &[u8]) -> bool {
    memmem::find(body, shutdown::METHOD.as_bytes()).is_some()
        && serde_json::from_slice::<Request>(body)
            .is_ok_and(|request| request.method() == shutdown::METHOD && request.id().is_some())
}

/// Copies framed messages from `input` to `output` (the server's side of a pipe),
/// logging what it drops or what the server will not handle to the session's
/// client. It records a `shutdown` as it passes (tower-lsp-server cancels a
/// request still pending when `exit` comes, so its handler may never run).
/// Of a run of skipped input (a rejected body arriving in pieces), the first skip
/// is logged at once and the rest as one total before the next message.
pub async fn guard_input<I, O>(mut input: I, mut output: O, session: Arc<Session>)
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let client = &session.client;
    let warn = |text: String| client.log_message(MessageType::WARNING, format!("silp-lsp: {text}"));
    let mut framer = Framer::default();
    let mut chunk = vec![0u8; 64 * 1024];
    // Bytes skipped since the last message, and how many of them were not logged yet.
    let (mut skipping, mut unlogged) = (false, 0usize);
    loop {
        let read = match input.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(read) => read,
        };
        framer.push(&chunk[..read]);
        loop {
            let body = match framer.next_frame() {
                Frame::Incomplete => break,
                Frame::Garbage { skipped, why } => {
                    if skipping {
                        unlogged += skipped;
                    } else {
                        skipping = true;
                        warn(why).await;
                    }
                    continue;
                }
                Frame::Message(body) => body,
            };
            if std::mem::take(&mut skipping) && unlogged > 0 {
                warn(format!(
                    "skipped {} more bytes before the next message",
                    unlogged
                ))
                .await;
                unlogged = 0;
            }
            match check_message(&body) {
                Verdict::Forward(note) => {
                    if is_shutdown(&body) {
                        session.shut_down();
                    }
                    let header = format!("Content-Length: {}\r\n\r\n", body.len());
                    let sent = output.write_all(header.as_bytes()).await.is_ok()
                        && output.write_all(&body).await.is_ok()
                        && output.flush().await.is_ok();
                    if !sent {
                        return;
                    }
                    if let Some(note) = note {
                        warn(note).await;
                    }
                }
                Verdict::Drop(why) => warn(why).await,
            }
        }
    }
    let _ = output.shutdown().await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn framed(body: &str) -> Vec<u8> {
        format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
    }

    fn framer(bytes: &[u8]) -> Framer {
        let mut framer = Framer::default();
        framer.push(bytes);
        framer
    }

    #[test]
    fn frames_split_and_garbage_is_skipped() {
        let mut buf = b"junk".to_vec();
        buf.extend(framed("{}"));
        buf.extend(b"Content-Length: x\r\n\r\n");
        buf.extend(b"content-length: 2\r\nContent-Type: a\r\n\r\n[]");
        let mut buf = framer(&buf);
        assert!(matches!(buf.next_frame(), Frame::Garbage { .. }));
        assert_eq!(buf.next_frame(), Frame::Message(b"{}".to_vec()));
        assert!(matches!(buf.next_frame(), Frame::Garbage { .. }));
        assert_eq!(buf.next_frame(), Frame::Message(b"[]".to_vec()));
        assert_eq!(buf.next_frame(), Frame::Incomplete);
        let mut partial = framed("{\"a\":1}");
        partial.truncate(partial.len() - 2);
        assert_eq!(framer(&partial).next_frame(), Frame::Incomplete);
    }

    /// The message bodies a framer yields for `stream` pushed in `chunks`.
    fn messages(stream: &[u8], chunks: &[usize]) -> Vec<Vec<u8>> {
        let mut framer = Framer::default();
        let mut out = Vec::new();
        let mut rest = stream;
        for &size in chunks.iter().chain(std::iter::repeat(&usize::MAX)) {
            if rest.is_empty() {
                break;
            }
            let (chunk, after) = rest.split_at(size.clamp(1, rest.len()));
            rest = after;
            framer.push(chunk);
            loop {
                match framer.next_frame() {
                    Frame::Incomplete => break,
                    Frame::Garbage { .. } => {}
                    Frame::Message(body) => out.push(body),
                }
            }
        }
        out
    }

    #[test]
    fn an_oversized_length_is_rejected_without_waiting_for_its_body() {
        let mut framer = framer(b"Content-Length: 200000000\r\n\r\n{\"jsonrpc\":");
        let Frame::Garbage { why, .. } = framer.next_frame() else {
            panic!("the header is skipped at once");
        };
        assert!(why.contains("over the limit of 64 MiB"), "{why}");
        // What follows it up to the next header is skipped too.
        framer.push(b"\"2.0\"}");
        assert!(matches!(framer.next_frame(), Frame::Garbage { .. }));
        framer.push(&framed("{}"));
        assert_eq!(framer.next_frame(), Frame::Message(b"{}".to_vec()));
    }

    #[test]
    fn the_message_after_a_bad_frame_is_read_as_sent() {
        let next = framed("{\"id\":2}");
        // Declared longer than the body sent: the next header is found inside it,
        // without waiting for bytes that never come.
        let mut stream = b"Content-Length: 500\r\n\r\n{\"id\":1}".to_vec();
        stream.extend(&next);
        assert_eq!(messages(&stream, &[]), vec![b"{\"id\":2}".to_vec()]);
        // No blank line after the header.
        let mut stream = b"Content-Length: 8\r\n{\"id\":1}".to_vec();
        stream.extend(&next);
        assert_eq!(messages(&stream, &[]), vec![b"{\"id\":2}".to_vec()]);
        // Declared shorter than the body: its tail is skipped.
        let mut stream = b"Content-Length: 3\r\n\r\n{\"id\":1}".to_vec();
        stream.extend(&next);
        assert_eq!(
            messages(&stream, &[]),
            vec![b"{\"i".to_vec(), b"{\"id\":2}".to_vec()]
        );
    }

    #[test]
    fn a_pending_body_is_searched_once_however_it_arrives() {
        let body = format!("{{\"text\":\"{}\"}}", "content-length: 1 ".repeat(10_000));
        let stream = framed(&body);
        let mut framer = Framer::default();
        for byte in &stream[..stream.len() - 1] {
            framer.push(std::slice::from_ref(byte));
            assert_eq!(framer.next_frame(), Frame::Incomplete);
            // The search never falls back more than one header name behind.
            assert!(framer.searched + 2 * CONTENT_LENGTH.len() >= framer.buf.len());
        }
        framer.push(&stream[stream.len() - 1..]);
        assert_eq!(framer.next_frame(), Frame::Message(body.into_bytes()));
    }

    /// How a generated frame is damaged.
    #[derive(Clone, Debug)]
    enum Damage {
        None,
        LengthTooLong(usize),
        LengthTooShort(usize),
        NoBlankLine,
        JunkBefore(String),
    }

    fn damage() -> impl Strategy<Value = Damage> {
        prop_oneof![
            3 => Just(Damage::None),
            1 => (1usize..300).prop_map(Damage::LengthTooLong),
            1 => (1usize..300).prop_map(Damage::LengthTooShort),
            1 => Just(Damage::NoBlankLine),
            1 => prop::collection::vec(prop::sample::select(vec!["x", "\r\n", "\r\n\r\n", "{", "é", ":"]), 1..6)
                .prop_map(|v| Damage::JunkBefore(v.concat())),
        ]
    }

    use proptest::prelude::*;

    proptest! {
        #[test]
        fn every_intact_message_is_read_whatever_damage_comes_before_it(
            frames in prop::collection::vec((
                prop::collection::vec(prop::sample::select(vec![
                    "a", "é", "content-length: 12\r\n", "Content-", "\r\n\r\n", "{", "😀",
                ]), 0..8),
                damage(),
            ), 1..8),
            chunks in prop::collection::vec(1usize..200, 0..40),
        ) {
            let mut stream = Vec::new();
            let mut intact = Vec::new();
            for (pieces, damage) in &frames {
                let body = serde_json::json!({"jsonrpc": "2.0", "method": "m", "params": {"text": pieces.concat()}})
                    .to_string();
                let length = body.len();
                let frame = match damage {
                    Damage::None => {
                        intact.push(body.clone().into_bytes());
                        framed(&body)
                    }
                    Damage::LengthTooLong(extra) => format!("Content-Length: {}\r\n\r\n{body}", length + extra).into_bytes(),
                    Damage::LengthTooShort(less) => format!("Content-Length: {}\r\n\r\n{body}", length.saturating_sub(*less)).into_bytes(),
                    Damage::NoBlankLine => format!("Content-Length: {length}\r\n{body}").into_bytes(),
                    Damage::JunkBefore(junk) => format!("{junk}Content-Length: {length}\r\n\r\n{body}").into_bytes(),
                };
                if matches!(damage, Damage::JunkBefore(_)) {
                    intact.push(body.into_bytes());
                }
                stream.extend(frame);
            }
            let got = messages(&stream, &chunks);
            // The intact bodies, in order, among what was read.
            let mut wanted = intact.iter().peekable();
            for body in &got {
                if wanted.peek() == Some(&body) {
                    wanted.next();
                }
            }
            prop_assert!(wanted.peek().is_none(), "missing {:?}", wanted.peek().map(|b| String::from_utf8_lossy(b)));
        }
    }

    #[test]
    fn messages_are_judged_like_the_server_decodes_them() {
        let ok = br#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        assert_eq!(check_message(ok), Verdict::Forward(None));
        let unknown = br#"{"jsonrpc":"2.0","id":3,"method":"foo/bar"}"#;
        assert!(matches!(check_message(unknown), Verdict::Forward(Some(_))));
        let response = br#"{"jsonrpc":"2.0","id":3,"result":null}"#;
        assert_eq!(check_message(response), Verdict::Forward(None));
        assert!(matches!(check_message(b"{\"jsonrpc\":"), Verdict::Drop(_)));
        assert!(matches!(check_message(b"[1,2]"), Verdict::Drop(_)));
        assert!(matches!(check_message(&[0xff, 0xfe]), Verdict::Drop(_)));
    }
}
