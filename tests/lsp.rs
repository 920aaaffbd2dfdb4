//! In-process protocol tests: a test client talks JSON-RPC to `silp_lint::lsp::serve`
//! over a duplex pipe, exactly as an editor would over stdio.

use proptest::prelude::*;
use serde_json::{json, Value};
use silp_lint::lint::lint_text;
use silp_lint::lsp::document::{Encoding, Snapshot};
use silp_lint::settings::Settings;
use silp_lint::source::{FileKind, LineIndex};
use std::collections::VecDeque;
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream};
use tower_lsp_server::ls_types::{Position, Range, TextDocumentContentChangeEvent};

const TIMEOUT: Duration = Duration::from_secs(20);

struct TestClient {
    writer: tokio::io::WriteHalf<DuplexStream>,
    reader: BufReader<tokio::io::ReadHalf<DuplexStream>>,
    next_id: i64,
    /// Messages read while waiting for something else.
    backlog: VecDeque<Value>,
}

impl TestClient {
    async fn start() -> TestClient {
        let (ours, theirs) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(theirs);
        tokio::spawn(silp_lint::lsp::serve(server_read, server_write));
        let (reader, writer) = tokio::io::split(ours);
        TestClient {
            writer,
            reader: BufReader::new(reader),
            next_id: 1,
            backlog: VecDeque::new(),
        }
    }

    async fn initialize_with(&mut self, capabilities: Value) -> Value {
        let result = self
            .request(
                "initialize",
                json!({"processId": null, "rootUri": null, "capabilities": capabilities}),
            )
            .await;
        self.notify("initialized", json!({})).await;
        result
    }

    async fn initialize(&mut self) -> Value {
        self.initialize_with(json!({})).await
    }

    async fn send_raw(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).await.unwrap();
        self.writer.flush().await.unwrap();
    }

    async fn send(&mut self, message: Value) {
        let body = message.to_string();
        let frame = format!("Content-Length: {}\r\n\r\n{body}", body.len());
        self.send_raw(frame.as_bytes()).await;
    }

    async fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}))
            .await;
    }

    async fn read_message(&mut self) -> Value {
        tokio::time::timeout(TIMEOUT, async {
            let mut length = None;
            loop {
                let mut line = String::new();
                let read = self.reader.read_line(&mut line).await.unwrap();
                assert!(read > 0, "server closed the stream");
                let line = line.trim_end();
                if line.is_empty() {
                    break;
                }
                if let Some(value) = line.strip_prefix("Content-Length: ") {
                    length = Some(value.parse::<usize>().unwrap());
                }
            }
            let mut body = vec![0; length.expect("Content-Length")];
            self.reader.read_exact(&mut body).await.unwrap();
            serde_json::from_slice(&body).unwrap()
        })
        .await
        .expect("timed out waiting for the server")
    }

    /// The first message (from the backlog, then the stream) that `pred` accepts.
    async fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&pred) {
            return self.backlog.remove(i).unwrap();
        }
        loop {
            let message = self.read_message().await;
            if pred(&message) {
                return message;
            }
            self.backlog.push_back(message);
        }
    }

    async fn request_raw(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        self.wait_for(|m| m["id"] == json!(id) && m.get("method").is_none())
            .await
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.request_raw(method, params).await;
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    async fn open(&mut self, uri: &str, language: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": language, "version": version, "text": text}}),
        )
        .await;
    }

    async fn change(&mut self, uri: &str, version: i32, changes: Value) {
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
        )
        .await;
    }

    /// The diagnostics published for `uri` at `version` (`None`: a clearing publish).
    async fn diagnostics(&mut self, uri: &str, version: Option<i32>) -> Vec<Value> {
        let uri = uri.to_string();
        let message = self
            .wait_for(|m| {
                m["method"] == "textDocument/publishDiagnostics"
                    && m["params"]["uri"] == json!(uri)
                    && match version {
                        Some(v) => m["params"]["version"] == json!(v),
                        None => m["params"].get("version").is_none_or(Value::is_null),
                    }
            })
            .await;
        message["params"]["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// A `textDocument/diagnostic` report of `uri`, after `previous`.
    async fn pull(&mut self, uri: &str, previous: Option<&str>) -> Value {
        self.request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}, "previousResultId": previous}),
        )
        .await
    }

    /// Answers the server's next `workspace/diagnostic/refresh`.
    async fn refreshed(&mut self) {
        let request = self
            .wait_for(|m| m["method"] == "workspace/diagnostic/refresh")
            .await;
        self.send(json!({"jsonrpc": "2.0", "id": request["id"], "result": null}))
            .await;
    }

    async fn log_containing(&mut self, needle: &str) -> String {
        let needle = needle.to_string();
        let message = self
            .wait_for(|m| {
                m["method"] == "window/logMessage"
                    && m["params"]["message"]
                        .as_str()
                        .is_some_and(|s| s.contains(&needle))
            })
            .await;
        message["params"]["message"].as_str().unwrap().to_string()
    }

    /// The document's semantic tokens, decoded to absolute `(line, character,
    /// length, type)`.
    async fn tokens(&mut self, uri: &str) -> Vec<(u64, u64, u64, u64)> {
        let result = self
            .request(
                "textDocument/semanticTokens/full",
                json!({"textDocument": {"uri": uri}}),
            )
            .await;
        let data: Vec<u64> = result["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        let (mut line, mut character) = (0, 0);
        data.chunks(5)
            .map(|t| {
                line += t[0];
                character = if t[0] == 0 { character + t[1] } else { t[1] };
                (line, character, t[2], t[3])
            })
            .collect()
    }

    /// The names of the document's outline entries.
    async fn symbol_names(&mut self, uri: &str) -> Vec<String> {
        let symbols = self
            .request(
                "textDocument/documentSymbol",
                json!({"textDocument": {"uri": uri}}),
            )
            .await;
        symbols
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap().to_string())
            .collect()
    }

    async fn shutdown(mut self) {
        self.request("shutdown", Value::Null).await;
        self.notify("exit", Value::Null).await;
    }
}

/// An independent position computation: 0-based line, and the column in UTF-16
/// units or bytes, for a byte offset (lines end at `\n`, `\r\n` or `\r`).
fn position_of(text: &str, offset: usize, utf16: bool) -> Value {
    let mut line = 0;
    let mut line_start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < offset {
        match bytes[i] {
            b'\r' if bytes.get(i + 1) == Some(&b'\n') && i + 1 < offset => {
                i += 1;
                line += 1;
                line_start = i + 1;
            }
            b'\r' | b'\n' => {
                line += 1;
                line_start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    let column: usize = if utf16 {
        text[line_start..offset].encode_utf16().count()
    } else {
        offset - line_start
    };
    json!({"line": line, "character": column})
}

/// What the CLI's library call finds in `text`, as the server should publish it.
fn expected(text: &str, kind: FileKind, utf16: bool) -> Vec<(String, Value, Value)> {
    lint_text(text, kind, &Settings::default())
        .diagnostics
        .iter()
        .map(|d| {
            (
                d.code().to_string(),
                position_of(text, d.span.start, utf16),
                position_of(text, d.span.end, utf16),
            )
        })
        .collect()
}

fn published(diagnostics: &[Value]) -> Vec<(String, Value, Value)> {
    diagnostics
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["range"]["start"].clone(),
                d["range"]["end"].clone(),
            )
        })
        .collect()
}

/// A line with emoji, a tag character, CJK and a combining mark, and all line ends.
const MIXED: &str = "start(😀\u{E0041}北京e\u{301})\r\n# comment\rif !rain(t+1): start(hike)\n";

#[tokio::test]
async fn diagnostics_match_the_library_in_utf16_and_carry_the_version() {
    let mut client = TestClient::start().await;
    let init = client.initialize().await;
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    assert_eq!(init["capabilities"]["documentFormattingProvider"], true);
    let uri = "file:///work/a.silp";
    client.open(uri, "silp", 7, MIXED).await;
    let diagnostics = client.diagnostics(uri, Some(7)).await;
    assert_eq!(
        published(&diagnostics),
        expected(MIXED, FileKind::Silp, true)
    );
    for d in &diagnostics {
        assert_eq!(d["source"], "silp-lint");
        assert!(d["code"].as_str().unwrap().starts_with("SL"));
    }
    client.shutdown().await;
}

#[tokio::test]
async fn utf8_positions_when_the_client_offers_them() {
    let mut client = TestClient::start().await;
    let init = client
        .initialize_with(json!({"general": {"positionEncodings": ["utf-8", "utf-16"]}}))
        .await;
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    let uri = "file:///work/b.silp";
    client.open(uri, "silp", 1, MIXED).await;
    let diagnostics = client.diagnostics(uri, Some(1)).await;
    assert_eq!(
        published(&diagnostics),
        expected(MIXED, FileKind::Silp, false)
    );
    client.shutdown().await;
}

