#!/usr/bin/env bash
# Times whole-process runs over a generated 100k-payload corpus against the I/O
# floor (`wc -l` over the same files), and one small file (the pre-commit case).
# Needs python3, hyperfine and GNU time (apt-get install hyperfine time).
# usage: scripts/bench.sh [PAYLOADS]   (default 100000)
set -euo pipefail
cd "$(dirname "$0")/.."
payloads=${1:-100000}
corpus=target/bench-corpus-$payloads
for tool in hyperfine /usr/bin/time python3; do
  command -v "$tool" >/dev/null || { echo "error: $tool is needed (apt-get install hyperfine time)" >&2; exit 2; }
done
cargo build --release --locked --quiet
bin=${CARGO_TARGET_DIR:-target}/release/silp-lint
if [ ! -d "$corpus" ]; then
  python3 scripts/gen_corpus.py --out "$corpus" --payloads "$payloads"
fi
files=$(find "$corpus" -type f | wc -l)
echo "corpus: $corpus ($files files, $(du -sh "$corpus" | cut -f1))"

hyperfine --warmup 2 --runs 10 --ignore-failure --export-json target/bench-check.json \
  -n "wc -l (I/O floor)" "find $corpus -type f -print0 | xargs -0 wc -l > /dev/null" \
  -n "silp-lint check" "$bin check $corpus --output-format concise --quiet > /dev/null" \
  -n "silp-lint fmt --check" "$bin fmt --check $corpus > /dev/null"
python3 - <<'PY'
import json
r = {x["command"]: x["median"] for x in json.load(open("target/bench-check.json"))["results"]}
floor, check, fmt = r["wc -l (I/O floor)"], r["silp-lint check"], r["silp-lint fmt --check"]
print(f"check / floor = {check / floor:.1f}x (target <= 8x); floor {floor*1000:.1f} ms, check {check*1000:.1f} ms")
print(f"fmt --check / check = {fmt / check:.2f}x (target <= 1.5x); fmt --check {fmt*1000:.1f} ms")
PY
/usr/bin/time -f "peak RSS of check: %M KiB (target <= 65536 KiB)" "$bin" check "$corpus" --output-format json > /dev/null || true

# convert: every code-frontend file of the corpus to the JSON frontend, and every
# IR lines file to the code frontend, one process per file as a user would run it.
hyperfine --warmup 1 --runs 5 \
  -n "convert code -> json" "find $corpus/code -name '*.silp' -exec $bin convert --to json {} ';' > /dev/null" \
  -n "convert ir -> code" "find $corpus/ir -name '*.silp.jsonl' -exec $bin convert --to code {} ';' > /dev/null"

small=target/bench-small.silp
printf 'if !rain(t+1): start(hike) else: start(cards@indoor)\ncancel(flight); email(zhangsan)\n' > "$small"
hyperfine --warmup 5 --runs 50 -N "$bin check $small" | grep -E "Time|Range"
