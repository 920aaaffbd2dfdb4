//! Latency of the language server against the CLI, on a 10,000-line `.silp` file:
//! the time from a one-character `didChange` to the client holding its diagnostics
//! (the server started once, as an editor keeps it), against `silp-lint check` of the
//! same file as a whole process. Target: the first at most 1/20 of the second.
//!
//! Two clients: one that takes diagnostics pushed (`publishDiagnostics`, the whole
//! list after every change), and one that pulls them as VS Code does
//! (`textDocument/diagnostic` after each change, with the last report's id, answered
//! "unchanged" when the change left the diagnostics as they were).
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
    /// When the first line of the last message read arrived: the server's answer
    /// began, before the client read its body and parsed it.
    arrived: Instant,
}

impl Server {
    fn send(&mut self, message: Value) {
        let body = message.to_string();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        self.stdin.flush().expect("flush");
    }

    fn read(&mut self) -> Value {
        let mut length = 0;
        let mut first = true;
        loop {
            let mut line = String::new();
            if self.stdout.read_line(&mut line).expect("read") == 0 {
                panic!("the server closed its output");
            }
            if std::mem::take(&mut first) {
                self.arrived = Instant::now();
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

    /// Pulls the document's diagnostics after `previous`: the new result id, the
    /// number of diagnostics (`None` when unchanged).
    fn pull(&mut self, id: i64, uri: &str, previous: Option<&str>) -> (String, Option<usize>) {
        self.send(
            json!({"jsonrpc": "2.0", "id": id, "method": "textDocument/diagnostic",
            "params": {"textDocument": {"uri": uri}, "previousResultId": previous}}),
        );
        let answer = self.wait_for(|m| m["id"] == id && m.get("method").is_none());
        let report = &answer["result"];
        let result_id = report["resultId"]
            .as_str()
            .expect("a result id")
            .to_string();
        (result_id, report["items"].as_array().map(Vec::len))
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

/// How a client receives diagnostics.
#[derive(Clone, Copy, PartialEq)]
enum Delivery {
    Push,
    Pull,
}

/// What one client measured.
struct Latency {
    median: Duration,
    p90: Duration,
    /// Median time until the answer began to arrive: the server's part, without
    /// the client's reading and parsing of it.
    answered: Duration,
    /// Diagnostics of the opened document.
    found: usize,
    /// Pulls answered "unchanged".
    unchanged: usize,
}

/// Median and p90 latency from a one-character change to its diagnostics.
fn server_latency(path: &std::path::Path, text: &str, delivery: Delivery) -> Latency {
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
        arrived: Instant::now(),
    };
    let capabilities = match delivery {
        Delivery::Push => json!({}),
        Delivery::Pull => json!({"textDocument": {"diagnostic": {}}}),
    };
    server.send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"processId": null, "rootUri": null, "capabilities": capabilities}}));
    server.wait_for(|m| m["id"] == 1);
    server.send(json!({"jsonrpc": "2.0", "method": "initialized", "params": {}}));
    server.send(
        json!({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {
        "textDocument": {"uri": uri, "languageId": "silp", "version": 1, "text": text}}}),
    );
    let mut request_id = 10;
    let (mut result_id, found) = match delivery {
        Delivery::Push => (String::new(), server.diagnostics_for(1)),
        Delivery::Pull => {
            let (result_id, found) = server.pull(request_id, &uri, None);
            (result_id, found.expect("a full first report"))
        }
    };
    let mut unchanged = 0;

    let mut latencies = Vec::with_capacity(CHANGES);
    let mut answered = Vec::with_capacity(CHANGES);
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
        match delivery {
            Delivery::Push => {
                server.diagnostics_for(version);
            }
            Delivery::Pull => {
                request_id += 1;
                let (id, items) = server.pull(request_id, &uri, Some(&result_id));
                result_id = id;
                unchanged += usize::from(items.is_none());
            }
        }
        latencies.push(started.elapsed());
        answered.push(server.arrived - started);
    }
    server.send(json!({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": null}));
    server.wait_for(|m| m["id"] == 2);
    server.send(json!({"jsonrpc": "2.0", "method": "exit", "params": null}));
    let _ = server.child.wait();
    Latency {
        p90: percentile(&mut latencies, 90),
        median: median(&mut latencies),
        answered: median(&mut answered),
        found,
        unchanged,
    }
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
        let pushed = server_latency(&path, &text, Delivery::Push);
        let pulled = server_latency(&path, &text, Delivery::Pull);
        println!(
            "{name} document: {LINES} lines, {} bytes, {} diagnostics",
            text.len(),
            pushed.found
        );
        println!(
            "  didChange -> publishDiagnostics (pushed): median {:.2} ms, p90 {:.2} ms \
             ({CHANGES} changes; the publish began to arrive after {:.2} ms)",
            ms(pushed.median),
            ms(pushed.p90),
            ms(pushed.answered)
        );
        println!(
            "  didChange -> textDocument/diagnostic answered (pulled): median {:.2} ms, p90 {:.2} ms \
             ({CHANGES} changes, {} answered unchanged; the answer began to arrive after {:.2} ms)",
            ms(pulled.median),
            ms(pulled.p90),
            pulled.unchanged,
            ms(pulled.answered)
        );
        for format in ["human", "concise"] {
            let check = check_time(&path, format);
            for (client, latency) in [("pushed", &pushed), ("pulled", &pulled)] {
                let ratio = check.as_secs_f64() / latency.median.as_secs_f64().max(1e-9);
                println!(
                    "  silp-lint check --output-format {format} (whole process): median {:.2} ms; \
                     the server ({client}) takes 1/{ratio:.1} of it (target 1/20 or less: {})",
                    ms(check),
                    if ratio >= 20.0 { "met" } else { "not met" }
                );
            }
        }
    }
}