#[tokio::test]
async fn language_id_or_file_name_selects_documents_and_close_clears() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    // By file name although the language id is generic.
    let uri = "file:///work/c.silp.jsonl";
    client
        .open(uri, "json", 1, "{\"intent\":\"!START\"}\n")
        .await;
    let text = "{\"intent\":\"!START\"}\n";
    let diagnostics = client.diagnostics(uri, Some(1)).await;
    assert_eq!(
        published(&diagnostics),
        expected(text, FileKind::SilpJsonl, true)
    );
    // A Markdown page: its payload fences, positions in the page.
    let page = "# Notes \u{1F600}\n\n```silp\nbegin(hike)\n```\n";
    client
        .open("file:///work/notes.md", "markdown", 1, page)
        .await;
    let diagnostics = client.diagnostics("file:///work/notes.md", Some(1)).await;
    assert_eq!(
        published(&diagnostics),
        expected(page, FileKind::Markdown, true)
    );
    assert_eq!(published(&diagnostics).len(), 1);
    // Not a SILP document: logged, not linted.
    client
        .open("file:///work/notes.txt", "plaintext", 1, "# hi")
        .await;
    client
        .log_containing("not linting file:///work/notes.txt")
        .await;
    client
        .notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    assert!(client.diagnostics(uri, None).await.is_empty());
    client.shutdown().await;
}

#[tokio::test]
async fn incremental_changes_apply_in_order() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///work/d.silp";
    client
        .open(uri, "silp", 1, "start(hike)\r\nbook(北京)\n")
        .await;
    client.diagnostics(uri, Some(1)).await;
    // Three edits in one notification: each against the previous result.
    client
        .change(
            uri,
            2,
            json!([
                {"range": {"start": {"line": 0, "character": 6}, "end": {"line": 0, "character": 10}}, "text": "😀"},
                {"range": {"start": {"line": 0, "character": 8}, "end": {"line": 0, "character": 8}}, "text": ",x"},
                {"range": {"start": {"line": 1, "character": 5}, "end": {"line": 1, "character": 7}}, "text": "Paris"},
            ]),
        )
        .await;
    let expected_text = "start(😀,x)\r\nbook(Paris)\n";
    let diagnostics = client.diagnostics(uri, Some(2)).await;
    assert_eq!(
        published(&diagnostics),
        expected(expected_text, FileKind::Silp, true)
    );
    let symbols = client
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, vec!["start(😀,x)", "book(Paris)"]);
    client.shutdown().await;
}

#[tokio::test]
async fn versions_of_published_diagnostics_never_go_back() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///work/e.silp";
    let text: String = (0..2000).map(|i| format!("start(hike{i})\n")).collect();
    client.open(uri, "silp", 1, &text).await;
    for version in 2..=20 {
        client
            .change(
                uri,
                version,
                json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "x"}]),
            )
            .await;
    }
    let mut last = 0;
    loop {
        let message = client
            .wait_for(|m| m["method"] == "textDocument/publishDiagnostics")
            .await;
        let version = message["params"]["version"].as_i64().unwrap();
        assert!(version >= last, "version {version} published after {last}");
        last = version;
        if version == 20 {
            break;
        }
    }
    client.shutdown().await;
}

#[tokio::test]
async fn malformed_messages_and_unknown_methods_are_logged_and_survived() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    client
        .send_raw(b"Content-Length: 9\r\n\r\n{\"jsonrpc")
        .await;
    client.log_containing("malformed JSON").await;
    client.send_raw(b"garbage without a header\r\n\r\n").await;
    client.log_containing("skipped").await;
    client.send(json!([1, 2, 3])).await;
    client.log_containing("not a JSON-RPC 2.0 message").await;
    let response = client.request_raw("silp/unknown", json!({})).await;
    assert_eq!(response["error"]["code"], -32601);
    client
        .log_containing("unknown request `silp/unknown`")
        .await;
    client.notify("silp/whatever", json!({})).await;
    client.log_containing("`silp/whatever`").await;
    // Still serving.
    let uri = "file:///work/f.silp";
    client.open(uri, "silp", 3, "# only a comment\n").await;
    assert!(client.diagnostics(uri, Some(3)).await.is_empty());
    client.shutdown().await;
}

#[tokio::test]
async fn untitled_and_five_megabyte_documents() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    client
        .open("untitled:Untitled-1", "silp", 1, "start(hike)")
        .await;
    client
        .log_containing("untitled:Untitled-1 is not a file")
        .await;
    let diagnostics = client.diagnostics("untitled:Untitled-1", Some(1)).await;
    assert_eq!(
        published(&diagnostics),
        expected("start(hike)", FileKind::Silp, true)
    );
    let big: String =
        "# a comment line that pads the document to five megabytes\n".repeat(5 * 1024 * 1024 / 58);
    assert!(big.len() >= 5_000_000);
    let uri = "file:///work/big.silp";
    client.open(uri, "silp", 1, &big).await;
    // The message loop keeps answering while the big document lints.
    let items = client
        .request(
            "textDocument/completion",
            json!({"textDocument": {"uri": "untitled:Untitled-1"}, "position": {"line": 0, "character": 2}}),
        )
        .await;
    assert!(items.as_array().is_some_and(|a| !a.is_empty()));
    client.log_containing("is large").await;
    assert!(client.diagnostics(uri, Some(1)).await.is_empty());
    client.shutdown().await;
}

#[tokio::test]
async fn hover_on_a_diagnostic_shows_the_rule_documentation() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///work/g.silp";
    let text = "if !rain(t+1) start(hike)\n";
    client.open(uri, "silp", 1, text).await;
    let diagnostics = client.diagnostics(uri, Some(1)).await;
    let first = diagnostics.first().expect("a syntax error");
    let hover = client
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": first["range"]["start"]}),
        )
        .await;
    let value = hover["contents"]["value"].as_str().unwrap();
    let code = first["code"].as_str().unwrap();
    assert!(value.contains(&format!("**{code} ")), "{value}");
    assert!(value.contains("## What it does"), "{value}");
    client.shutdown().await;
}

#[tokio::test]
async fn completion_offers_verbs_anchors_keys_and_frontends() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let cases: [(&str, &str, &str, &str); 5] = [
        ("file:///w/a.silp", "silp", "if !rain(t+1): st", "start"),
        (
            "file:///w/a.slip",
            "slip",
            "SLIP v1 planner exec Ob",
            "ObserveState",
        ),
        (
            "file:///w/a.silp.json",
            "silp-json",
            "{\"intent\": \"!BO",
            "!BOOK",
        ),
        (
            "file:///w/b.silp.json",
            "silp-json",
            "{\"intent\":\"!START\",\"meta\":{\"out\":\"nl",
            "nl_json",
        ),
        (
            "file:///w/c.silp.json",
            "silp-json",
            "{\"intent\":\"!START\",\"meta\":{\"req_id\":\"ab12\",\"",
            "session_id",
        ),
    ];
    for (uri, language, text, wanted) in cases {
        client.open(uri, language, 1, text).await;
        let character = text.encode_utf16().count();
        let items = client
            .request(
                "textDocument/completion",
                json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": character}}),
            )
            .await;
        let item = items
            .as_array()
            .unwrap()
            .iter()
            .find(|i| i["label"] == wanted)
            .unwrap_or_else(|| panic!("{wanted} not offered for {text}: {items}"));
        assert_eq!(item["textEdit"]["range"]["end"]["character"], character);
    }
    client.shutdown().await;
}

