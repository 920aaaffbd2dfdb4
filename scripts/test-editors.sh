#!/usr/bin/env bash
# Tests the editor support from a clean checkout; run from the repository root:
#
#   bash scripts/test-editors.sh
#
# 1. grammar/: npm ci, then the grammars are regenerated-and-compared and tested in the
#    real TextMate engine (vscode-tmgrammar-test: vscode-textmate + vscode-oniguruma).
# 2. editors/vscode/: npm ci, npm run compile (tsc, strict), node --test (server lookup,
#    settings, manifest names, activation against a stand-in vscode API), vsce package,
#    then the .vsix is unpacked outside the repository and hand-written payloads are
#    tokenised with the grammars it ships. Then scripts/package-vsix.sh packages the
#    .vsix for this platform with a release silp-lsp inside, and the same check
#    finds that server unpacked, executable, picked by the extension with no setting
#    and nothing on PATH, and answering `initialize` over stdio.
# 3. editors/neovim/: a headless Neovim run against a stand-in server (when nvim exists).
# 4. editors/helix/languages.toml parses and names its server (when python3 exists).
#
# Needs node >= 20, the npm registry, cargo and python3; nothing else is downloaded.
# Safe to re-run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

step="setup"
declare -a summary=()
passed=0
failed=0
trap 'echo; echo "test-editors: FAILED during: ${step}" >&2; echo "editors: ${passed} passed, $((failed + 1)) failed"' ERR

note() { summary+=("$1"); }
npm_ci() { npm ci --no-audit --no-fund --loglevel=error; }

echo "== grammar/ =="
step="grammar: npm ci"
(cd grammar && npm_ci)
step="grammar: tests in the TextMate engine"
grammar_out="$(cd grammar && npm test --silent 2>&1)" || { echo "$grammar_out"; false; }
echo "$grammar_out"
grammar_files="$(sed -n 's/^grammar: \([0-9]*\) passed, 0 failed$/\1/p' <<<"$grammar_out")"
[[ -n "$grammar_files" && "$grammar_files" -gt 0 ]]
passed=$((passed + grammar_files))
note "grammar tests (vscode-tmgrammar-test): ${grammar_files} files passed"

echo "== editors/vscode/ =="
cd editors/vscode
step="vscode: npm ci"
npm_ci
step="vscode: npm run compile"
npm run --silent compile
step="vscode: node --test"
node_out="$(node --test test/ 2>&1)" || { echo "$node_out"; false; }
node_pass="$(sed -n 's/^# pass \([0-9]*\)$/\1/p' <<<"$node_out")"
node_fail="$(sed -n 's/^# fail \([0-9]*\)$/\1/p' <<<"$node_out")"
grep -E '^(not )?ok ' <<<"$node_out" || true
[[ "$node_fail" == "0" && "$node_pass" -gt 0 ]]
passed=$((passed + node_pass))
note "client tests (node --test): ${node_pass} passed"

step="vscode: vsce package"
version="$(node -p "require('./package.json').version")"
name="$(node -p "require('./package.json').name")"
vsix="${name}-${version}.vsix"
rm -f "$vsix"
vsce_out="$(npx --no-install vsce package --allow-missing-repository --out "$vsix" 2>&1)" || { echo "$vsce_out"; false; }
grep -Ev '^\s+(│|├|└)' <<<"$vsce_out" || true
[[ -f "$vsix" ]]
step="vscode: .vsix contents"
listing="$(node -e '
  const fs = require("fs");
  // Central directory of a zip: the file names, without an unzip dependency.
  const b = fs.readFileSync(process.argv[1]);
  const end = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let p = b.readUInt32LE(end + 16);
  const names = [];
  for (let i = 0, n = b.readUInt16LE(end + 10); i < n; i++) {
    const len = b.readUInt16LE(p + 28), extra = b.readUInt16LE(p + 30), comment = b.readUInt16LE(p + 32);
    names.push(b.toString("utf8", p + 46, p + 46 + len));
    p += 46 + len + extra + comment;
  }
  console.log(names.join("\n"));
