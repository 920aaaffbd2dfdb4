#!/usr/bin/env bash
# Whole-process benchmarks of the release binaries against the I/O floor (`wc -l`
# over the same files), with the targets of the speed work printed beside each
# figure. Benchmarks, not tests: the exit status is 0 unless something fails to run.
#
#   1. the 100k-payload corpus (500 files, about 15 MB, scripts/gen_corpus.py):
#      check with the default human output, concise, JSON and SARIF, and fmt --check
#   2. threads: check with 1 and 2 threads, against what two independent busy
#      processes get on this machine (two 1-thread runs at once), measured together
#   3. peak RSS on the 100k corpus and on the 1M-payload corpus (about 150 MB), and
#      the 1M run's time against its floor
#   4. one small file (the pre-commit case), beside `taplo lint` when taplo is on PATH
#   5. the language server: a keystroke's re-lint in a 10,000-line file against a
#      CLI run on it (scripts/bench-lsp.sh)
#   6. scaling tables: each hostile input at 1x, 4x and 16x, in the CLI
#      (scripts/scaling.py) and in the server (scripts/bench-lsp.sh hostile)
#   7. convert, one process per file as a user would run it
#   8. instructions executed by check (callgrind, when valgrind is installed): the
#      one figure this machine's timing noise does not move, to compare two builds
#
# Sections 1 and 2 alternate their commands round by round (scripts/interleave.py),
# so each ratio compares runs made at the same moments of a drifting machine.
#
# Needs python3, hyperfine and GNU time (apt-get install hyperfine time); section 8
# needs valgrind.
# usage: scripts/bench.sh [PAYLOADS]   (default 100000; BIG=0 skips the 1M corpus,
#        SECTIONS="1 3" runs only those sections)
set -euo pipefail
cd "$(dirname "$0")/.."
payloads=${1:-100000}
big=${BIG:-1000000}
sections=" ${SECTIONS:-1 2 3 4 5 6 7 8} "
for tool in hyperfine /usr/bin/time python3; do
  command -v "$tool" >/dev/null || { echo "error: $tool is needed (apt-get install hyperfine time)" >&2; exit 2; }
done
cargo build --release --locked --quiet
bin=${CARGO_TARGET_DIR:-target}/release/silp-lint
wants() { [[ "$sections" == *" $1 "* ]]; }

corpus_of() {
  local dir=target/bench-corpus-$1
  [ -d "$dir" ] || python3 scripts/gen_corpus.py --out "$dir" --payloads "$1" >&2
  echo "$dir"
}
peak_rss() { # command... -> peak RSS in MiB of one run
  /usr/bin/time -f "%M" "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.1f", $1 / 1024}'
}

corpus=$(corpus_of "$payloads")
floor="find $corpus -type f -print0 | xargs -0 wc -l > /dev/null"
echo "corpus: $corpus ($(find "$corpus" -type f | wc -l) files, $(du -sh "$corpus" | cut -f1))"

if wants 1; then
  echo "== 1. the corpus against the I/O floor"
  python3 scripts/interleave.py target/bench-check.json 10 \
    floor "$floor" \
    human "$bin check $corpus > /dev/null" \
    concise "$bin check $corpus --output-format concise > /dev/null" \
    json "$bin check $corpus --output-format json > /dev/null" \
    sarif "$bin check $corpus --output-format sarif > /dev/null" \
    fmt "$bin fmt --check $corpus > /dev/null"
  python3 - <<'PY'
import json
r = {x["command"]: x["median"] for x in json.load(open("target/bench-check.json"))["results"]}
floor = r["floor"]
print(f"floor (wc -l): {floor * 1000:.1f} ms")
for name in ("human", "concise", "json", "sarif"):
    print(f"check, {name} output: {r[name] * 1000:.1f} ms = {r[name] / floor:.1f}x the floor (target <= 4x)")
print(f"fmt --check: {r['fmt'] * 1000:.1f} ms = {r['fmt'] / r['concise']:.2f}x check (target <= 1.5x)")
PY
fi

if wants 2; then
  echo "== 2. threads"
  one="RAYON_NUM_THREADS=1 $bin check $corpus --output-format concise > /dev/null"
  python3 scripts/interleave.py target/bench-threads.json 10 \
    one "$one" \
    two "RAYON_NUM_THREADS=2 $bin check $corpus --output-format concise > /dev/null" \
    pair "($one) & ($one) & wait"
  python3 - <<'PY'