#[tokio::test]
async fn semantic_tokens_use_the_shared_legend() {
    let mut client = TestClient::start().await;
    let init = client.initialize().await;
    let legend = &init["capabilities"]["semanticTokensProvider"]["legend"];
    assert_eq!(
        legend["tokenTypes"],
        json!([
            "keyword",
            "function",
            "parameter",
            "variable",
            "string",
            "number",
            "operator",
            "comment",
            "enumMember",
            "namespace",
            "property"
        ])
    );
    assert_eq!(
        legend["tokenModifiers"],
        json!(["defaultLibrary", "deprecated"])
    );
    let uri = "file:///w/t.silp";
    client
        .open(uri, "silp", 1, "# 😀 note\n//ping code,json\n")
        .await;
    let tokens = client
        .request(
            "textDocument/semanticTokens/full",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let data: Vec<u64> = tokens["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap())
        .collect();
    assert_eq!(
        data,
        vec![
            0, 0, 9, 7, 0, // `# 😀 note`: 9 UTF-16 units, comment
            1, 0, 6, 0, 0, // `//ping`, keyword
            0, 7, 4, 8, 0, // `code`, enumMember
            0, 5, 4, 8, 0, // `json`
        ]
    );
    client.shutdown().await;
}

#[tokio::test]
async fn formatting_prints_the_canonical_form_of_silp_and_slip_only() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let options = json!({"tabSize": 4, "insertSpaces": true});
    for (uri, language, text, kind) in [
        (
            "file:///w/f.silp",
            "silp",
            "if !rain( t+1 ):start(hike) ;  book(x)   # c\n# keep  me\n",
            FileKind::Silp,
        ),
        (
            "file:///w/f.slip",
            "slip",
            "SLIP  v1 a   b  ObserveState\n",
            FileKind::Slip,
        ),
    ] {
        client.open(uri, language, 1, text).await;
        let edits = client
            .request(
                "textDocument/formatting",
                json!({"textDocument": {"uri": uri}, "options": options}),
            )
            .await;
        let mut edits = edits.as_array().unwrap().clone();
        assert!(!edits.is_empty());
        // ASCII text: characters are bytes. Apply from the end.
        edits.sort_by_key(|e| {
            let s = &e["range"]["start"];
            (
                s["line"].as_u64().unwrap(),
                s["character"].as_u64().unwrap(),
            )
        });
        let lines: Vec<usize> = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        let at = |p: &Value| {
            lines[p["line"].as_u64().unwrap() as usize] + p["character"].as_u64().unwrap() as usize
        };
        let mut formatted = text.to_string();
        for edit in edits.iter().rev() {
            let range = at(&edit["range"]["start"])..at(&edit["range"]["end"]);
            formatted.replace_range(range, edit["newText"].as_str().unwrap());
        }
        assert_eq!(formatted, silp_lint::format::format_text(text, kind));
        assert_ne!(formatted, text);
    }
    let uri = "file:///w/f.silp.json";
    client.open(uri, "silp-json", 1, "{ }").await;
    let response = client
        .request_raw(
            "textDocument/formatting",
            json!({"textDocument": {"uri": uri}, "options": options}),
        )
        .await;
    assert!(response["error"]["message"]
        .as_str()
        .unwrap()
        .contains(".silp and .slip documents only"));
    client.shutdown().await;
}

#[tokio::test]
async fn a_formatting_of_more_lines_than_the_edit_limit_is_one_edit() {
    use silp_lint::lsp::to_lsp::MAX_EDITS;
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///w/many.silp";
    // Non-ASCII and CRLF, between lines fmt leaves as they are.
    let text = format!(
        "# 😀 first\n{}start(北)\n",
        "cancel( 北 , é )\r\n".repeat(MAX_EDITS + 1)
    );
    client.open(uri, "silp", 1, &text).await;
    client.diagnostics(uri, Some(1)).await;
    let edits = client
        .request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": uri}, "options": {"tabSize": 4, "insertSpaces": true}}),
        )
        .await;
    let edits = edits.as_array().unwrap();
    assert_eq!(edits.len(), 1);
    // From the first change to the last: the lines around are not in it.
    assert_eq!(
        edits[0]["range"]["start"],
        json!({"line": 1, "character": 7})
    );
    assert_eq!(
        edits[0]["range"]["end"]["line"].as_u64(),
        Some(MAX_EDITS as u64 + 1)
    );
    assert_eq!(
        apply_text_edits(&text, edits),
        silp_lint::format::format_text(&text, FileKind::Silp)
    );
    client.shutdown().await;
}

/// Text from an alphabet that stresses position conversion.
fn alphabet() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "a",
        "b",
        " ",
        "(",
        "😀",
        "北",
        "\u{E0041}",
        "e\u{301}",
        "\n",
        "\r\n",
        "\r",
        "é",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|v| v.concat())
}

/// Byte offsets an LSP position can name: char boundaries not inside a CRLF.
fn addressable(text: &str) -> Vec<usize> {
    (0..=text.len())
        .filter(|&i| text.is_char_boundary(i))
        .filter(|&i| {
            !(i > 0 && text.as_bytes()[i - 1] == b'\r' && text.as_bytes().get(i) == Some(&b'\n'))
        })
        .collect()
}

fn to_position(text: &str, offset: usize) -> Position {
    let v = position_of(text, offset, true);
    Position::new(
        v["line"].as_u64().unwrap() as u32,
        v["character"].as_u64().unwrap() as u32,
    )
}

proptest! {
    #[test]
    fn incremental_edits_equal_full_replacement(
        initial in alphabet(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>(), alphabet()), 1..8),
        batch in 1usize..4,
    ) {
        // One change at a time is spliced in; several go through a rope.
        let mut model = initial.clone();
        let mut incremental = Snapshot::new(initial.clone(), FileKind::Silp);
        let mut changes = Vec::new();
        for (a, b, insert) in edits {
            let offsets = addressable(&model);
            let (a, b) = (a.get(&offsets), b.get(&offsets));
            let (start, end) = (*a.min(b), *a.max(b));
            changes.push(TextDocumentContentChangeEvent {
                range: Some(Range { start: to_position(&model, start), end: to_position(&model, end) }),
                range_length: None,
                text: insert.clone(),
            });
            model.replace_range(start..end, &insert);
            if changes.len() == batch {
                incremental = incremental.changed(&changes, Encoding::Utf16);
                changes.clear();
            }
        }
        incremental = incremental.changed(&changes, Encoding::Utf16);
        prop_assert_eq!(&*incremental.text, model.as_str());
        prop_assert_eq!(&*incremental.index, &LineIndex::new(&model));
    }
}

fn has_code(message: &Value, code: &str) -> bool {
    message["params"]["diagnostics"]
        .as_array()
        .is_some_and(|d| d.iter().any(|d| d["code"] == code))
}

#[tokio::test]
async fn quick_fixes_are_preferred_when_safe_and_fix_all_fixes_the_document() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///w/q.silp";
    client.open(uri, "silp", 1, "Cancel(😀)\nStart(y)\n").await;
    let diagnostics = client.diagnostics(uri, Some(1)).await;
    let first = diagnostics
        .iter()
        .find(|d| d["code"] == "SL104")
        .expect("SL104")
        .clone();
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": first["range"], "context": {"diagnostics": [first]}}),
        )
        .await;
    let quick_fix = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["kind"] == "quickfix")
        .expect("a quick fix");
    assert_eq!(quick_fix["isPreferred"], true);
    assert_eq!(quick_fix["diagnostics"][0]["code"], "SL104");
    assert_eq!(
        quick_fix["edit"]["changes"][uri],
        json!([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 6}}, "newText": "cancel"}])
    );
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri},
                   "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                   "context": {"diagnostics": [], "only": ["source.fixAll"]}}),
        )
        .await;
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), 1);
    assert_eq!(actions[0]["kind"], "source.fixAll.silp-lint");
    let edits = actions[0]["edit"]["changes"][uri].as_array().unwrap();
    let texts: Vec<&str> = edits
        .iter()
        .map(|e| e["newText"].as_str().unwrap())
        .collect();
    assert_eq!(texts, vec!["cancel", "start"]);
    client.shutdown().await;
}

#[tokio::test]
async fn hover_explains_verbs_anchors_and_keys() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let cases = [
        (
            "file:///w/h.silp",
            "silp",
            "if !rain(t+1): start(hike)",
            16,
            &["`!START`", "whitelisted", "gpt-4o"][..],
        ),
        (
            "file:///w/i.silp",
            "silp",
            "escalate(x)",
            2,
            &["excluded"][..],
        ),
        (
            "file:///w/h.slip",
            "slip",
            "SLIP v1 a b ObserveState",
            14,
            &["0x0001", "POLARITY 4"][..],
        ),
        (
            "file:///w/h.silp.json",
            "silp-json",
            r#"{"intent":"!START","meta":{"req_id":"ab12cd34"}}"#,
            30,
            &["meta.req_id", "^[a-f0-9]{4,8}$", "required"][..],
        ),
    ];
    for (uri, language, text, character, wanted) in cases {
        client.open(uri, language, 1, text).await;
        let hover = client
            .request(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": character}}),
            )
            .await;
        let value = hover["contents"]["value"].as_str().unwrap_or_default();
        for needle in wanted {
            assert!(
                value.contains(needle),
                "{needle} not in hover of {text}: {value}"
            );
        }
    }
    client.shutdown().await;
}

#[tokio::test]
async fn duplicate_req_ids_across_open_documents_point_at_each_other() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let text = r#"{"intent":"!START","meta":{"req_id":"ab12cd34"}}"#;
    let (a, b) = ("file:///w/a.silp.json", "file:///w/b.silp.json");
    client.open(a, "silp-json", 1, text).await;
    client.diagnostics(a, Some(1)).await;
    client.open(b, "silp-json", 1, text).await;
    let published = client
        .wait_for(|m| m["params"]["uri"] == b && has_code(m, "SL303"))
        .await;
    let dup = published["params"]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "SL303")
        .unwrap()
        .clone();
    let related = &dup["relatedInformation"][0]["location"];
    assert_eq!(related["uri"], a);
    assert_eq!(related["range"]["start"]["character"], 36);
    // The first document learns about the duplicate too, and forgets it on close.
    client
        .wait_for(|m| m["params"]["uri"] == a && has_code(m, "SL303"))
        .await;
    client
        .notify("textDocument/didClose", json!({"textDocument": {"uri": b}}))
        .await;
    client
        .wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == a
                && !has_code(m, "SL303")
        })
        .await;
    client.shutdown().await;
}

