#!/usr/bin/env bash
# Language-server latency benchmark: a one-character didChange on a 10,000-line
# .silp document until its publishDiagnostics, against `silp-lint check` of the same
# file as a whole process (release build). See benches/lsp_latency.rs.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
exec cargo bench --manifest-path "$repo/Cargo.toml" --bench lsp_latency "$@"
