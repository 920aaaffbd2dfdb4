#!/usr/bin/env bash
# Language-server benchmarks (release build).
#
#   scripts/bench-lsp.sh [ARGS]           latency: a one-character didChange on a
#       10,000-line .silp document until its publishDiagnostics, against `silp-lint
#       check` of the same file as a whole process (benches/lsp_latency.rs).
#   scripts/bench-lsp.sh hostile [CASE..] the hostile inputs of issue 13 at 1x, 4x and
#       16x (0.625 MB to 10 MB; BASE=bytes and MULTS=1,4,16 change that): seconds for
#       the request and the peak RSS of a fresh server per run. Fails when a run of at
#       most 10 MB takes over 2 s or 512 MiB, or when 16x the size takes over 32x the
#       time (above a 0.25 s floor). SILP_LSP=path measures another binary.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
if [[ "${1:-}" != hostile ]]; then
    exec cargo bench --manifest-path "$repo/Cargo.toml" --bench lsp_latency "$@"
fi
shift
if [[ -z "${SILP_LSP:-}" ]]; then
    cargo build --quiet --release --manifest-path "$repo/Cargo.toml" --bin silp-lsp
    export SILP_LSP="${CARGO_TARGET_DIR:-$repo/target}/release/silp-lsp"
fi
exec python3 - "$@" <<'PY'
import json, os, queue, subprocess, sys, threading, time

EXE = os.environ["SILP_LSP"]
LIMIT_SECONDS, LIMIT_MIB, BOUNDED_SIZE = 2.0, 512, 10_000_000


class Server:
    """A fresh silp-lsp over pipes; a thread reads its messages."""

    def __init__(self, capabilities=None):
        self.p = subprocess.Popen([EXE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL)
        self.messages = queue.Queue()
        self.next_id = 1
        threading.Thread(target=self._read, daemon=True).start()
        self.request("initialize", {"processId": None, "rootUri": None,
                                    "capabilities": capabilities or {}})
        self.notify("initialized", {})

    def _read(self):
        out = self.p.stdout
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self.messages.put(None)
                    return
                if not line.strip():
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            self.messages.put(json.loads(out.read(length)))

    def send(self, message):
        body = json.dumps(message, ensure_ascii=False).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def notify(self, method, params):
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method, params):
        i = self.next_id
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == i and "method" not in m)["result"]

    def wait(self, accept, timeout=900):
        deadline = time.time() + timeout
        while True:
            message = self.messages.get(timeout=max(0.1, deadline - time.time()))
            if message is None:
                raise RuntimeError("the server closed its output")
            if accept(message):
                return message

    def open(self, uri, text):
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "silp", "version": 1, "text": text}})

    def diagnostics(self, uri, version=1):
        return self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"]["uri"] == uri
                         and m["params"].get("version") == version)["params"]["diagnostics"]

    def stop(self):
        """Shuts the server down; its peak RSS in MiB."""
        with open(f"/proc/{self.p.pid}/status") as status:
            peak = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:")) / 1024
        self.request("shutdown", None)
        self.notify("exit", None)
        self.p.wait(timeout=60)
        return peak


URI = "file:///bench/hostile.silp"