/// Client capabilities of an editor that pulls diagnostics (VS Code's client does).
fn pulling() -> Value {
    json!({"textDocument": {"diagnostic": {}}, "workspace": {"diagnostics": {"refreshSupport": true}}})
}

fn report_codes(report: &Value) -> Vec<String> {
    codes_of(report["items"].as_array().expect("a full report's items"))
}

#[tokio::test]
async fn a_pulled_report_is_unchanged_until_its_diagnostics_change() {
    let mut client = TestClient::start().await;
    let result = client.initialize_with(pulling()).await;
    assert_eq!(
        result["capabilities"]["diagnosticProvider"]["interFileDependencies"],
        true
    );
    let uri = "file:///w/pulled.silp";
    client
        .open(uri, "silp", 1, "begin(hike)\nCancel(x)\n")
        .await;
    let first = client.pull(uri, None).await;
    assert_eq!(first["kind"], "full");
    assert_eq!(report_codes(&first), ["SL101", "SL104"]);
    let first_id = first["resultId"].as_str().expect("a result id").to_string();

    // A clean line added: the same diagnostics, answered without them.
    let end = json!({"start": {"line": 2, "character": 0}, "end": {"line": 2, "character": 0}});
    client
        .change(uri, 2, json!([{"range": end, "text": "start(hike)\n"}]))
        .await;
    let same = client.pull(uri, Some(&first_id)).await;
    assert_eq!(same, json!({"kind": "unchanged", "resultId": first_id}));

    // A defect typed in the middle of the document: the whole list, under a new id.
    let line_one =
        json!({"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 0}});
    client
        .change(uri, 3, json!([{"range": line_one, "text": "Begin(x); "}]))
        .await;
    let changed = client.pull(uri, Some(&first_id)).await;
    assert_eq!(changed["kind"], "full");
    // `Begin` is both unknown and miscased.
    assert_eq!(report_codes(&changed), ["SL101", "SL101", "SL104", "SL104"]);
    let changed_id = changed["resultId"].as_str().unwrap();
    assert_ne!(changed_id, first_id);
    let cancel = &changed["items"][3];
    assert_eq!(cancel["code"], "SL104");
    assert_eq!(
        cancel["range"]["start"],
        json!({"line": 1, "character": 10})
    );
    // An editor that lost its copy sends no id, and gets the list again.
    assert_eq!(client.pull(uri, None).await["items"], changed["items"]);

    // A document the server does not lint has an empty report.
    let other = client.pull("file:///w/notes.txt", None).await;
    assert_eq!(other, json!({"kind": "full", "items": []}));
    // Nothing was pushed to a client that pulls.
    client
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    assert!(
        !client
            .backlog
            .iter()
            .any(|m| m["method"] == "textDocument/publishDiagnostics"),
        "{:?}",
        client.backlog
    );
    client.shutdown().await;
}

#[tokio::test]
async fn a_pulling_client_is_asked_to_pull_again_when_another_document_changes_its_report() {
    let mut client = TestClient::start().await;
    client.initialize_with(pulling()).await;
    let text = r#"{"intent":"!START","meta":{"req_id":"ab12cd34"}}"#;
    let (a, b) = ("file:///w/a.silp.json", "file:///w/b.silp.json");
    client.open(a, "silp-json", 1, text).await;
    let alone = client.pull(a, None).await;
    assert!(report_codes(&alone).is_empty());
    let alone_id = alone["resultId"].as_str().unwrap().to_string();
    client.open(b, "silp-json", 1, text).await;
    assert_eq!(report_codes(&client.pull(b, None).await), ["SL303"]);
    // `a` did not change, but its report did: the editor is asked to pull again.
    client.refreshed().await;
    let shared = client.pull(a, Some(&alone_id)).await;
    assert_eq!(report_codes(&shared), ["SL303"]);
    let shared_id = shared["resultId"].as_str().unwrap().to_string();
    client
        .notify("textDocument/didClose", json!({"textDocument": {"uri": b}}))
        .await;
    client.refreshed().await;
    let after = client.pull(a, Some(&shared_id)).await;
    assert_eq!(after["kind"], "full");
    assert!(report_codes(&after).is_empty());
    client.shutdown().await;
}

#[tokio::test]
async fn a_client_that_does_not_pull_is_not_offered_pulling() {
    let mut client = TestClient::start().await;
    let result = client.initialize().await;
    assert!(result["capabilities"].get("diagnosticProvider").is_none());
    let uri = "file:///w/pushed.silp";
    client.open(uri, "silp", 1, "Cancel(x)\n").await;
    assert_eq!(codes_of(&client.diagnostics(uri, Some(1)).await), ["SL104"]);
    let refused = client
        .request_raw(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let message = refused["error"]["message"].as_str().unwrap();
    assert!(message.contains("publishes diagnostics"), "{message}");
    client.shutdown().await;
}

#[tokio::test]
async fn one_symbol_per_payload() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let cases = [
        (
            "file:///w/s.slip",
            "slip",
            "# c\nSLIP v1 a b ObserveState\nSLIP v1 b a Fallback \"x\"\n",
            vec!["ObserveState", "Fallback"],
        ),
        (
            "file:///w/s.silp.jsonl",
            "silp-jsonl",
            "{\"intent\":\"!BOOK\"}\n\n{\"intent\":\"!START\"}\n",
            vec!["!BOOK", "!START"],
        ),
    ];
    for (uri, language, text, names) in cases {
        client.open(uri, language, 1, text).await;
        let symbols = client
            .request(
                "textDocument/documentSymbol",
                json!({"textDocument": {"uri": uri}}),
            )
            .await;
        let got: Vec<&str> = symbols
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["name"].as_str().unwrap())
            .collect();
        assert_eq!(got, names);
    }
    client.shutdown().await;
}

/// Lines of each line-oriented kind, valid and not, with the characters rules flag.
fn kind_lines() -> impl Strategy<Value = (FileKind, Vec<String>)> {
    let silp = vec![
        "if !rain(t+1): start(hike) else: start(cards@indoor)",
        "Cancel(x)",
        "begn(x); book(hotel,loc=北京)",
        "start(hike) else start(cards)",
        "# silp-lint: ignore[SL104]",
        "# silp-lint: ignore[SL101,SL204] reviewed",
        "Cancel(y) # silp-lint: ignore[SL104]",
        "# a comment",
        "//ping code,json heartbeat=7",
        "\u{feff}start(x)",
        "start(a\u{200b}b)",
        "start(😀\u{E0041})",
        "if x => 3: start(",
        "",
        "  ",
    ];
    let slip = vec![
        "SLIP v1 planner exec ObserveState",
        "SLIP v1 a b Fallback",
        "SLIP v2 a b observestate \"x\"",
        "SLIP v1 a!b c MetaAck thread42",
        "# silp-lint: ignore[SL601]",
        "# comment",
        "",
    ];
    let jsonl = vec![
        r#"{"intent":"!START","meta":{"req_id":"ab12cd34"}}"#,
        r#"{"intent":"!START","meta":{"req_id":"AB12","out":"llmlingua2"}}"#,
        r#"{"intent":"!SWITCH_TOOL","hotel":"x","action_book":["a"]}"#,
        r#"{"intent":"!START","meta":{"req_id":"ab12cd34","next_agent":null}}"#,
        r#"{"intent": }"#,
        "[1]",
        "",
    ];
    prop_oneof![
        Just((FileKind::Silp, silp)),
        Just((FileKind::Slip, slip)),
        Just((FileKind::SilpJsonl, jsonl)),
    ]
    .prop_map(|(kind, lines)| (kind, lines.into_iter().map(String::from).collect()))
}

fn summary(lint: &silp_lint::lint::FileLint) -> Vec<String> {
    let mut out: Vec<String> = lint
        .diagnostics
        .iter()
        .map(|d| {
            format!(
                "{} {:?} {} {:?} {:?} {:?}",
                d.code(),
                d.span,
                d.message,
                d.help,
                d.fix.as_ref().map(|f| f
                    .edits
                    .iter()
                    .map(|e| (e.span.clone(), e.content.clone()))
                    .collect::<Vec<_>>()),
                d.related
                    .iter()
                    .map(|r| (r.path.clone(), r.span.clone(), r.message.clone()))
                    .collect::<Vec<_>>()
            )
        })
        .collect();
    out.extend(lint.req_ids.iter().map(|f| format!("req_id {f:?}")));
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]
    #[test]
    fn relinting_a_window_equals_a_full_lint(
        (kind, lines) in kind_lines(),
        picks in prop::collection::vec((any::<prop::sample::Index>(), 0usize..3), 1..12),
        edits in prop::collection::vec(
            (any::<prop::sample::Index>(), 0usize..12, any::<prop::sample::Index>(), 0usize..3),
            1..6,
        ),
    ) {
        let ends = ["\n", "\r\n", "\r"];
        let text: String = picks
            .iter()
            .map(|(i, e)| format!("{}{}", i.get(&lines), ends[*e]))
            .collect();
        let settings = Settings::default();
        let mut old = text;
        let mut previous = lint_text(&old, kind, &settings);
        let pieces: Vec<String> = lines
            .iter()
            .cloned()
            .chain(["\n", "\r", "x", "(", "\u{200b}", "😀"].map(String::from))
            .collect();
        for (at, delete, insert, end) in edits {
            let boundaries: Vec<usize> = (0..=old.len()).filter(|&i| old.is_char_boundary(i)).collect();
            let start = *at.get(&boundaries);
            let stop = boundaries
                .iter()
                .copied()
                .filter(|&b| b >= start)
                .nth(delete)
                .unwrap_or(old.len());
            let mut new = old.clone();
            let insertion = format!("{}{}", insert.get(&pieces), if end == 0 { "" } else { ends[end] });
            new.replace_range(start..stop, &insertion);
            let index = silp_lint::source::LineIndex::new(&new);
            let got = silp_lint::relint::relint(&old, &previous, &new, &index, kind, &settings);
            let full = lint_text(&new, kind, &settings);
            prop_assert_eq!(summary(&got), summary(&full), "{:?} -> {:?}", old, new);
            old = new;
            previous = got;
        }
    }
}

