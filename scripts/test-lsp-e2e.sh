#!/usr/bin/env bash
# End-to-end test of the language server with a real LSP client (pytest-lsp):
# builds `silp-lsp` (debug), installs pytest-lsp into a venv under the target
# directory on first use, and runs tests/e2e.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
target="${CARGO_TARGET_DIR:-$repo/target}"
venv="$target/e2e-venv"
cargo build --quiet --manifest-path "$repo/Cargo.toml" --bin silp-lsp
if ! "$venv/bin/python" -c "import pytest_lsp" 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check pytest-lsp==1.0.1
fi
export PYTHONDONTWRITEBYTECODE=1
export SILP_LSP="$target/debug/silp-lsp"
cd "$repo/tests/e2e"
exec "$venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
