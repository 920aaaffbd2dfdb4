//! The input guard between the client's byte stream and tower-lsp-server.
//!
//! tower-lsp-server stops reading for good after one undecodable message (its
//! framed reader ends the stream on the first decode error), and it answers unknown
//! methods silently. The guard reads the LSP framing itself, forwards each
//! well-formed JSON-RPC message unchanged (with a canonical `Content-Length`
//! header), and instead of forwarding a malformed one it reports it to the client
//! through `window/logMessage`; it also logs methods the server does not handle.

use super::capabilities::handles;
use memchr::memmem;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tower_lsp_server::jsonrpc::{Request, Response};
use tower_lsp_server::ls_types::MessageType;
use tower_lsp_server::Client;

/// Longest header block accepted before the input counts as garbage.
const MAX_HEADER: usize = 8 * 1024;

/// Largest message body accepted (a 5 MB document fits many times over).
const MAX_BODY: usize = 256 * 1024 * 1024;

/// One step of reading the input buffer.
#[derive(Debug, PartialEq, Eq)]
pub enum Frame {
    /// More bytes are needed.
    Incomplete,
    /// A complete message body.
    Message(Vec<u8>),
    /// Bytes that were skipped, and why.
    Garbage(String),
}

/// Takes the next frame off the front of `buf`.
pub fn next_frame(buf: &mut Vec<u8>) -> Frame {
    if buf.is_empty() {
        return Frame::Incomplete;
    }
    // Bytes before the first header are garbage.
    if let Some(at) = memmem::find(buf, b"Content-") {
        if at > 0 && !buf[..at].ends_with(b"\r\n") {
            buf.drain(..at);
            return Frame::Garbage(format!("skipped {at} bytes that are not an LSP header"));
        }
    }
    let Some(end) = memmem::find(buf, b"\r\n\r\n") else {
        if buf.len() > MAX_HEADER {
            let keep = memmem::find(&buf[1..], b"Content-Length").map_or(buf.len(), |i| i + 1);
            buf.drain(..keep);
            return Frame::Garbage(format!("skipped {keep} bytes without an LSP header"));
        }
        return Frame::Incomplete;
    };
    let header = String::from_utf8_lossy(&buf[..end]).into_owned();
    let length = header.split("\r\n").find_map(|line| {
        let (name, value) = line.split_once(':')?;
        name.trim()
            .eq_ignore_ascii_case("content-length")
            .then(|| value.trim().parse::<usize>().ok())
            .flatten()
    });
    let Some(length) = length.filter(|l| *l <= MAX_BODY) else {
        buf.drain(..end + 4);
        let shown: String = header.chars().take(80).collect();
        return Frame::Garbage(format!(
            "skipped a header without a usable Content-Length: {shown:?}"
        ));
    };
    if buf.len() < end + 4 + length {
        return Frame::Incomplete;
    }
    let body = buf[end + 4..end + 4 + length].to_vec();
    buf.drain(..end + 4 + length);
    Frame::Message(body)
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

/// Copies framed messages from `input` to `output` (the server's side of a pipe),
/// logging what it drops or what the server will not handle through `client`.
pub async fn guard_input<I, O>(mut input: I, mut output: O, client: Client)
where
    I: AsyncRead + Unpin,
    O: AsyncWrite + Unpin,
{
    let mut buf = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let read = match input.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(read) => read,
        };
        buf.extend_from_slice(&chunk[..read]);
        loop {
            match next_frame(&mut buf) {
                Frame::Incomplete => break,
                Frame::Garbage(why) => {
                    client
                        .log_message(MessageType::WARNING, format!("silp-lsp: {why}"))
                        .await;
                }
                Frame::Message(body) => match check_message(&body) {
                    Verdict::Forward(note) => {
                        let header = format!("Content-Length: {}\r\n\r\n", body.len());
                        let sent = output.write_all(header.as_bytes()).await.is_ok()
                            && output.write_all(&body).await.is_ok()
                            && output.flush().await.is_ok();
                        if !sent {
                            return;
                        }
                        if let Some(note) = note {
                            client
                                .log_message(MessageType::WARNING, format!("silp-lsp: {note}"))
                                .await;
                        }
                    }
                    Verdict::Drop(why) => {
                        client
                            .log_message(MessageType::WARNING, format!("silp-lsp: {why}"))
                            .await;
                    }
                },
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

    #[test]
    fn frames_split_and_garbage_is_skipped() {
        let mut buf = b"junk".to_vec();
        buf.extend(framed("{}"));
        buf.extend(b"Content-Length: x\r\n\r\n");
        buf.extend(b"content-length: 2\r\nContent-Type: a\r\n\r\n[]");
        assert!(matches!(next_frame(&mut buf), Frame::Garbage(_)));
        assert_eq!(next_frame(&mut buf), Frame::Message(b"{}".to_vec()));
        assert!(matches!(next_frame(&mut buf), Frame::Garbage(_)));
        assert_eq!(next_frame(&mut buf), Frame::Message(b"[]".to_vec()));
        assert_eq!(next_frame(&mut buf), Frame::Incomplete);
        let mut partial = framed("{\"a\":1}");
        partial.truncate(partial.len() - 2);
        assert_eq!(next_frame(&mut partial), Frame::Incomplete);
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