def long_line(size):
    """One line of payloads with non-ASCII: two diagnostics and three tokens each."""
    return "start(é)" + "; Start(y)" * (size // 10) + "\n"


def long_line_read_alone(size):
    """`long_line`, with short lines after it when it alone is 1 MiB or less: the
    server reads a document over 1 MiB a line at a time, so a request about the
    long line parses it alone at every size, rather than reading a tree kept for
    the whole document at the smallest."""
    text = long_line(size)
    return text + "start(x)\n" * max(0, ((1 << 20) + 1 - len(text.encode())) // 9 + 1)


def line_per_problem(size):
    return "Cancel(x)\n" * (size // 10)


def unformatted_lines(size):
    """One payload per line, each with spaces fmt takes out."""
    return "cancel( x )\n" * (size // 12)


def opened(text, capabilities=None):
    server = Server(capabilities)
    server.open(URI, text)
    server.diagnostics(URI)
    return server


def timed(work):
    started = time.time()
    result = work()
    return time.time() - started, result


def answer(text, method, describe, **params):
    """The time to answer `method` on a document opened and linted."""
    server = opened(text)
    seconds, result = timed(lambda: server.request(method, {"textDocument": {"uri": URI}, **params}))
    return server, seconds, describe(result)


def actions_at_cursor(size):
    """The code actions an editor that resolves edits asks for on a cursor move:
    a quick fix and the fix-all, whose edit waits until it is chosen."""
    server = opened(line_per_problem(size), {"textDocument": {"codeAction": {
        "dataSupport": True, "resolveSupport": {"properties": ["edit"]}}}})
    line = {"line": size // 20, "character": 1}
    seconds, result = timed(lambda: server.request("textDocument/codeAction", {
        "textDocument": {"uri": URI}, "range": {"start": line, "end": line},
        "context": {"diagnostics": []}}))
    fix_all = [a for a in result or [] if a["kind"].startswith("source.fixAll")]
    resolved = "deferred" if fix_all and "edit" not in fix_all[0] else "with its edit"
    return server, seconds, f"{len(result or [])} offered, the fix-all {resolved}"


def diagnostics(text):
    """From didOpen to the document's diagnostics."""
    server = Server()
    seconds, result = timed(lambda: (server.open(URI, text), server.diagnostics(URI))[1])
    return server, seconds, f"{len(result)} diagnostics published"


def changes(size):
    """8,000 one-character changes in one didChange on one long non-ASCII line, then
    a hover in another document: how long every request waits behind the changes."""
    server = opened("start(😀); " * (size // 13) + "start(x)\n")
    other = "file:///bench/other.silp"
    server.open(other, "start(x)\n")
    server.diagnostics(other)
    edits = [{"range": {"start": {"line": 0, "character": 11 * i},
                        "end": {"line": 0, "character": 11 * i + 1}}, "text": "S"}
             for i in range(8000)]

    def work():
        server.notify("textDocument/didChange", {
            "textDocument": {"uri": URI, "version": 2}, "contentChanges": edits})
        return server.request("textDocument/hover", {
            "textDocument": {"uri": other}, "position": {"line": 0, "character": 2}})
    seconds, _ = timed(work)
    return server, seconds, "8000 changes, then a hover elsewhere answered"


WHOLE_DOCUMENT = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
CASES = {
    "semantic-tokens": lambda size: answer(
        long_line(size), "textDocument/semanticTokens/full",
        lambda result: f"{len(result['data']) // 5} tokens"),
    "semantic-tokens-per-line": lambda size: answer(
        line_per_problem(size), "textDocument/semanticTokens/full",
        lambda result: f"{len(result['data']) // 5} tokens"),
    "hover-per-line": lambda size: answer(
        line_per_problem(size), "textDocument/hover",
        lambda result: "answered" if result else "no hover",
        position={"line": size // 20, "character": 1}),
    "hover-long-line": lambda size: answer(
        long_line_read_alone(size), "textDocument/hover",
        lambda result: "answered" if result else "no hover",
        position={"line": 0, "character": size // 2}),
    "diagnostics-long-line": lambda size: diagnostics(long_line(size)),
    "diagnostics-per-line": lambda size: diagnostics(line_per_problem(size)),
    "symbols": lambda size: answer(
        line_per_problem(size), "textDocument/documentSymbol",
        lambda result: f"{len(result)} outline entries"),
    "formatting-per-line": lambda size: answer(
        unformatted_lines(size), "textDocument/formatting",
        lambda result: f"{len(result or [])} edits",
        options={"tabSize": 4, "insertSpaces": True}),
    "changes": changes,
    "actions-at-cursor": actions_at_cursor,
    "fix-all": lambda size: answer(
        line_per_problem(size), "textDocument/codeAction",
        lambda result: f"{sum(len(a['edit']['changes'][URI]) for a in result or [])} edits",
        range=WHOLE_DOCUMENT, context={"diagnostics": [], "only": ["source.fixAll"]}),
}

names = sys.argv[1:] or list(CASES)
unknown = [n for n in names if n not in CASES]
if unknown:
    sys.exit(f"unknown case {unknown}; the cases: {' '.join(CASES)}")
base = int(os.environ.get("BASE", 625_000))
multiples = [int(m) for m in os.environ.get("MULTS", "1,4,16").split(",")]
failures = []
print(f"{'case':22} {'size':>8} {'seconds':>8} {'peak RSS':>10}")
for name in names:
    runs = {}
    for multiple in multiples:
        size = base * multiple
        server, seconds, what = CASES[name](size)
        peak = server.stop()
        runs[multiple] = seconds
        print(f"{name:22} {size / 1e6:6.2f}MB {seconds:8.2f} {peak:7.0f} MiB  {what}", flush=True)
        if size <= BOUNDED_SIZE and (seconds > LIMIT_SECONDS or peak > LIMIT_MIB):
            failures.append(f"{name} at {size / 1e6:.2f} MB: {seconds:.2f} s, {peak:.0f} MiB")
    low, high = min(runs), max(runs)
    if high > low and runs[high] > 0.25 and runs[high] > 2 * (high / low) * max(runs[low], 0.01):
        failures.append(f"{name}: {high // low}x the size took {runs[high] / max(runs[low], 0.01):.0f}x the time")
if failures:
    sys.exit("over the bounds (2 s, 512 MiB, linear growth):\n  " + "\n  ".join(failures))
PY
