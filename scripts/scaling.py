#!/usr/bin/env python3
"""Scaling table: each hostile input of the hardening issue at 1x, 4x and 16x its
size, run through the release CLI with /usr/bin/time. Prints wall time and peak
RSS per size (the medians of RUNS runs: one run on a noisy machine could flag a
row, or clear it, by chance) and the growth from 1x to 16x, and marks a row whose
time or memory grows much faster than its input (quadratic), or whose largest
input (10 MB or less) takes over 2 s or 512 MiB.

usage: scripts/scaling.py [BIN]   (scripts/bench.sh runs it)
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/release/silp-lint"
FACTORS = (1, 4, 16)
LIMIT_SECONDS, LIMIT_MIB = 2.0, 512
RUNS = 3


def file_of_payloads(n):
    line = "if !rain(t+1): start(hike) else: start(cards@indoor); email(zhangsan)\n"
    return "library.silp", line * n


def jsonl_same_req_id(n):
    return "ids.silp.jsonl", '{"intent":"!START","meta":{"req_id":"a1b2c3d4"}}\n' * n


def long_non_ascii_line(n):
    return "line.silp", "search(" + "q=北京," * n + "x)\n"


def fixes_that_change_meaning(n):
    return "fix.silp.jsonl", '{"intent":"!cancel","act":"x"}\n' * n


def refused_fixes(n):
    # Deleting the soft hyphen would leave its line blank (its payload would
    # disappear): each such fix is refused, beside a fix that applies.
    return "refused.silp", "\u00ad\nCancel(x)\n" * n


def used_suppressions(n):
    return "sup.silp", "# silp-lint: ignore[SL101]\nbegin(x)\n" * n


def one_comment_many_codes(n):
    codes = ",".join(f"SL9{i % 10000:04}" for i in range(n))
    return "codes.silp", f"# silp-lint: ignore[{codes},SL101]\nbegin(x)\n"


def nlip_payloads_on_one_line(n):
    subs = ",".join(
        '{"format":"text","subformat":"silp","content":"start(hike)"}' for _ in range(n)
    )
    return "one.nlip.json", '{"format":"text","subformat":"silp","content":"start(x)","submessages":[' + subs + "]}\n"


def nlip_with_one_escape(n):
    subs = ",\n".join(
        '{"format":"text","subformat":"silp","content":"start(hike)"}' for _ in range(n)
    )
    return "esc.nlip.json", '{"format":"text","subformat":"silp","content":"start(\\u0078)","submessages":[\n' + subs + "]}\n"


def nlip_escaped_findings(n):
    # Each submessage carries an escaped payload with findings (SL001, SL104,
    # SL201), moved to cover its string.
    subs = ",".join(
        '{"format":"text","subformat":"silp","content":"Cancel(x)\\u200b","label":"a"}' for _ in range(n)
    )
    return "findings.nlip.json", '{"format":"text","subformat":"english","content":"hi","submessages":[' + subs + "]}\n"


def mcp_escaped_findings(n):
    # Tool calls whose wrapped payload is written with an escape (SL001, SL104,
    # SL201 on each).
    call = (
        '{"method":"tools/call","params":{"name":"x","arguments":'
        '{"silp_encoding":"code","silp_payload":"Cancel(x)\\u200b"}}}'
    )
    return "findings.mcp-call.json", "[" + ",\n".join([call] * n) + "]\n"


def a2a_escaped_findings(n):
    # A2A messages using the Slipstream extension, each SLIP text written with an
    # escape and a misspelt anchor.
    message = (
        '{"role":"user","parts":[{"text":"SLIP v1 planner executor Reqest\\u200b x"}],'
        '"extensions":["https://github.com/anthony-maio/slipcore/extensions/a2a-slipstream/v1"]}'
    )
    return "findings.a2a.json", "[" + ",\n".join([message] * n) + "]\n"


def slip_payload_tokens(n):
    return "tokens.slip", "SLIP v1 a b RequestTask " + "x " * n + "\n"


def duplicate_keys(n):
    return "dupkeys.silp.jsonl", '{"intent":"!START"' + ',"a":1' * n + "}\n"


def entities_lacking_a_field(n):
    entities = ",".join('{"type":"x","value":"y"}' for _ in range(n))
    return "entities.silp.jsonl", '{"intent":"!START","entities":[' + entities + "]}\n"


def alternatives_lacking_a_field(n):
    alternatives = ",".join('{"intent":"!STOP"}' for _ in range(n))
    return "alts.silp.jsonl", '{"intent":"!START","alternatives":[' + alternatives + "]}\n"


def repeated_arguments(n):
    return "args.silp", "start(" + ",".join("k=v" for _ in range(n)) + ")\n"


def markdown_fences(n):
    return "fences.md", "```silp\nstart(x)\n```\n" * n


def unknown_anchors(n):
    return "anchors.slip", "".join(f"SLIP v1 a b Reqest{i:06}Tsk\n" for i in range(n))


def parentheses(n):
    return "parens.silp", "fetch(" + "(" * n + "\n"


def escaped_zero_width(n):
    return "zw.silp.json", '{"intent":"!START","act":"' + "\\u200b" * n + '"}\n'


def schema_violations(n):
    # Two findings with long messages on every line (SL401, SL301): a file linted
    # in pieces, whose reports past each rule's limit are counted, not held.
    line = '{"action":"!START","entities":{"target":"x"},"meta":{"req_id":"r%07d"}}\n'
    return "violations.silp.jsonl", "".join(line % i for i in range(n))


def escaped_on_every_line(n):
    # A finding in escaped text on every line (SL201), moved to cover its string:
    # kept to the rule's limit like any other finding.
    return "escaped.silp.jsonl", '{"intent":"!START","act":"x\\u200b"}\n' * n


def one_diagnostic_per_line(n):
    return "diag.silp", "Cancel(x)\n" * n


def unformatted_lines(n):
    return "unformatted.silp", "cancel( x )\n" * n


def reports_on_one_line(n):
    return "reports.silp", "Start(y); " * n + "Start(y)\n"


def library_of_files(n):
    # A library of N small files in directories of 100: the per-file cost (walking,
    # opening, the cross-file req_id scan) rather than the bytes.
    payloads = ("if !rain(t+1): start(hike) else: start(cards@indoor)\n", "Cancel(order)\n",
                "translate(text,lang=fr) -> email(boss)\n", '{"intent":"!START","meta":{"req_id":"a1b2c3d4"}}\n')
    files = {}
    for i in range(n):
        name = f"d{i // 100:04}/p{i:06}" + (".silp.jsonl" if i % 4 == 3 else ".silp")
        files[name] = payloads[i % 4] + payloads[(i + 1) % 3]
    return "library", files


def markdown_nesting(n):
    depth = min(n, 100)
    quote = "> " * depth
    block = f"{quote}```silp\n{quote}start(hike)\n{quote}```\n\n"
    return "deep.md", block * (n // depth)


# name, generator, base count, command
CASES = [
    ("a file of N clean payloads", file_of_payloads, 40_000, "check"),
    ("SL303: one req_id, N uses", jsonl_same_req_id, 10_000, "check"),
    ("one long non-ASCII line", long_non_ascii_line, 40_000, "check"),
    ("--fix: N meaning-changing fixes", fixes_that_change_meaning, 10_000, "fix"),
    ("--fix: N fixes on one line", reports_on_one_line, 62_500, "fix"),
    ("--fix: one fix per line, N lines", one_diagnostic_per_line, 62_500, "fix"),
    ("--fix: N refused fixes", refused_fixes, 10_000, "fix"),
    ("fmt: N lines to reformat", unformatted_lines, 52_083, "fmt"),
    ("N used suppressions", used_suppressions, 10_000, "check"),
    ("one comment with N codes", one_comment_many_codes, 10_000, "check"),
    ("NLIP: N payloads on one line", nlip_payloads_on_one_line, 5_000, "check"),
    ("NLIP: one escape, N payloads", nlip_with_one_escape, 5_000, "check"),
    ("NLIP: N escaped payloads with findings", nlip_escaped_findings, 8_125, "check"),
    ("--fix: NLIP, N escaped payloads with findings", nlip_escaped_findings, 8_125, "fix"),
    ("MCP: N escaped payloads with findings", mcp_escaped_findings, 5_300, "check"),
    ("--fix: MCP, N escaped payloads with findings", mcp_escaped_findings, 5_300, "fix"),
    ("A2A: N escaped SLIP texts with findings", a2a_escaped_findings, 3_780, "check"),
    ("--fix: A2A, N escaped SLIP texts with findings", a2a_escaped_findings, 3_780, "fix"),
    ("N unknown anchors", unknown_anchors, 10_000, "check"),
    ("SLIP: N payload tokens on one line", slip_payload_tokens, 312_500, "check"),
    ("fmt: SLIP, N payload tokens on one line", slip_payload_tokens, 312_500, "fmt"),
    ("fetch( + N parentheses", parentheses, 40_000, "check"),
    ("N escaped zero-width spaces", escaped_zero_width, 40_000, "check"),
    ("JSON: N lines with an escaped zero-width space", escaped_on_every_line, 17_000, "check"),
    ("one diagnostic per line, N lines", one_diagnostic_per_line, 40_000, "check"),
    ("IR: N lines of schema violations", schema_violations, 8_500, "check"),
    ("--fix: N lines of schema violations", schema_violations, 8_500, "fix"),
    ("human: one diagnostic per line, N lines", one_diagnostic_per_line, 40_000, "human"),
    ("human: reports on one line of N calls", reports_on_one_line, 10_000, "human"),
    ("Markdown: N quote levels of fences", markdown_nesting, 1_000, "check"),
    ("a library of N files", library_of_files, 2_500, "check"),
    ("JSON: one object, N duplicate keys", duplicate_keys, 104_166, "check"),
    ("IR: N entities lacking a field", entities_lacking_a_field, 25_000, "check"),
    ("IR: N alternatives lacking a field", alternatives_lacking_a_field, 32_900, "check"),
    ("code: one call of N repeated arguments", repeated_arguments, 156_250, "check"),
    ("--fix: one call of N repeated arguments", repeated_arguments, 156_250, "fix"),
    ("Markdown: N fences", markdown_fences, 28_409, "check"),
    ("convert --to json: N keys", None, 5_000, "convert"),
    ("convert --to json: a file of N payloads", file_of_payloads, 8_930, "convert"),
]


def convert_keys(n):
    keys = ",".join(f'"k{i}":"v"' for i in range(n))
    return "keys.silp.jsonl", '{"intent":"!START",' + keys + "}\n"


def write_input(path, text):
    """Writes one file, or a directory of them when `text` maps names to texts."""
    if not isinstance(text, dict):
        with open(path, "w", encoding="utf-8") as out:
            out.write(text)
        return
    shutil.rmtree(path, ignore_errors=True)
    for name, content in text.items():
        file_path = os.path.join(path, name)
        os.makedirs(os.path.dirname(file_path), exist_ok=True)
        with open(file_path, "w", encoding="utf-8") as out:
            out.write(content)


def input_size(text):
    texts = text.values() if isinstance(text, dict) else [text]
    return sum(len(t.encode("utf-8")) for t in texts)


def run(command, path, text):
    """Median wall time and peak RSS of RUNS runs, each on a fresh copy of the
    input (`--fix` and `fmt` rewrite it)."""
    times, mibs = [], []
    for _ in range(RUNS):
        write_input(path, text)
        seconds, mib = run_once(command, path)
        times.append(seconds)
        mibs.append(mib)
    return statistics.median(times), statistics.median(mibs)


def run_once(command, path):
    args = {
        "check": [BIN, "check", path, "--output-format", "json"],
        "human": [BIN, "check", path],
        "fix": [BIN, "check", "--fix", path, "--output-format", "json"],
        "fmt": [BIN, "fmt", path],
        "convert": [BIN, "convert", "--to", "json", path],
    }[command]
    timed = ["/usr/bin/time", "-f", "%e %M"] + args
    done = subprocess.run(timed, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seconds, kib = done.stderr.strip().splitlines()[-1].split()
    return float(seconds), int(kib) / 1024


def main():
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, make, base, command in CASES:
            make = make or convert_keys
            results = []
            for factor in FACTORS:
                file_name, text = make(base * factor)
                path = os.path.join(tmp, file_name)
                seconds, mib = run(command, path, text)
                size = input_size(text)
                results.append((size, seconds, mib))
            rows.append((name, results))
    print(f"medians of {RUNS} runs")
    print(f"{'input':38} {'1x':>22} {'4x':>22} {'16x':>22}  time 16x/1x")
    failed = False
    for name, results in rows:
        cells = [f"{s / 1e6:6.2f} MB {t:5.2f}s {m:5.0f}Mi" for s, t, m in results]
        (s1, t1, _), (s16, t16, m16) = results[0], results[-1]
        growth = t16 / max(t1, 0.01)
        flags = []
        if growth > 2 * s16 / s1 and t16 > 0.2:
            flags.append("FASTER THAN LINEAR")
        # As the table prints it: a row of "10.00 MB" is held to the bound.
        if round(s16 / 1e6, 2) <= 10 and (t16 > LIMIT_SECONDS or m16 > LIMIT_MIB):
            flags.append("OVER BOUND")
        failed |= bool(flags)
        print(f"{name:38} {cells[0]:>22} {cells[1]:>22} {cells[2]:>22}  {growth:5.1f}x {' '.join(flags)}")
    print(json.dumps({"bounds": "2 s and 512 MiB for inputs of 10 MB or less", "runs": RUNS, "ok": not failed}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
