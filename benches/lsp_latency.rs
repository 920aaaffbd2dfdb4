//! Latency of the language server against the CLI, on a 10,000-line `.silp` file:
//! the time from a one-character `didChange` to the `publishDiagnostics` for it
//! (the server started once, as an editor keeps it), against `silp-lint check` of the
//! same file as a whole process. Target: the first at most 1/20 of the second.
//!
//! Run with `cargo bench --bench lsp_latency` (or `scripts/bench-lsp.sh`).

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

const LINES: usize = 10_000;
const CHANGES: usize = 60;
const CHECK_RUNS: usize = 20;

/// A prompt library: conditions, chains, alternatives and comments. `noisy` writes
/// every fifth line with `->` sequencing (SL505, 2,000 diagnostics); otherwise the
/// only defects are a miscased verb every hundred lines (100 diagnostics).
fn document(noisy: bool) -> String {
    let mut text = String::new();
    for i in 0..LINES {
        let line = match i % 5 {
            _ if i % 100 == 99 => format!("Cancel(order{i})"),
            0 => format!(
                "if !rain(t+{}): start(hike{i}) else: start(cards@indoor)",
                i % 9 + 1
            ),
            1 => format!("book(hotel{i},loc=Beijing); notify(user{i})"),
            2 => format!("if budget<=500 and loc(me,北京,t+1): search(flights{i})"),
            3 => format!("# prompt {i}: 旅行 planning"),
            _ if noisy => format!("translate(text{i},lang=fr) -> email(boss)"),
            _ => format!("translate(text{i},lang=fr); email(boss)"),
        };
        text.push_str(&line);
        text.push('\n');
    }
    text
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Server {
    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn read(&mut self) -> Value {
        let mut length = 0;
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line).expect("read") == 0 {
                panic!("the server closed its output");
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(value) = line.strip_prefix("Content-Length: ") {
                length = value.parse().expect("length");
            }
        }
        let mut body = vec![0; length];
        self.stdout.read_exact(&mut body).expect("body");
        serde_json::from_slice(&body).expect("json")
    }

    fn wait_for(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self.read();
            if pred(&message) {
                return message;
            }
        }
    }

    fn diagnostics_for(&mut self, version: i64) -> usize {
        let message = self.wait_for(|m| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["version"] == version
        });
        message["params"]["diagnostics"]
            .as_array()
            .map_or(0, Vec::len)
    }
}

fn median(samples: &mut [Duration]) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn percentile(samples: &mut [Duration], p: usize) -> Duration {
    samples.sort();
    samples[(samples.len() * p / 100).min(samples.len() - 1)]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Median and p90 latency from a one-character change to its diagnostics.
fn server_latency(path: &std::path::Path, text: &str) -> (Duration, Duration, usize) {
    let uri = format!("file://{}", path.display());
    let mut child = Command::new(env!("CARGO_BIN_EXE_silp-lsp"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start silp-lsp");
    let stdin = child.stdin.take().expect("stdin");
    let stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut server = Server {
        child,
        stdin,
        stdout,
    };
    server.send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"processId": null, "rootUri": null, "capabilities": {}}}));
    server.wait_for(|m| m["id"] == 1);
    server.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    server.send(
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "silp", "version": 1, "text": text}}}),
    );
    let found = server.diagnostics_for(1);

    let mut latencies = Vec::with_capacity(CHANGES);
    for i in 0..CHANGES {
        let version = i as i64 + 2;
        let line = (i * 7919) % LINES;
        // Insert a character, then delete it again on the next round.
        let change = if i % 2 == 0 {
            json!({"range": {"start": {"line": line, "character": 0}, "end": {"line": line, "character": 0}}, "text": " "})
        } else {
            let previous = ((i - 1) * 7919) % LINES;
            json!({"range": {"start": {"line": previous, "character": 0}, "end": {"line": previous, "character": 1}}, "text": ""})
        };
        let started = Instant::now();
        server.send(
            json!({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}}),
        );
        server.diagnostics_for(version);
        latencies.push(started.elapsed());
    }
    server.send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null}));
    server.wait_for(|m| m["id"] == 2);
    server.send(json!({"jsonrpc": "2.0", "method": "exit", "params": null}));
    let _ = server.child.wait();
    let p90 = percentile(&mut latencies, 90);
    (median(&mut latencies), p90, found)
}

/// Median time of `silp-lint check` over the file as a whole process.
fn check_time(path: &std::path::Path, format: &str) -> Duration {
    let mut checks = Vec::with_capacity(CHECK_RUNS);
    for _ in 0..CHECK_RUNS {
        let started = Instant::now();
        let status = Command::new(env!("CARGO_BIN_EXE_silp-lint"))
            .args(["check", "--output-format", format])
            .arg(path)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("run silp-lint check");
        checks.push(started.elapsed());
        assert!(
            status.code().is_some_and(|c| c <= 1),
            "silp-lint check: {status}"
        );
    }
    median(&mut checks)
}

fn main() {
    // `cargo bench` passes `--bench`; arguments are ignored.
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, noisy) in [("mostly clean", false), ("noisy", true)] {
        let path = dir
            .path()
            .join(format!("library-{}.silp", name.replace(' ', "-")));
        let text = document(noisy);
        std::fs::write(&path, &text).expect("write the document");
        let (lsp, lsp90, found) = server_latency(&path, &text);
        println!(
            "{name} document: {LINES} lines, {} bytes, {found} diagnostics",
            text.len()
        );
        println!(
            "  didChange -> publishDiagnostics: median {:.2} ms, p90 {:.2} ms ({CHANGES} changes)",
            ms(lsp),
            ms(lsp90)
        );
        for format in ["human", "concise"] {
            let check = check_time(&path, format);
            let ratio = check.as_secs_f64() / lsp.as_secs_f64().max(1e-9);
            println!(
                "  silp-lint check --output-format {format} (whole process): median {:.2} ms; \
                 the server takes 1/{ratio:.1} of it (target 1/20 or less: {})",
                ms(check),
                if ratio >= 20.0 { "met" } else { "not met" }
            );
        }
    }
}