#[tokio::test]
async fn unsafe_fixes_are_offered_but_not_preferred_nor_fixed_all() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///w/u.silp";
    client.open(uri, "silp", 1, "c\u{430}ncel(x)\n").await;
    let diagnostics = client.diagnostics(uri, Some(1)).await;
    let confusable = diagnostics
        .iter()
        .find(|d| d["code"] == "SL202")
        .expect("SL202")
        .clone();
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri}, "range": confusable["range"], "context": {"diagnostics": [confusable]}}),
        )
        .await;
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert_eq!(actions[0]["kind"], "quickfix");
    assert_eq!(actions[0]["isPreferred"], false);
    assert!(actions[0]["title"].as_str().unwrap().contains("unsafe"));
    client.shutdown().await;
}

#[tokio::test]
async fn out_of_range_positions_are_clamped() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///w/o.silp";
    client.open(uri, "silp", 1, "start(😀)\r\n").await;
    client.diagnostics(uri, Some(1)).await;
    for (line, character) in [(0, 7), (0, 999), (99, 0), (u32::MAX, u32::MAX)] {
        let position = json!({"line": line, "character": character});
        client
            .request(
                "textDocument/hover",
                json!({"textDocument": {"uri": uri}, "position": position}),
            )
            .await;
        client
            .request(
                "textDocument/completion",
                json!({"textDocument": {"uri": uri}, "position": position}),
            )
            .await;
    }
    // An edit far past the end appends; one inside the surrogate pair snaps to it.
    client
        .change(
            uri,
            2,
            json!([
                {"range": {"start": {"line": 9, "character": 9}, "end": {"line": 9, "character": 9}}, "text": "x"},
                {"range": {"start": {"line": 0, "character": 7}, "end": {"line": 0, "character": 7}}, "text": "y"},
            ]),
        )
        .await;
    let text = "start(y😀)\r\nx";
    let diagnostics = client.diagnostics(uri, Some(2)).await;
    assert_eq!(
        published(&diagnostics),
        expected(text, FileKind::Silp, true)
    );
    client.shutdown().await;
}

fn codes_of(diagnostics: &[Value]) -> Vec<String> {
    diagnostics
        .iter()
        .map(|d| d["code"].as_str().unwrap_or_default().to_string())
        .collect()
}

#[tokio::test]
async fn the_configuration_file_applies_and_is_reloaded_when_it_changes() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("silp-lint.toml");
    std::fs::write(&config, "ignore = [\"SL101\"]\n").unwrap();
    let payload = dir.path().join("a.silp");
    let uri = format!("file://{}", payload.display());
    let config_uri = format!("file://{}", config.display());
    let mut client = TestClient::start().await;
    client.initialize().await;
    client
        .open(&uri, "silp", 1, "begin(hike)\nCancel(x)\n")
        .await;
    assert_eq!(
        codes_of(&client.diagnostics(&uri, Some(1)).await),
        ["SL104"]
    );

    std::fs::write(&config, "ignore = [\"SL104\"]\n").unwrap();
    client
        .notify(
            "workspace/didChangeWatchedFiles",
            json!({"changes": [{"uri": config_uri, "type": 2}]}),
        )
        .await;
    assert_eq!(
        codes_of(&client.diagnostics(&uri, Some(1)).await),
        ["SL101"]
    );

    // A broken configuration is logged; the document is linted with the defaults.
    std::fs::write(&config, "ignore = [\"SL999\"]\n").unwrap();
    client
        .notify(
            "workspace/didChangeWatchedFiles",
            json!({"changes": [{"uri": config_uri, "type": 2}]}),
        )
        .await;
    let log = client.log_containing("SL999").await;
    assert!(log.contains("silp-lint.toml:1:"), "{log}");
    assert_eq!(
        codes_of(&client.diagnostics(&uri, Some(1)).await),
        ["SL101", "SL104"]
    );
    client.shutdown().await;
}

#[tokio::test]
async fn the_editor_rule_selection_applies_over_the_configuration() {
    let mut client = TestClient::start().await;
    client
        .send(
            json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "capabilities": {},
                "initializationOptions": {"lint": {"select": ["SL1"], "ignore": ["SL104"]}}
            }}),
        )
        .await;
    client.wait_for(|m| m["id"] == json!(0)).await;
    client.notify("initialized", json!({})).await;
    let uri = "untitled:Untitled-1";
    // SL101 runs (selected); SL104 (ignored) and SL505 (not selected) do not.
    client
        .open(uri, "silp", 3, "begin(hike)\nCancel(x) -> start(y)\n")
        .await;
    assert_eq!(codes_of(&client.diagnostics(uri, Some(3)).await), ["SL101"]);
    client.shutdown().await;
}

/// The labels of a completion response.
fn labels(result: &Value) -> Vec<String> {
    result
        .as_array()
        .map(|items| {
            items
                .iter()
                .map(|i| i["label"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

const KEYWORD: u64 = 0;
const FUNCTION: u64 = 1;
const ENUM_MEMBER: u64 = 8;

#[tokio::test]
async fn markdown_fences_are_highlighted_outlined_hovered_and_completed_where_check_lints() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///w/plans.md";
    let page = "# Plans 😀\n\nIf it rains: start(cards).\n\n> ```silp\n> if !rain(t+1): start(hike)\n> ```\n\n```slip\nSLIP v1 a b ObserveState\n```\n\n```silp\nif x: sta\n```\n";
    client.open(uri, "markdown", 1, page).await;
    let tokens = client.tokens(uri).await;
    // The quoted fence's payload, after the `> ` prefix; not the prose's `start`.
    assert!(tokens.contains(&(5, 2, 2, KEYWORD)), "{tokens:?}");
    assert!(tokens.contains(&(5, 17, 5, FUNCTION)), "{tokens:?}");
    assert!(tokens.contains(&(9, 12, 12, ENUM_MEMBER)), "{tokens:?}");
    assert!(tokens.iter().all(|t| t.0 >= 5), "{tokens:?}");

    let symbols = client
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let names: Vec<&str> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["if !rain(t+1): start(hike)", "ObserveState", "if x: sta"]
    );

    let hover = client
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 5, "character": 19}}),
        )
        .await;
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("whitelisted SILP verb"), "{text}");
    assert_eq!(
        hover["range"],
        json!({"start": {"line": 5, "character": 17}, "end": {"line": 5, "character": 22}})
    );
    // Prose mentioning a verb is not a payload.
    let prose = client
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 15}}),
        )
        .await;
    assert!(prose.is_null(), "{prose}");

    let completion = client
        .request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": {"line": 13, "character": 9}}),
        )
        .await;
    assert!(labels(&completion).contains(&"start".to_string()));
    let in_prose = client
        .request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": {"line": 2, "character": 5}}),
        )
        .await;
    assert!(labels(&in_prose).is_empty(), "{in_prose}");
    client.shutdown().await;
}

#[tokio::test]
async fn nlip_messages_are_highlighted_outlined_hovered_and_completed_inside_their_payloads() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///w/m.nlip.json";
    let text = "{\"format\":\"text\",\"subformat\":\"silp\",\"content\":\"cancel(flight); no\",\n \"submessages\":[{\"format\":\"text\",\"content\":\"SLIP v1 planner booker Accept\"}]}\n";
    client.open(uri, "json", 1, text).await;
    let tokens = client.tokens(uri).await;
    let content = text.find("cancel").unwrap() as u64;
    let accept = text.find("Accept").unwrap() - text.find('\n').unwrap() - 1;
    assert!(tokens.contains(&(0, content, 6, FUNCTION)), "{tokens:?}");
    assert!(
        tokens.contains(&(1, accept as u64, 6, ENUM_MEMBER)),
        "{tokens:?}"
    );
    // The envelope's own keys are the JSON grammar's to colour.
    assert!(
        tokens.iter().all(|t| t.0 == 1 || t.1 >= content),
        "{tokens:?}"
    );

    assert_eq!(
        client.symbol_names(uri).await,
        ["cancel(flight); no", "Accept"]
    );

    let hover = client
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": accept + 2}}),
        )
        .await;
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("UCR v1.0 core anchor"), "{shown}");

    let after_no = text.find("; no").unwrap() + 4;
    let completion = client
        .request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": after_no}}),
        )
        .await;
    assert!(
        labels(&completion).contains(&"notify".to_string()),
        "{completion}"
    );
    client.shutdown().await;
}

