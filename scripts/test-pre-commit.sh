#!/usr/bin/env bash
# End-to-end test of .pre-commit-hooks.yaml with the real pre-commit (4.7, from PyPI).
#
# In a throwaway git repository it runs `pre-commit try-repo <this checkout> silp-lint`
# twice: on a clean tree (--all-files: must pass, although vendor/ holds a faulty
# file that silp-lint.toml excludes, so --force-exclude must work) and on a commit
# that stages a faulty payload (the staged files, as at `git commit`: must fail and
# show SL101).
#
# try-repo tests HEAD of this checkout plus its uncommitted changes to tracked files
# (it commits them in a shadow copy); untracked files are not part of it. Every
# try-repo call installs the hook in a fresh throwaway store, i.e. runs
# `cargo install --bins --path .` on a copy of this repository: a release build.
# PRE_COMMIT_HOME cannot cache that, so cargo's target directory is kept under
# target/ instead (CARGO_TARGET_DIR is set for the build): the first run builds every
# dependency (minutes on 2 cores), later runs only recompile silp-lint itself.
#
# Runnable repeatedly from anywhere; installs pre-commit into target/pre-commit-venv
# on first use only.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
STARTED=$SECONDS

TARGET="$ROOT/target"
VENV="$TARGET/pre-commit-venv"
# try-repo itself keeps nothing there; set so that no state of this test lands in
# ~/.cache/pre-commit.
export PRE_COMMIT_HOME="$TARGET/pre-commit-home"
HOOK_TARGET="${CARGO_TARGET_DIR:-$TARGET}/pre-commit-hook"
export CARGO_TARGET_DIR="$HOOK_TARGET"
# The test checks what the hook does, not how fast the binary is: its release
# builds skip the fat LTO of the release profile, minutes on 2 cores each.
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
# pre-commit's own colours would break the assertions on its output.
export PRE_COMMIT_COLOR=never NO_COLOR=1

