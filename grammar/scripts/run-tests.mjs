#!/usr/bin/env node
// Runs the grammar tests in the real TextMate engine (vscode-tmgrammar-test, which
// uses vscode-textmate and vscode-oniguruma) and prints one summary line.
//
// The Markdown fence tests load VS Code's Markdown grammar (from tm-grammars), which
// names ~60 embedded languages that are not installed here; the engine warns about
// each. Those warnings are dropped; a missing grammar of our own fails the run.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const unit = require.resolve('vscode-tmgrammar-test/dist/unit.js');
const ours = ['source.silp', 'source.slip', 'source.silp-json', 'source.mcp-call-json', 'source.a2a-json', 'silp-json.injection', 'markdown.silp.codeblock', 'text.html.markdown'];

const check = spawnSync(process.execPath, [join(here, 'build.mjs'), '--check'], { cwd: here, encoding: 'utf8' });
process.stdout.write(check.stdout);
process.stderr.write(check.stderr);
if (check.status !== 0) process.exit(1);

const run = spawnSync(process.execPath, [unit, '--config', 'package.json', 'test/**/*.test.*'], {
  cwd: here,
  encoding: 'utf8',
  timeout: 300_000,
});
process.stdout.write(run.stdout ?? '');
const plain = (run.stdout ?? '').replace(/\x1b\[[0-9;]*m/g, '');
let missingOwn = false;
for (const line of (run.stderr ?? '').split('\n')) {
  const m = /grammar not found for "([^"]+)"/.exec(line);
  if (m && !ours.includes(m[1])) continue;
  if (m) missingOwn = true;
  if (line.trim() !== '') console.error(line);
}
const passed = (plain.match(/^✓ /gmu) ?? []).length;
const failed = (plain.match(/^✖ /gmu) ?? []).length;
if (run.error) console.error(`vscode-tmgrammar-test did not finish: ${run.error.message}`);
const ok = run.status === 0 && !run.error && !missingOwn && failed === 0 && passed > 0;
console.log(`grammar: ${passed} passed, ${ok ? failed : Math.max(failed, 1)} failed`);
process.exit(ok ? 0 : 1);