#[tokio::test]
async fn every_method_of_the_table_is_answered_and_none_is_logged_as_unhandled() {
    use silp_lint::lsp::capabilities::{MethodKind, METHODS};
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///w/all.silp";
    client.open(uri, "silp", 1, "start(hike)\n").await;
    let params = json!({
        "textDocument": {"uri": uri},
        "position": {"line": 0, "character": 1},
        "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 1}},
        "context": {"diagnostics": []},
        "options": {"tabSize": 4, "insertSpaces": true},
        "changes": [],
        "settings": {},
    });
    for method in METHODS {
        match (method.kind, method.name) {
            (_, "initialize" | "initialized" | "shutdown" | "exit") => {}
            (MethodKind::Request, name) => {
                let response = client.request_raw(name, params.clone()).await;
                assert_ne!(response["error"]["code"], -32601, "{name}: {response}");
            }
            (MethodKind::Notification, name) => {
                if !name.starts_with("textDocument/") {
                    client.notify(name, params.clone()).await;
                }
            }
        }
    }
    // A request after the notifications: its answer comes after their logs.
    client
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let unhandled: Vec<&Value> = client
        .backlog
        .iter()
        .filter(|m| {
            m["params"]["message"]
                .as_str()
                .is_some_and(|s| s.contains("does not handle") || s.contains("unknown request"))
        })
        .collect();
    assert!(unhandled.is_empty(), "{unhandled:?}");
    client.shutdown().await;
}

/// The byte offset of a UTF-16 position, computed independently of the server.
fn offset_of(text: &str, position: &Value) -> usize {
    let (line, character) = (
        position["line"].as_u64().unwrap(),
        position["character"].as_u64().unwrap(),
    );
    let mut offset = 0;
    for _ in 0..line {
        let rest = &text[offset..];
        offset += match rest.find(['\n', '\r']) {
            Some(at) if rest[at..].starts_with("\r\n") => at + 2,
            Some(at) => at + 1,
            None => rest.len(),
        };
    }
    let mut units = 0;
    for (i, ch) in text[offset..].char_indices() {
        if units >= character as usize || ch == '\n' || ch == '\r' {
            return offset + i;
        }
        units += ch.len_utf16();
    }
    text.len()
}

/// `text` with a client's text edits applied (sorted, not overlapping).
fn apply_text_edits(text: &str, edits: &[Value]) -> String {
    let mut out = text.to_string();
    for edit in edits.iter().rev() {
        let start = offset_of(text, &edit["range"]["start"]);
        let end = offset_of(text, &edit["range"]["end"]);
        out.replace_range(start..end, edit["newText"].as_str().unwrap());
    }
    out
}

#[tokio::test]
async fn a_long_line_with_emoji_gets_exact_diagnostics_and_tokens() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///w/long.silp";
    let text = format!("start(é){}\n", "; Start(😀 北京e\u{301})".repeat(500));
    client.open(uri, "silp", 1, &text).await;
    let diagnostics = client.diagnostics(uri, Some(1)).await;
    assert!(diagnostics.len() >= 1000);
    assert_eq!(
        published(&diagnostics),
        expected(&text, FileKind::Silp, true)
    );
    let document = silp_lint::syntax::parse(&text, FileKind::Silp);
    let expected_tokens: Vec<(u64, u64, u64, u64)> =
        silp_lint::lsp::semantic::tokens(&document, None)
            .iter()
            .map(|t| {
                let start = position_of(&text, t.span.start, true);
                let length = text[t.span.clone()].encode_utf16().count() as u64;
                (
                    0,
                    start["character"].as_u64().unwrap(),
                    length,
                    t.kind as u64,
                )
            })
            .collect();
    assert_eq!(client.tokens(uri).await, expected_tokens);
    client.shutdown().await;
}

#[tokio::test]
async fn eight_thousand_changes_in_one_notification_apply_in_order() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///w/many.silp";
    let lines = 8_000;
    client
        .open(uri, "silp", 1, &"start(😀)\n".repeat(lines))
        .await;
    client.diagnostics(uri, Some(1)).await;
    // Each change upper-cases the `s` of one line, counted after the changes before it.
    let changes: Vec<Value> = (0..lines)
        .map(|line| json!({"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 1}}, "text": "S"}))
        .collect();
    client.change(uri, 2, json!(changes)).await;
    let diagnostics = client.diagnostics(uri, Some(2)).await;
    // What the library finds in the text with every line upper-cased: one SL104 per
    // line.
    let wanted = expected(&"Start(😀)\n".repeat(lines), FileKind::Silp, true);
    assert_eq!(wanted.len(), lines);
    assert!(wanted.iter().all(|(code, ..)| code == "SL104"));
    assert_eq!(published(&diagnostics), wanted);
    client.shutdown().await;
}

#[tokio::test]
async fn diagnostics_and_outline_entries_past_their_limits_are_counted_in_a_last_entry() {
    use silp_lint::lsp::requests::document_symbol::MAX_SYMBOLS;
    use silp_lint::lsp::scheduler::MAX_PUBLISHED_DIAGNOSTICS;
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///w/capped.silp";
    let lines = 10_050;
    // Ten rules fire on each line.
    let line = "if a=>1 then Cancel(x,x); begin(y); switch_tool(c\u{430}t\u{200b}\u{202e}\u{ad})\n";
    let text = line.repeat(lines);
    let all = expected(&text, FileKind::Silp, true);
    assert!(all.len() > MAX_PUBLISHED_DIAGNOSTICS, "{}", all.len());
    client.open(uri, "silp", 1, &text).await;
    let diagnostics = client.diagnostics(uri, Some(1)).await;
    assert_eq!(diagnostics.len(), MAX_PUBLISHED_DIAGNOSTICS + 1);
    assert_eq!(
        published(&diagnostics[..MAX_PUBLISHED_DIAGNOSTICS]),
        all[..MAX_PUBLISHED_DIAGNOSTICS]
    );
    let note = &diagnostics[MAX_PUBLISHED_DIAGNOSTICS];
    assert_eq!(note["severity"], 3);
    assert_eq!(note["range"]["start"], all[MAX_PUBLISHED_DIAGNOSTICS].1);
    let left_out = all.len() - MAX_PUBLISHED_DIAGNOSTICS;
    assert!(
        note["message"]
            .as_str()
            .unwrap()
            .starts_with(&format!("{left_out} more diagnostics")),
        "{note}"
    );
    let names = client.symbol_names(uri).await;
    assert_eq!(names.len(), MAX_SYMBOLS + 1);
    assert_eq!(names[0], line.trim_end());
    let unlisted = lines - MAX_SYMBOLS;
    assert!(names[MAX_SYMBOLS].starts_with(&format!("… {unlisted} more payloads")));
    client.shutdown().await;
}

/// The fix-all actions offered for a whole document.
async fn fix_all_actions(client: &mut TestClient, uri: &str) -> Vec<Value> {
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri},
                   "range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}},
                   "context": {"diagnostics": [], "only": ["source.fixAll"]}}),
        )
        .await;
    actions.as_array().cloned().unwrap_or_default()
}

#[tokio::test]
async fn fix_all_is_what_the_cli_writes_and_is_refused_where_the_cli_refuses() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    // The CLI removes both nulls (the second in a second round).
    let uri = "file:///w/nulls.silp.json";
    let text = "{\"intent\":\"!START\",\"meta\":{\"req_id\":\"a1b2c3d4\",\"next_agent\":null,\"session_id\":null}}\n";
    client.open(uri, "silp-json", 1, text).await;
    client.diagnostics(uri, Some(1)).await;
    let actions = fix_all_actions(&mut client, uri).await;
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert_eq!(actions[0]["title"], "Fix all safe silp-lint problems (2)");
    let edits = actions[0]["edit"]["changes"][uri].as_array().unwrap();
    assert_eq!(
        apply_text_edits(text, edits),
        "{\"intent\":\"!START\",\"meta\":{\"req_id\":\"a1b2c3d4\"}}\n"
    );
    // Deleting the tag characters would leave `user=` empty: the payload would no
    // longer parse.
    let uri = "file:///w/tags.silp";
    client
        .open(uri, "silp", 1, "notify(msg=a,user=\u{E0041}\u{E0042})\n")
        .await;
    client.diagnostics(uri, Some(1)).await;
    assert!(fix_all_actions(&mut client, uri).await.is_empty());
    client.log_containing("would no longer parse").await;
    // Lower-casing `SubFormat` would make `content` a carried SILP payload.
    let uri = "file:///w/sub.nlip.json";
    client
        .open(
            uri,
            "json",
            1,
            "{\"format\": \"text\", \"SubFormat\": \"silp\", \"content\": \"start(hike)\"}\n",
        )
        .await;
    client.diagnostics(uri, Some(1)).await;
    assert!(fix_all_actions(&mut client, uri).await.is_empty());
    client.log_containing("2 payloads instead of 1").await;
    // The quick fixes stay offered one by one.
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri},
                   "range": {"start": {"line": 0, "character": 20}, "end": {"line": 0, "character": 20}},
                   "context": {"diagnostics": []}}),
        )
        .await;
    assert_eq!(actions.as_array().unwrap().len(), 1, "{actions}");
    assert_eq!(actions[0]["kind"], "quickfix");
    client.shutdown().await;
}

