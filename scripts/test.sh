#!/usr/bin/env bash
# The whole test suite: what the README's test command and CI run.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo test"
cargo test --locked

for extra in scripts/test-editors.sh scripts/test-lsp-e2e.sh scripts/test-pre-commit.sh; do
  if [ -x "$extra" ]; then
    echo "== $extra"
    "$extra"
  fi
done
echo "== all test suites passed"
