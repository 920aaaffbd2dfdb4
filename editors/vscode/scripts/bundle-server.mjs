#!/usr/bin/env node
// Copies a built language server into the extension, so the next `vsce package`
// ships it: `npm run bundle-server -- ../../target/release/silp-lsp [platform-arch]`.
// The extension looks for server/<platform>-<arch>/silp-lsp[.exe], then
// server/silp-lsp[.exe], before it searches PATH.
import { chmodSync, copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const [binary, target = `${process.platform}-${process.arch}`] = process.argv.slice(2);
if (!binary || !existsSync(binary)) {
  console.error('usage: npm run bundle-server -- PATH/TO/silp-lsp [platform-arch]   (e.g. linux-x64, win32-x64, darwin-arm64)');
  process.exit(2);
}
const windows = target.startsWith('win32') || binary.toLowerCase().endsWith('.exe');
const dir = join(dirname(fileURLToPath(import.meta.url)), '..', 'server', target);
mkdirSync(dir, { recursive: true });
const dest = join(dir, windows ? 'silp-lsp.exe' : 'silp-lsp');
copyFileSync(binary, dest);
if (!windows) chmodSync(dest, 0o755);
console.log(`bundled ${basename(binary)} as ${dest}`);
