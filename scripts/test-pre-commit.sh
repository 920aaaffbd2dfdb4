#!/usr/bin/env bash
# End-to-end test of silp-lint's pre-commit hooks with the real pre-commit (4.7,
# from PyPI), in a throwaway git repository:
#
# 1-2. .pre-commit-hooks.yaml (`language: rust`): `pre-commit try-repo <this
#    checkout> silp-lint` on a clean tree (--all-files: must pass, although vendor/
#    holds a faulty file that silp-lint.toml excludes, so --force-exclude must work)
#    and on a commit that stages a faulty payload (the staged files, as at `git
#    commit`: must fail and show SL101).
# 3. The Python-based setup of docs/pre-commit-and-ci.md: a `language: python`
#    hook whose environment installs silp-lint from a wheel built here (pip gets
#    only a local folder: PIP_FIND_LINKS, PIP_NO_INDEX), run with no cargo on
#    PATH, on the same two trees.
#
# try-repo tests HEAD of this checkout plus its uncommitted changes to tracked files
# (it commits them in a shadow copy); untracked files are not part of it. Every
# try-repo call installs the hook in a fresh throwaway store, i.e. runs
# `cargo install --bins --path .` on a copy of this repository: a release build.
# PRE_COMMIT_HOME cannot cache that, so cargo's target directory is kept under
# target/ instead (see install-tests-lib.sh): the first run builds every
# dependency (minutes on 2 cores), later runs only recompile silp-lint itself.
#
# Runnable repeatedly from anywhere; installs its tools into target/ on first use.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
STARTED=$SECONDS
. scripts/install-tests-lib.sh
HOOK_TARGET="$CARGO_TARGET_DIR"
# try-repo itself keeps nothing there; set so that no state of this test lands in
# ~/.cache/pre-commit.
export PRE_COMMIT_HOME="$INSTALL_TESTS_TARGET/pre-commit-home"

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
install_tools
PRE_COMMIT="$TOOLS/pre-commit"
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
LOG="$WORK/pre-commit.log"
# Variables for pre-commit's environment (env NAME=VALUE ...), none at first.
PRE_COMMIT_ENV=()

# Runs pre-commit in the throwaway repository with its output in $LOG, printing a
# line every 30 s while it runs (the hook's cargo build says nothing until it ends).
# Sets STATUS.
run_pre_commit() {
  local started=$SECONDS ticks=0 known built fingerprints="$HOOK_TARGET/release/.fingerprint"
  touch "$WORK/started"
  (cd "$REPO" && exec env ${PRE_COMMIT_ENV[@]+"${PRE_COMMIT_ENV[@]}"} "$PRE_COMMIT" "$@") >"$LOG" 2>&1 &
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

# What a user sees on the clean tree: the hook ran and passed, vendor/ excluded.
check_clean_tree_passed() {
  local problems=()
  [ "$STATUS" -eq 0 ] || problems+=("exit status $STATUS, expected 0")
  grep -Eq '^silp-lint\.+Passed$' "$LOG" || problems+=("no 'silp-lint....Passed' line: the hook did not run on the files")
  if grep -q 'SL101' "$LOG"; then problems+=("SL101 reported: vendor/ was not excluded (--force-exclude)"); fi
  check "$1: clean tree passes, vendor/ excluded by silp-lint.toml" ${problems[@]+"${problems[@]}"}
}

# What a user sees when committing prompts/broken.silp: the hook fails on it.
check_faulty_commit_failed() {
  local problems=()
  [ "$STATUS" -ne 0 ] || problems+=("exit status 0, expected a failure")
  grep -Eq '^silp-lint\.+Failed$' "$LOG" || problems+=("no 'silp-lint....Failed' line")
  grep -q 'SL101' "$LOG" || problems+=("SL101 not in the output")
  grep -q 'prompts/broken.silp' "$LOG" || problems+=("prompts/broken.silp not named in the output")
  if grep -q 'vendor/legacy.silp' "$LOG"; then problems+=("vendor/legacy.silp reported although excluded"); fi
  check "$1: faulty commit fails with SL101 in the output" ${problems[@]+"${problems[@]}"}
}

stage_broken_payload() {
  printf '# `begin` is not a SILP verb\nbegin(hike)\n' >"$REPO/prompts/broken.silp"
  git_ add prompts/broken.silp
}

say "== 1/4 language: rust, clean tree (try-repo silp-lint --all-files): must pass; the first run builds the hook"
run_pre_commit try-repo "$ROOT" silp-lint --all-files
check_clean_tree_passed "language: rust"

say "== 2/4 language: rust, commit staging a faulty payload (try-repo silp-lint on the staged files): must fail"
stage_broken_payload
run_pre_commit try-repo "$ROOT" silp-lint
check_faulty_commit_failed "language: rust"

# --- the Python-based hook: silp-lint from a wheel, no Rust ------------------------------
say "== building the wheel that the Python-based hook installs"
WHEELS="$WORK/wheels"
build_wheel "$WHEELS" >/dev/null
# pip builds pre-commit's placeholder package for a local hook with setuptools; with
# the index off, that has to be in the folder too.
"$TOOLS/python" -m pip download --quiet --disable-pip-version-check --no-deps -d "$WHEELS" 'setuptools==80.*'
say "   pip sees only $WHEELS: $(cd "$WHEELS" && echo *)"
git_ rm --quiet --cached prompts/broken.silp
rm "$REPO/prompts/broken.silp"
# The hook exactly as docs/pre-commit-and-ci.md shows it, pinned to this version.
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
python3 - docs/pre-commit-and-ci.md "$version" >"$REPO/.pre-commit-config.yaml" <<'PY'
import re, sys
page, version = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2]
blocks = [b for b in re.findall(r"^```yaml\n(.*?)^```", page, re.S | re.M) if "language: python" in b]
assert len(blocks) == 1, f"{sys.argv[1]}: expected one yaml block with a language: python hook"
print(re.sub(r"silp-lint==[0-9.]+", f"silp-lint=={version}", blocks[0]), end="")
PY
git_ add .pre-commit-config.yaml
git_ commit --quiet --no-verify -m "silp-lint as a Python-based hook"
# A store of its own, so the hook's environment is installed from this wheel now.
PRE_COMMIT_ENV=(PIP_FIND_LINKS="$WHEELS" PIP_NO_INDEX=1 PATH="$(path_without_cargo)" PRE_COMMIT_HOME="$WORK/pre-commit-home")
if env "${PRE_COMMIT_ENV[@]}" sh -c 'command -v cargo' >/dev/null; then
  say "error: cargo is still on the hook's PATH" >&2
  exit 2
fi

say "== 3/4 language: python, silp-lint from the wheel, no cargo on PATH, clean tree (run --all-files): must pass"
run_pre_commit run --all-files
check_clean_tree_passed "language: python"

say "== 4/4 language: python, commit staging a faulty payload (run on the staged files): must fail"
stage_broken_payload
run_pre_commit run
check_faulty_commit_failed "language: python"

say "pre-commit e2e: $PASSED passed, $FAILED failed ($(elapsed "$STARTED"))"
[ "$FAILED" -eq 0 ]