/// Client capabilities of an editor that resolves a code action's edit when it is
/// chosen (VS Code's client does).
fn resolving() -> Value {
    json!({"textDocument": {"codeAction": {"dataSupport": true, "resolveSupport": {"properties": ["edit"]}}}})
}

/// The code actions offered for the whole of a two-line document, without `only`:
/// what an editor asks for on a cursor move.
async fn actions_at_cursor(client: &mut TestClient, uri: &str) -> Vec<Value> {
    let actions = client
        .request(
            "textDocument/codeAction",
            json!({"textDocument": {"uri": uri},
                   "range": {"start": {"line": 0, "character": 0}, "end": {"line": 2, "character": 0}},
                   "context": {"diagnostics": []}}),
        )
        .await;
    actions.as_array().cloned().unwrap_or_default()
}

fn fix_all_of(actions: &[Value]) -> Value {
    actions
        .iter()
        .find(|a| a["kind"] == "source.fixAll.silp-lint")
        .unwrap_or_else(|| panic!("a fix-all among {actions:?}"))
        .clone()
}

#[tokio::test]
async fn a_fix_all_offered_on_a_cursor_move_is_computed_when_chosen_against_the_text_then() {
    let mut client = TestClient::start().await;
    let init = client.initialize_with(resolving()).await;
    assert_eq!(
        init["capabilities"]["codeActionProvider"]["resolveProvider"],
        true
    );
    let uri = "file:///w/r.silp";
    let text = "Cancel(😀)\nStart(y)\n";
    client.open(uri, "silp", 1, text).await;
    client.diagnostics(uri, Some(1)).await;
    // Offered among the quick fixes, without its edit.
    let actions = actions_at_cursor(&mut client, uri).await;
    assert!(
        actions.iter().any(|a| a["kind"] == "quickfix"),
        "{actions:?}"
    );
    let offered = fix_all_of(&actions);
    assert_eq!(offered["title"], "Fix all safe silp-lint problems");
    assert!(offered.get("edit").is_none(), "{offered}");
    // Chosen: the edit is what `check --fix` writes.
    let resolved = client.request("codeAction/resolve", offered.clone()).await;
    assert_eq!(resolved["kind"], "source.fixAll.silp-lint");
    let edits = resolved["edit"]["changes"][uri].as_array().unwrap();
    assert_eq!(apply_text_edits(text, edits), "cancel(😀)\nstart(y)\n");
    // Computed once for this version: offered with it from then on.
    let again = fix_all_of(&actions_at_cursor(&mut client, uri).await);
    assert_eq!(again["title"], "Fix all safe silp-lint problems (2)");
    assert_eq!(again["edit"], resolved["edit"]);
    // The document changes between the offer and the choice: the edit fixes the
    // text the client has when it resolves.
    client.change(uri, 2, json!([{"text": "Start(a)\n"}])).await;
    let offered = fix_all_of(&actions_at_cursor(&mut client, uri).await);
    assert!(offered.get("edit").is_none(), "{offered}");
    client
        .change(uri, 3, json!([{"text": "Start(b)\nNotify(c)\n"}]))
        .await;
    let resolved = client.request("codeAction/resolve", offered).await;
    let edits = resolved["edit"]["changes"][uri].as_array().unwrap();
    assert_eq!(
        apply_text_edits("Start(b)\nNotify(c)\n", edits),
        "start(b)\nnotify(c)\n"
    );
    // Asked for by its kind, as on save, it comes with its edit.
    client.change(uri, 4, json!([{"text": "Start(d)\n"}])).await;
    let asked = fix_all_actions(&mut client, uri).await;
    assert_eq!(asked.len(), 1, "{asked:?}");
    assert_eq!(asked[0]["title"], "Fix all safe silp-lint problems (1)");
    let edits = asked[0]["edit"]["changes"][uri].as_array().unwrap();
    assert_eq!(apply_text_edits("Start(d)\n", edits), "start(d)\n");
    client.shutdown().await;
}

#[tokio::test]
async fn a_refused_fix_all_resolves_to_no_edit_and_tells_the_user_why() {
    let mut client = TestClient::start().await;
    client.initialize_with(resolving()).await;
    // Deleting the tag characters would leave `user=` empty: the payload would no
    // longer parse.
    let uri = "file:///w/tags.silp";
    client
        .open(uri, "silp", 1, "notify(msg=a,user=\u{E0041}\u{E0042})\n")
        .await;
    client.diagnostics(uri, Some(1)).await;
    let offered = fix_all_of(&actions_at_cursor(&mut client, uri).await);
    let resolved = client.request("codeAction/resolve", offered.clone()).await;
    assert_eq!(resolved["edit"]["changes"][uri], json!([]));
    let shown = client
        .wait_for(|m| m["method"] == "window/showMessage")
        .await;
    let message = shown["params"]["message"].as_str().unwrap();
    assert!(message.contains("would no longer parse"), "{message}");
    // Once refused for this version, it is no longer offered.
    let actions = actions_at_cursor(&mut client, uri).await;
    assert!(
        actions
            .iter()
            .all(|a| a["kind"] != "source.fixAll.silp-lint"),
        "{actions:?}"
    );
    // Nothing else is resolved: another server's action, or a closed document's.
    let foreign = client
        .request_raw(
            "codeAction/resolve",
            json!({"title": "Organize imports", "kind": "source.organizeImports"}),
        )
        .await;
    assert_eq!(foreign["error"]["code"], -32602, "{foreign}");
    client
        .notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    let closed = client.request_raw("codeAction/resolve", offered).await;
    assert_eq!(closed["error"]["code"], -32602, "{closed}");
    assert!(
        closed["error"]["message"]
            .as_str()
            .unwrap()
            .contains("is not open"),
        "{closed}"
    );
    client.shutdown().await;
}

#[tokio::test]
async fn a_length_over_the_limit_is_skipped_at_once_and_the_next_message_is_answered() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    client
        .send_raw(
            b"Content-Length: 200000000\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"initialized\"",
        )
        .await;
    client.log_containing("over the limit of 64 MiB").await;
    let uri = "file:///w/after.silp";
    client.open(uri, "silp", 1, "Start(x)\n").await;
    assert_eq!(codes_of(&client.diagnostics(uri, Some(1)).await), ["SL104"]);
    // A length longer than the body sent: the next message is read as sent.
    client
        .send_raw(b"Content-Length: 5000\r\n\r\n{\"jsonrpc\":\"2.0\",\"method\":\"initialized\"}")
        .await;
    client
        .change(uri, 2, json!([{"text": "Cancel(x)\n"}]))
        .await;
    client
        .log_containing("runs into the next message's header")
        .await;
    assert_eq!(codes_of(&client.diagnostics(uri, Some(2)).await), ["SL104"]);
    // A header without its blank line.
    client
        .send_raw(b"Content-Length: 40\r\n{\"jsonrpc\":\"2.0\",\"method\":\"x\"}")
        .await;
    let symbols = client
        .request(
            "textDocument/documentSymbol",
            json!({"textDocument": {"uri": uri}}),
        )
        .await;
    assert_eq!(symbols[0]["name"], "Cancel(x)");
    client.shutdown().await;
}

#[tokio::test]
async fn the_session_ends_cleanly_only_after_shutdown() {
    use silp_lint::lsp::Ending;
    for (shutdown_first, ending) in [
        (true, Ending::AfterShutdown),
        (false, Ending::WithoutShutdown),
    ] {
        let (ours, theirs) = tokio::io::duplex(1 << 20);
        let (server_read, server_write) = tokio::io::split(theirs);
        let server = tokio::spawn(silp_lint::lsp::serve(server_read, server_write));
        let (reader, writer) = tokio::io::split(ours);
        let mut client = TestClient {
            writer,
            reader: BufReader::new(reader),
            next_id: 1,
            backlog: VecDeque::new(),
        };
        client.initialize().await;
        if shutdown_first {
            client.request("shutdown", Value::Null).await;
        }
        client.notify("exit", Value::Null).await;
        let ended = tokio::time::timeout(TIMEOUT, server)
            .await
            .expect("the server ends");
        assert_eq!(ended.unwrap(), ending);
    }
}

