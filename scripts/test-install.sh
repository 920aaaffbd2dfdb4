#!/usr/bin/env bash
# Tests the install paths of docs/install.md with the real tools, each in a fresh
# folder outside the repository:
#
# 1. The wheel: maturin builds it; its metadata names the project, its licence and
#    the README; it carries silp-lint and silp-lsp.
# 2. The wheel in a fresh virtual environment (pip with the index off, no cargo on
#    PATH): `silp-lint check` on the bundled examples (exit 1 for the planted
#    defects of faulty/, 0 for clean/), and `silp-lsp` through one
#    initialize/shutdown/exit round over stdio.
# 3. From the checkout: `pip install .`, `pipx install .`, `uv tool install .` and
#    `cargo install --locked --path .` each put both commands on PATH.
#
# All builds share one cargo target directory (install-tests-lib.sh), so only the
# first compiles; the others take seconds. pip, pipx and uv fetch maturin from PyPI
# to build. Runnable repeatedly; installs its tools into target/ on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
STARTED=$SECONDS
. scripts/install-tests-lib.sh
install_tools

WORK=$(mktemp -d "${TMPDIR:-/tmp}/silp-lint-install.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
NO_CARGO_PATH=$(path_without_cargo)

# check_commands NAME BIN_DIR: both commands are in BIN_DIR and work from there.
check_commands() {
  local name=$1 bin=$2 problems=() out command
  for command in silp-lint silp-lsp; do
    [ -x "$bin/$command" ] || problems+=("no executable $command in $bin")
  done
  if [ ${#problems[@]} -eq 0 ]; then
    out=$("$bin/silp-lint" --version 2>&1) || problems+=("silp-lint --version failed: $out")
    out=$(python3 scripts/lsp-initialize.py "$bin/silp-lsp" 2>&1) || problems+=("silp-lsp: $out")
  fi
  check "$name puts silp-lint and silp-lsp on PATH" ${problems[@]+"${problems[@]}"}
}

say "== 1/3 the wheel"
started=$SECONDS
wheel=$(build_wheel "$WORK/wheels")
say "   $(basename "$wheel"): $(wc -c <"$wheel") bytes, built in $(elapsed "$started")"
problems=()
out=$(python3 - "$wheel" <<'PY' 2>&1
import sys, zipfile
wheel = zipfile.ZipFile(sys.argv[1])
names = wheel.namelist()
info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
head, _, description = wheel.read(f"{info}/METADATA").decode().partition("\n\n")
fields = {}
for line in head.splitlines():
    key, _, value = line.partition(": ")
    fields.setdefault(key, []).append(value)
expect = {
    "Name": ["silp-lint"],
    "License-Expression": ["MIT OR Apache-2.0"],
    "License-File": ["LICENSE-MIT", "LICENSE-APACHE"],
    "Description-Content-Type": ["text/markdown; charset=UTF-8; variant=GFM"],
}
for key, value in expect.items():
    if sorted(fields.get(key, [])) != sorted(value):
        print(f"METADATA {key}: {fields.get(key)}, expected {value}")
readme = open("README.md", encoding="utf-8").read()
if description.strip() != readme.strip():
    print("the long description is not README.md")
for name in ["LICENSE-MIT", "LICENSE-APACHE"]:
    if f"{info}/licenses/{name}" not in names:
        print(f"{name} is not in the wheel")
for script in ["silp-lint", "silp-lsp"]:
    path = f"{info.replace('.dist-info', '.data')}/scripts/{script}"
    if path not in names:
        print(f"{path} is not in the wheel")
    elif (wheel.getinfo(path).external_attr >> 16) & 0o111 == 0:
        print(f"{path} is not executable")
PY
)
[ -z "$out" ] || problems+=("$out")
check "the wheel carries both binaries; its metadata names silp-lint, MIT OR Apache-2.0 and README.md" \
  ${problems[@]+"${problems[@]}"}

say "== 2/3 the wheel in a fresh virtual environment, no cargo on PATH"
python3 -m venv "$WORK/venv"
PATH="$NO_CARGO_PATH" PIP_NO_INDEX=1 "$WORK/venv/bin/pip" install --quiet --disable-pip-version-check "$wheel"
check_commands "pip install silp_lint-*.whl" "$WORK/venv/bin"
# As a user with the environment activated runs them: by name, from the repository root.
in_venv() { PATH="$WORK/venv/bin:$NO_CARGO_PATH" "$@"; }
problems=()
[ "$(in_venv sh -c 'command -v silp-lint')" = "$WORK/venv/bin/silp-lint" ] || problems+=("silp-lint on PATH is not the venv's")
status=0
all=$(in_venv silp-lint check --output-format concise examples/prompt-library) || status=$?
[ "$status" -eq 1 ] || problems+=("check of the examples exited $status, expected 1")
for file in examples/prompt-library/faulty/*; do
  grep -q "^$file:" <<<"$all" || problems+=("nothing reported in $file")
done
status=0
clean=$(in_venv silp-lint check examples/prompt-library/clean) || status=$?
[ "$status" -eq 0 ] && [ "$clean" = "All checks passed!" ] || problems+=("check of clean/ exited $status: $clean")
check "silp-lint check examples/prompt-library: $(wc -l <<<"$all") diagnostics, every faulty/ file (exit 1); clean/ passes (exit 0)" \
  ${problems[@]+"${problems[@]}"}
problems=()
out=$(in_venv python3 scripts/lsp-initialize.py silp-lsp 2>&1) || problems+=("$out")
check "silp-lsp answers initialize over stdio and shuts down: $out" ${problems[@]+"${problems[@]}"}

say "== 3/3 installs from the checkout (one shared build)"
python3 -m venv "$WORK/pip-venv"
"$WORK/pip-venv/bin/pip" install --quiet --disable-pip-version-check "$ROOT"
check_commands "pip install ." "$WORK/pip-venv/bin"

PIPX_HOME="$WORK/pipx" PIPX_BIN_DIR="$WORK/pipx-bin" "$TOOLS/pipx" install --quiet "$ROOT" >/dev/null
check_commands "pipx install ." "$WORK/pipx-bin"

UV_TOOL_DIR="$WORK/uv" UV_TOOL_BIN_DIR="$WORK/uv-bin" UV_CACHE_DIR="$WORK/uv-cache" \
  "$TOOLS/uv" tool install --quiet "$ROOT"
check_commands "uv tool install ." "$WORK/uv-bin"

cargo install --quiet --locked --path "$ROOT" --root "$WORK/cargo"
check_commands "cargo install --locked --path ." "$WORK/cargo/bin"

say "install: $PASSED passed, $FAILED failed ($(elapsed "$STARTED"))"
[ "$FAILED" -eq 0 ]
