#!/usr/bin/env bash
# Packages the VS Code extension for one platform with the language server inside:
# editors/vscode/silp-lint-<target>-<version>.vsix. The extension starts the server
# it carries before it looks at PATH, so installing this one file
# (`code --install-extension FILE.vsix`) gives diagnostics with no other setup.
#
# usage: scripts/package-vsix.sh [TARGET [SERVER]]
#   TARGET  a vsce target: linux-x64, linux-arm64, linux-armhf, darwin-x64,
#           darwin-arm64, win32-x64, win32-arm64; by default this machine's
#   SERVER  a silp-lsp binary built for TARGET; by default the release build of
#           this checkout (`cargo build --release`), for this machine only
# The last line printed is the path of the .vsix. Needs cargo, node >= 20 and npm.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
host=$(node -p 'process.platform + "-" + process.arch')
target=${1:-$host}
server=${2:-}
case "$target" in
  # The extension looks for server/<process.platform>-<arch>: on Alpine that is
  # linux-<arch>, not the target's name, and the web has no processes.
  alpine-* | web)
    echo "error: $target is not supported: the extension would not find its server there" >&2
    exit 2
    ;;
esac
if [ -z "$server" ]; then
  if [ "$target" != "$host" ]; then
    echo "error: this machine builds a server for $host, not $target: pass one built for $target" >&2
    echo "usage: scripts/package-vsix.sh [TARGET [SERVER]]" >&2
    exit 2
  fi
  cargo build --release --locked --bin silp-lsp
  server="${CARGO_TARGET_DIR:-target}/release/silp-lsp"
fi
server=$(realpath "$server")

cd editors/vscode
[ -d node_modules ] || npm ci --no-audit --no-fund --loglevel=error
# server/ only stages this package: a later universal `vsce package` must not ship it.
rm -rf server
trap 'rm -rf "$root/editors/vscode/server"' EXIT
node scripts/bundle-server.mjs "$server" "$target" >&2
version=$(node -p "require('./package.json').version")
vsix="silp-lint-$target-$version.vsix"
rm -f "$vsix"
npx --no-install vsce package --allow-missing-repository --target "$target" --out "$vsix" >&2
echo "editors/vscode/$vsix"