/// The real `silp-lsp` over its standard input and output: its exit status after
/// `input` and an `exit` (the input left open, as some clients do), and its output.
fn silp_lsp_status(input: &[u8]) -> (Option<i32>, String) {
    use std::io::{Read, Write};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_silp-lsp"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start silp-lsp");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input).unwrap();
    let exit = r#"{"jsonrpc":"2.0","method":"exit"}"#;
    write!(stdin, "Content-Length: {}\r\n\r\n{exit}", exit.len()).unwrap();
    stdin.flush().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut output = String::new();
        let _ = stdout.read_to_string(&mut output);
        output
    });
    // A guard against a hang, not a measurement.
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("silp-lsp did not act on `exit`");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    drop(stdin);
    (status.code(), reader.join().unwrap())
}

fn frame(message: Value) -> Vec<u8> {
    let body = message.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

#[test]
fn the_binary_exits_with_status_one_without_shutdown_and_survives_bad_frames() {
    let initialize = frame(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"processId": null, "rootUri": null, "capabilities": {}}}));
    let shutdown = frame(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown"}));
    let (status, _) = silp_lsp_status(&[initialize.clone(), shutdown.clone()].concat());
    assert_eq!(status, Some(0));
    let (status, _) = silp_lsp_status(&initialize);
    assert_eq!(status, Some(1));
    // A declared length of 200 MB, a bad frame, then `shutdown` and `exit`: both
    // are read, and `shutdown` answered.
    let mut input = initialize.clone();
    input.extend(b"Content-Length: 200000000\r\n\r\n{\"jsonrpc\":");
    input.extend(b"Content-Length: 900\r\n\r\n{}");
    input.extend(&shutdown);
    let (status, output) = silp_lsp_status(&input);
    assert_eq!(status, Some(0));
    assert!(output.contains(r#""id":2"#), "{output}");
}

#[tokio::test]
async fn semantic_tokens_stop_at_their_limit_and_a_large_fix_all_is_one_edit() {
    use silp_lint::lsp::requests::semantic_tokens::MAX_SEMANTIC_TOKENS;
    use silp_lint::lsp::to_lsp::MAX_EDITS;
    let mut client = TestClient::start().await;
    client.initialize().await;
    let line = "Cancel(a); Start(b); Route(c); Book(d)\n";
    let per_line =
        silp_lint::lsp::semantic::tokens(&silp_lint::syntax::parse(line, FileKind::Silp), None)
            .len();
    let lines = (MAX_SEMANTIC_TOKENS / per_line + 1).max(MAX_EDITS + 1);
    let text = line.repeat(lines);
    let uri = "file:///w/tokens.silp";
    client.open(uri, "silp", 1, &text).await;
    client.diagnostics(uri, Some(1)).await;
    let tokens = client.tokens(uri).await;
    assert_eq!(tokens.len(), MAX_SEMANTIC_TOKENS);
    let last = tokens.last().unwrap();
    assert_eq!(last.0 as usize, (MAX_SEMANTIC_TOKENS - 1) / per_line);
    // An edit per line: more than a fix-all sends one by one.
    let actions = fix_all_actions(&mut client, uri).await;
    let edits = actions[0]["edit"]["changes"][uri].as_array().unwrap();
    assert_eq!(edits.len(), 1);
    assert_eq!(
        apply_text_edits(&text, edits),
        "cancel(a); start(b); route(c); book(d)\n".repeat(lines)
    );
    client.shutdown().await;
}

#[tokio::test]
async fn a2a_messages_are_linted_highlighted_outlined_hovered_and_completed_inside_their_slip_line()
{
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///w/handoff.a2a.json";
    let extension = silp_lint::syntax::a2a::EXTENSION_URI;
    let line = "SLIP v1 planner reviewer RequestReveiw auth_module";
    let text = format!(
        "{{\"message\": {{\"role\": \"user\",\n  \"parts\": [{{\"text\": \"{line}\"}}, {{\"text\": \"SLIP v1 a b \"}}],\n  \"extensions\": [\"{extension}\"],\n  \"metadata\": {{\"{extension}\": {{\"slipVersion\": \"v1\", \"ucrVersion\": \"1.0.0\", \"encoding\": \"mnemonic\"}}}}}}}}\n"
    );
    // The language id VS Code gives `*.a2a.json` files.
    client.open(uri, "a2a-json", 1, &text).await;
    let second = text.lines().nth(1).unwrap();
    let anchor = second.find("RequestReveiw").unwrap() as u64;
    let diagnostics = client.diagnostics(uri, Some(1)).await;
    let sl601: Vec<&Value> = diagnostics
        .iter()
        .filter(|d| d["code"] == "SL601")
        .collect();
    assert_eq!(sl601.len(), 1, "{diagnostics:?}");
    assert_eq!(
        sl601[0]["range"]["start"],
        json!({"line": 1, "character": anchor})
    );

    let tokens = client.tokens(uri).await;
    let marker = second.find("SLIP").unwrap() as u64;
    assert!(tokens.contains(&(1, marker, 4, KEYWORD)), "{tokens:?}");
    assert!(tokens.contains(&(1, anchor, 13, ENUM_MEMBER)), "{tokens:?}");
    assert!(
        tokens.iter().all(|t| t.0 == 1),
        "only the SLIP line: {tokens:?}"
    );
    assert_eq!(client.symbol_names(uri).await, ["RequestReveiw"]);

    let known = text.replace("RequestReveiw", "RequestReview");
    client.change(uri, 2, json!([{"text": known}])).await;
    let hover = client
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": anchor + 3}}),
        )
        .await;
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("UCR v1.0 core anchor"), "{shown}");

    // Anchors where the anchor goes in the first text part; nothing in a payload
    // token, nor in the second text part, which carries no SLIP line.
    for (character, what) in [
        (second.find("auth_module").unwrap() + 2, "a payload token"),
        (second.rfind("b \"").unwrap() + 2, "the second text part"),
    ] {
        let completion = completion_labels(&mut client, uri, 1, character).await;
        assert!(completion.is_empty(), "{what}: {completion:?}");
    }
    let at_anchor = anchor as usize;
    let completion = completion_labels(&mut client, uri, 1, at_anchor).await;
    assert!(
        completion.contains(&"RequestTask".to_string()),
        "{completion:?}"
    );
    client.shutdown().await;
}

#[tokio::test]
async fn mcp_tool_calls_are_linted_highlighted_hovered_and_completed_inside_their_wrapper() {
    let mut client = TestClient::start().await;
    client.initialize().await;
    let uri = "file:///w/outing.mcp-call.json";
    let text = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\": \"plan\",\n  \"arguments\": {\"silp_encoding\": \"code\", \"silp_payload\": \"begin(hike); notify(team)\", \"city\": \"Paris\"}}}\n";
    client.open(uri, "mcp-call-json", 1, text).await;
    let second = text.lines().nth(1).unwrap();
    let verb = second.find("begin").unwrap() as u64;
    let diagnostics = client.diagnostics(uri, Some(1)).await;
    let codes: Vec<&Value> = diagnostics.iter().map(|d| &d["code"]).collect();
    assert!(codes.contains(&&json!("SL101")), "{diagnostics:?}");
    let sl101 = diagnostics.iter().find(|d| d["code"] == "SL101").unwrap();
    assert_eq!(
        sl101["range"]["start"],
        json!({"line": 1, "character": verb})
    );

    let tokens = client.tokens(uri).await;
    let encoding = second.find("\"code\"").unwrap() as u64;
    assert!(tokens.contains(&(1, verb, 5, FUNCTION)), "{tokens:?}");
    assert!(
        tokens.contains(&(1, encoding, 6, ENUM_MEMBER)),
        "{tokens:?}"
    );
    let hover = client
        .request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": {"line": 1, "character": encoding + 2}}),
        )
        .await;
    let shown = hover["contents"]["value"].as_str().unwrap();
    assert!(shown.contains("code"), "{shown}");

    // After `; ` inside the payload: verbs. In `silp_encoding`'s value: frontends.
    let after_call = second.find("; ").unwrap() + 2;
    let completion = completion_labels(&mut client, uri, 1, after_call).await;
    assert!(completion.contains(&"notify".to_string()), "{completion:?}");
    let in_encoding = encoding as usize + 1;
    let completion = completion_labels(&mut client, uri, 1, in_encoding).await;
    assert!(
        completion.contains(&"llmlingua2".to_string()),
        "{completion:?}"
    );
    let in_city = second.find("Paris").unwrap();
    let completion = completion_labels(&mut client, uri, 1, in_city).await;
    assert!(
        completion.is_empty(),
        "the tool's own parameter: {completion:?}"
    );
    client.shutdown().await;
}

/// The labels of the completion candidates at a position.
async fn completion_labels(
    client: &mut TestClient,
    uri: &str,
    line: usize,
    character: usize,
) -> Vec<String> {
    let result = client
        .request(
            "textDocument/completion",
            json!({"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}),
        )
        .await;
    labels(&result)
}