import json
r = {x["command"]: x["median"] for x in json.load(open("target/bench-threads.json"))["results"]}
ours = r["one"] / r["two"]
machine = 2 * r["one"] / r["pair"]
print(f"1 thread {r['one'] * 1000:.1f} ms, 2 threads {r['two'] * 1000:.1f} ms: {ours:.2f}x speed-up")
print(f"two 1-thread processes at once: {r['pair'] * 1000:.1f} ms, so this machine gives {machine:.2f}x")
print(f"check gets {ours / machine * 100:.0f}% of what two busy processes get (target >= 90%)")
PY
fi

if wants 3; then
  echo "== 3. peak memory"
  echo "peak RSS, $payloads payloads: human $(peak_rss "$bin" check "$corpus") MiB," \
    "concise $(peak_rss "$bin" check "$corpus" --output-format concise) MiB," \
    "json $(peak_rss "$bin" check "$corpus" --output-format json) MiB," \
    "sarif $(peak_rss "$bin" check "$corpus" --output-format sarif) MiB (target <= 32 MiB)"
  if [ "$big" != 0 ]; then
    large=$(corpus_of "$big")
    echo "corpus: $large ($(find "$large" -type f | wc -l) files, $(du -sh "$large" | cut -f1))"
    echo "peak RSS, $big payloads: concise $(peak_rss "$bin" check "$large" --output-format concise) MiB," \
      "human $(peak_rss "$bin" check "$large") MiB (target <= 80 MiB)"
    hyperfine --warmup 1 --runs 5 --ignore-failure --export-json target/bench-large.json \
      -n floor "find $large -type f -print0 | xargs -0 wc -l > /dev/null" \
      -n concise "$bin check $large --output-format concise > /dev/null"
    python3 - "$payloads" <<'PY'
import json, sys
r = {x["command"]: x["median"] for x in json.load(open("target/bench-large.json"))["results"]}
print(f"1M payloads: check {r['concise'] * 1000:.0f} ms = {r['concise'] / r['floor']:.1f}x its floor ({r['floor'] * 1000:.0f} ms)")
try:
    small = {x["command"]: x["median"] for x in json.load(open("target/bench-check.json"))["results"]}["concise"]
    print(f"1M / {sys.argv[1]} payloads: {r['concise'] / small:.1f}x the time (linear: 10x)")
except (OSError, KeyError):
    pass
PY
  fi
fi

if wants 4; then
  echo "== 4. one small file (pre-commit)"
  small=target/bench-small.silp
  printf 'if !rain(t+1): start(hike) else: start(cards@indoor)\ncancel(flight); email(zhangsan)\n' > "$small"
  toml=target/bench-small.toml
  printf '[tool]\nname = "x"\nlist = [1, 2, 3]\n' > "$toml"
  if command -v taplo >/dev/null; then
    hyperfine --warmup 5 --runs 50 -N -n "silp-lint check" "$bin check $small" -n "taplo lint" "taplo lint $toml" | grep -E "Time|Range|±|faster"
  else
    hyperfine --warmup 5 --runs 50 -N -n "silp-lint check" "$bin check $small" | grep -E "Time|Range"
    echo "(taplo is not on PATH; taplo lint of a small TOML file measured about 4 ms on this kind of machine)"
  fi
fi

if wants 5; then
  echo "== 5. the language server after a keystroke"
  scripts/bench-lsp.sh
fi

if wants 6; then
  echo "== 6. scaling: each hostile input at 1x, 4x and 16x"
  python3 scripts/scaling.py "$bin" || echo "scaling: a row above is flagged"
  scripts/bench-lsp.sh hostile || echo "server scaling: a row above is flagged"
fi

if wants 7; then
  echo "== 7. convert, one process per file"
  hyperfine --warmup 1 --runs 5 \
    -n "convert code -> json" "find $corpus/code -name '*.silp' -exec $bin convert --to json {} ';' > /dev/null" \
    -n "convert ir -> code" "find $corpus/ir -name '*.silp.jsonl' -exec $bin convert --to code {} ';' > /dev/null"
fi

if wants 8; then
  echo "== 8. instructions executed (callgrind, one thread): the figure noise does not move"
  if command -v valgrind >/dev/null; then
    for format in concise human; do
      # check exits with 1 when it reports diagnostics, and valgrind with it.
      count=$( (RAYON_NUM_THREADS=1 valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$bin" check "$corpus" --output-format "$format" 2>&1 >/dev/null || true) |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p')
      echo "check, $format output: $count instructions"
    done
  else
    echo "(valgrind is not on PATH: apt-get install valgrind)"
  fi
fi
