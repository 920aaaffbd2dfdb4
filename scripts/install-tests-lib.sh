# Sourced from the repository root by the tests of silp-lint's install paths:
# scripts/test-install.sh (the wheel, pip, pipx, uv, cargo install),
# scripts/test-pre-commit.sh (the hooks) and scripts/test-editors.sh (the .vsix).
#
# Their release builds check what an install does, not how fast the binary runs:
# they skip the fat LTO of the release profile (minutes on 2 cores for each
# binary) and share one target directory, so the dependencies are compiled once
# and the wheel, `pip install .`, `cargo install` and the .vsix reuse one build.
INSTALL_TESTS_TARGET="${CARGO_TARGET_DIR:-$PWD/target}/install-tests"
export CARGO_TARGET_DIR="$INSTALL_TESTS_TARGET"
export CARGO_PROFILE_RELEASE_LTO=false CARGO_PROFILE_RELEASE_CODEGEN_UNITS=16
# Tool output is asserted on: no colours.
export NO_COLOR=1 PRE_COMMIT_COLOR=never

say() { printf '%s\n' "$*"; }
elapsed() { local s=$((SECONDS - $1)); printf '%dm%02ds' $((s / 60)) $((s % 60)); }

# The Python tools the tests drive, pinned, in a venv made on first use.
TOOLS="$INSTALL_TESTS_TARGET/tools-venv/bin"
install_tools() {
  if [ ! -x "$TOOLS/uv" ]; then
    say "== installing pre-commit, maturin, pipx and uv into ${TOOLS%/bin}"
    python3 -m venv "${TOOLS%/bin}"
    "$TOOLS/python" -m pip install --quiet --disable-pip-version-check \
      'pre-commit==4.7.*' 'maturin==1.16.*' 'pipx==1.18.*' 'uv==0.13.*'
  fi
}

# Builds the wheel (both binaries) into folder $1 with maturin; prints its path.
build_wheel() {
  "$TOOLS/maturin" build --release --locked --quiet --out "$1" >&2
  ls "$1"/silp_lint-*.whl
}

# PATH without any folder that holds cargo: what a machine without Rust has.
path_without_cargo() {
  local dir kept=()
  IFS=: read -ra dirs <<<"$PATH"
  for dir in "${dirs[@]}"; do
    [ -x "$dir/cargo" ] || kept+=("$dir")
  done
  (IFS=:; printf '%s' "${kept[*]}")
}

PASSED=0
FAILED=0
# check NAME [PROBLEM...]: passes when no problem is given.
check() {
  local name=$1
  shift
  if [ $# -eq 0 ]; then
    PASSED=$((PASSED + 1))
    say "ok: $name"
  else
    FAILED=$((FAILED + 1))
    say "FAILED: $name"
    printf '  - %s\n' "$@"
  fi
}
