#!/usr/bin/env node
// Prints the scopes the real engine (vscode-textmate + vscode-oniguruma) gives each
// token of a file: `node scripts/tokens.mjs FILE [SCOPE]`. The scope defaults to the
// one package.json's contributions give the file's extension. A development aid for
// writing the assertions in test/.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const { loadConfiguration, createRegistry } = require('vscode-tmgrammar-test/dist/common/index.js');
const tm = require('vscode-textmate');

const [file, scopeArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/tokens.mjs FILE [SCOPE]');
  process.exit(2);
}
// Grammar paths in package.json are resolved against its folder.
const here = join(dirname(fileURLToPath(import.meta.url)), '..');
const { grammars } = loadConfiguration(join(here, 'package.json'), undefined, []);
const name = basename(file);
const byExtension = [
  ['.silp.jsonl', 'source.silp-json'],
  ['.silp.json', 'source.silp-json'],
  ['.silp', 'source.silp'],
  ['.slip', 'source.slip'],
  ['.md', 'text.html.markdown'],
];
const scope = scopeArg ?? byExtension.find(([ext]) => name.endsWith(ext))?.[1];
if (!scope) {
  console.error(`no scope for ${name}; pass one`);
  process.exit(2);
}
const registry = createRegistry(grammars);
const grammar = await registry.loadGrammar(scope);
let state = tm.INITIAL;
for (const line of readFileSync(file, 'utf8').split(/\r?\n/)) {
  const result = grammar.tokenizeLine(line, state);
  console.log(JSON.stringify(line));
  for (const t of result.tokens) {
    const text = line.substring(t.startIndex, t.endIndex);
    console.log(`  ${t.startIndex}-${t.endIndex} ${JSON.stringify(text)}  ${t.scopes.slice(1).join(' ')}`);
  }
  state = result.ruleStack;
}
