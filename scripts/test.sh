#!/usr/bin/env bash
# The whole test suite: what the README's test command and CI run.
set -euo pipefail
cd "$(dirname "$0")/.."

# The SILP reference suite is third-party data that stays outside the repository
# (tests/reference_suite/ finds it); without it, its tests are skipped, each with a
# line saying so, and this line says it once more at the end.
suite_note=""
if [ -z "${SILP_CONFORMANCE_DIR:-}" ] && [ ! -f ../shared/conformance/reference-suite/expected.jsonl ]; then
  suite_note="note: the SILP reference suite is not at ../shared/conformance: its tests are skipped; set SILP_CONFORMANCE_DIR to the folder holding reference-suite/ to run them"
  echo "$suite_note"
fi

echo "== cargo test"
cargo test --locked

for extra in scripts/test-install.sh scripts/test-editors.sh scripts/test-lsp-e2e.sh scripts/test-pre-commit.sh; do
  if [ -x "$extra" ]; then
    echo "== $extra"
    "$extra"
  fi
done
echo "== all test suites passed"
if [ -n "$suite_note" ]; then echo "$suite_note"; fi