' "$vsix")"
for required in extension/package.json extension/out/extension.js extension/out/serverPath.js \
  extension/language-configuration.json extension/syntaxes/silp.tmLanguage.json \
  extension/syntaxes/slip.tmLanguage.json extension/syntaxes/silp-json.tmLanguage.json \
  extension/syntaxes/silp-json.injection.tmLanguage.json extension/syntaxes/markdown.injection.tmLanguage.json \
  extension/node_modules/vscode-languageclient/package.json; do
  grep -qx "$required" <<<"$listing" || { echo "missing from ${vsix}: ${required}" >&2; false; }
done
if grep -Eq '^extension/(src|test)/|\.ts$' <<<"$listing"; then
  echo "${vsix} ships sources or tests" >&2
  false
fi
passed=$((passed + 1))
note "package: editors/vscode/${vsix} ($(wc -c <"$vsix") bytes, $(wc -l <<<"$listing") files)"
step="vscode: hand-written payloads tokenised with the grammars from the .vsix"
vsix_out="$(node scripts/check-vsix.mjs "$vsix" 2>&1)" || { echo "$vsix_out"; false; }
echo "$vsix_out"
vsix_pass="$(sed -n 's/^vsix: \([0-9]*\) passed, 0 failed$/\1/p' <<<"$vsix_out")"
[[ -n "$vsix_pass" && "$vsix_pass" -gt 0 ]]
passed=$((passed + vsix_pass))
note "unpacked .vsix, hand-written payloads outside the repository: ${vsix_pass} checks passed (grammars, no server)"
cd "$root"

step="vscode: the .vsix for this platform, with its server (scripts/package-vsix.sh)"
# The server's release build is shared with the other install tests.
platform_vsix="$(. scripts/install-tests-lib.sh && scripts/package-vsix.sh | tail -n 1)"
vsix_out="$(node editors/vscode/scripts/check-vsix.mjs "$platform_vsix" 2>&1)" || { echo "$vsix_out"; false; }
grep -Ev '^✓ ' <<<"$vsix_out"
vsix_pass="$(sed -n 's/^vsix: \([0-9]*\) passed, 0 failed$/\1/p' <<<"$vsix_out")"
[[ -n "$vsix_pass" && "$vsix_pass" -gt 0 ]]
passed=$((passed + vsix_pass))
note "package: ${platform_vsix} ($(wc -c <"$platform_vsix") bytes): ${vsix_pass} checks passed (grammars, the bundled server answers initialize)"

echo "== editors/neovim/ =="
step="neovim: headless check"
if command -v nvim >/dev/null 2>&1; then
  scratch="$(mktemp -d)"
  SILP_TEST_DIR="$scratch" SILP_FAKE_SERVER="$root/editors/neovim/test/fake-server.js" \
    timeout 120 nvim --headless -u NONE -i NONE -c "luafile editors/neovim/test/check.lua" </dev/null
  echo
  rm -rf "$scratch"
  passed=$((passed + 1))
  note "neovim ($(nvim --version | head -n 1)): filetypes, attach, init options, missing-server warning"
else
  note "neovim: skipped (nvim not installed)"
fi

echo "== editors/helix/ =="
step="helix: languages.toml"
if command -v python3 >/dev/null 2>&1 && python3 -c 'import tomllib' 2>/dev/null; then
  python3 - <<'PY'
import tomllib
with open("editors/helix/languages.toml", "rb") as f:
    config = tomllib.load(f)
servers = config["language-server"]
assert servers["silp-lsp"]["command"] == "silp-lsp", servers
languages = {l["name"]: l for l in config["language"]}
for name in ("silp", "slip", "silp-json"):
    assert languages[name]["language-servers"] == ["silp-lsp"], name
assert languages["silp"]["file-types"] == ["silp"]
assert languages["slip"]["file-types"] == ["slip"]
assert {"glob": "*.silp.json"} in languages["silp-json"]["file-types"]
print("languages.toml: ok")
PY
  passed=$((passed + 1))
  note "helix: languages.toml parses; silp, slip, silp-json use silp-lsp"
else
  note "helix: skipped (python3 with tomllib not installed)"
fi

trap - ERR
echo
echo "== summary =="
for line in "${summary[@]}"; do echo "  ${line}"; done
echo "editors: ${passed} passed, ${failed} failed"