say() { printf '%s\n' "$*"; }
elapsed() { local s=$((SECONDS - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

if ! command -v cargo >/dev/null; then
  say "error: cargo is not on PATH: the language: rust hooks build with the system cargo" >&2
  exit 2
fi

# --- the checkout under test ---------------------------------------------------------
if ! git -C "$ROOT" ls-files --error-unmatch .pre-commit-hooks.yaml >/dev/null 2>&1; then
  say "error: .pre-commit-hooks.yaml is not tracked by git; try-repo only sees tracked" >&2
  say "       files (HEAD plus uncommitted changes): git add .pre-commit-hooks.yaml" >&2
  exit 2
fi
untracked=$(git -C "$ROOT" ls-files --others --exclude-standard -- src Cargo.toml Cargo.lock data .pre-commit-hooks.yaml)
if [ -n "$untracked" ]; then
  say "note: untracked files are not part of what try-repo builds:"
  printf '  %s\n' $untracked
fi

# --- pre-commit itself -----------------------------------------------------------------
if [ ! -x "$VENV/bin/pre-commit" ]; then
  say "== installing pre-commit 4.7 into ${VENV#"$ROOT"/}"
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check 'pre-commit==4.7.*'
fi
PRE_COMMIT="$VENV/bin/pre-commit"
say "== $("$PRE_COMMIT" --version), $(cargo --version)"
say "   hook build cache: $HOOK_TARGET"

# --- the throwaway repository ------------------------------------------------------------
WORK=$(mktemp -d "${TMPDIR:-/tmp}/silp-lint-pre-commit.XXXXXX")
cleanup() { rm -rf "$WORK"; }
trap cleanup EXIT
REPO="$WORK/repo"
mkdir -p "$REPO/prompts" "$REPO/docs" "$REPO/vendor"
git_() { git -C "$REPO" -c user.name=silp-lint-e2e -c user.email=e2e@localhost -c core.hooksPath=/dev/null "$@"; }
git_ init --quiet

cat >"$REPO/silp-lint.toml" <<'EOF'
exclude = ["vendor/**"]
EOF
cat >"$REPO/prompts/travel.silp" <<'EOF'
# trip planning
if !rain(t+1): start(hike) else: start(cards@indoor)
EOF
cat >"$REPO/prompts/handoffs.slip" <<'EOF'
SLIP v1 planner executor RequestTask implement_auth_module
SLIP v1 reviewer author EvalApprove "looks good to me"
EOF
cat >"$REPO/docs/guide.md" <<'EOF'
# Guide

```silp
start(hike)
```
EOF
# Faulty (SL101), but excluded by silp-lint.toml: pre-commit still passes it to the
# hook by name, and --force-exclude must drop it.
cat >"$REPO/vendor/legacy.silp" <<'EOF'
begin(hike)
EOF
git_ add --all
git_ commit --quiet --no-verify -m "clean prompt library"

# --- running pre-commit ----------------------------------------------------------------
PASSED=0
FAILED=0
LOG="$WORK/pre-commit.log"

# Runs pre-commit in the throwaway repository with its output in $LOG, printing a
# line every 30 s while it runs (the hook's cargo build says nothing until it ends).
# Sets STATUS.
run_pre_commit() {
  local started=$SECONDS ticks=0 known built fingerprints="$HOOK_TARGET/release/.fingerprint"
  touch "$WORK/started"
  (cd "$REPO" && exec "$PRE_COMMIT" "$@") >"$LOG" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    sleep 1
    ticks=$((ticks + 1))
    if [ $((ticks % 30)) -eq 0 ]; then
      # cargo makes a fingerprint folder per unit up front and writes its .json
      # when the unit is built (silp-lint itself, the last one, is rebuilt per run).
      known=$(find "$fingerprints" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
      built=$(find "$fingerprints" -mindepth 2 -maxdepth 2 -name '*.json' -newer "$WORK/started" 2>/dev/null | wc -l)
      say "   ... $(elapsed "$started"): pre-commit still running (cargo install of the hook: $built units compiled in this run, $known in the cache)"
    fi
  done
  if wait "$pid"; then STATUS=0; else STATUS=$?; fi
  sed 's/^/   | /' "$LOG"
  say "   pre-commit exited with $STATUS after $(elapsed "$started")"
}

check() {
  local name=$1
  shift
  local problems=("$@")
  if [ ${#problems[@]} -eq 0 ]; then
    PASSED=$((PASSED + 1))
    say "ok: $name"
  else
    FAILED=$((FAILED + 1))
    say "FAILED: $name"
    printf '  - %s\n' "${problems[@]}"
  fi
}

say "== 1/2 clean tree (try-repo silp-lint --all-files): must pass; the first run builds the hook"
run_pre_commit try-repo "$ROOT" silp-lint --all-files
problems=()
[ "$STATUS" -eq 0 ] || problems+=("exit status $STATUS, expected 0")
grep -Eq '^silp-lint\.+Passed$' "$LOG" || problems+=("no 'silp-lint....Passed' line: the hook did not run on the files")
if grep -q 'SL101' "$LOG"; then problems+=("SL101 reported: vendor/ was not excluded (--force-exclude)"); fi
check "clean tree passes, vendor/ excluded by silp-lint.toml" ${problems[@]+"${problems[@]}"}

say "== 2/2 commit staging a faulty payload (try-repo silp-lint on the staged files): must fail"
cat >"$REPO/prompts/broken.silp" <<'EOF'
# `begin` is not a SILP verb
begin(hike)
EOF
git_ add prompts/broken.silp
run_pre_commit try-repo "$ROOT" silp-lint
problems=()
[ "$STATUS" -ne 0 ] || problems+=("exit status 0, expected a failure")
grep -Eq '^silp-lint\.+Failed$' "$LOG" || problems+=("no 'silp-lint....Failed' line")
grep -q 'SL101' "$LOG" || problems+=("SL101 not in the output")
grep -q 'prompts/broken.silp' "$LOG" || problems+=("prompts/broken.silp not named in the output")
if grep -q 'vendor/legacy.silp' "$LOG"; then problems+=("vendor/legacy.silp reported although excluded"); fi
check "faulty commit fails with SL101 in the output" ${problems[@]+"${problems[@]}"}

say "pre-commit e2e: $PASSED passed, $FAILED failed ($(elapsed "$STARTED"))"
[ "$FAILED" -eq 0 ]
