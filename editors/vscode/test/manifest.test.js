// Every name the manifest uses exists: files, language ids, scopes, activation
// events, commands, settings; the grammars are the ones grammar/ generates.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const root = path.join(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const contributes = manifest.contributes;
const languageIds = contributes.languages.map((l) => l.id);
const BUILT_IN_LANGUAGES = ['markdown'];
const readJson = (rel) => JSON.parse(fs.readFileSync(path.join(root, rel), 'utf8'));

test('the languages and their file extensions', () => {
  const byId = Object.fromEntries(contributes.languages.map((l) => [l.id, l.extensions]));
  assert.deepEqual(byId, {
    silp: ['.silp'],
    slip: ['.slip'],
    'silp-json': ['.silp.json', '.silp.jsonl'],
    'mcp-call-json': ['.mcp-call.json'],
    'a2a-json': ['.a2a.json'],
  });
  for (const language of contributes.languages) {
    assert.ok(fs.existsSync(path.join(root, language.configuration)), language.configuration);
    const config = readJson(language.configuration);
    assert.ok(Array.isArray(config.brackets), `${language.configuration} has brackets`);
    assert.ok(Array.isArray(config.autoClosingPairs), `${language.configuration} has autoClosingPairs`);
  }
  assert.equal(readJson('language-configuration.json').comments.lineComment, '#');
  assert.equal(readJson('slip.language-configuration.json').comments.lineComment, '#');
});

test('grammar paths exist, parse, and declare the scope the manifest names', () => {
  const scopes = new Set();
  for (const grammar of contributes.grammars) {
    const file = path.join(root, grammar.path);
    assert.ok(fs.existsSync(file), `${grammar.path} exists`);
    const json = readJson(grammar.path);
    assert.equal(json.scopeName, grammar.scopeName, grammar.path);
    if (grammar.language !== undefined) assert.ok(languageIds.includes(grammar.language), grammar.language);
    scopes.add(grammar.scopeName);
  }
  for (const scope of ['source.silp', 'source.slip', 'source.silp-json', 'source.mcp-call-json', 'source.a2a-json', 'silp-json.injection', 'markdown.silp.codeblock']) {
    assert.ok(scopes.has(scope), scope);
  }
  for (const grammar of contributes.grammars.filter((g) => g.injectTo)) {
    for (const target of grammar.injectTo) {
      assert.ok(scopes.has(target) || target === 'text.html.markdown', `${grammar.scopeName} injects into ${target}`);
    }
    assert.ok(readJson(grammar.path).injectionSelector, `${grammar.path} has an injectionSelector`);
  }
  for (const grammar of contributes.grammars.filter((g) => g.embeddedLanguages)) {
    const text = fs.readFileSync(path.join(root, grammar.path), 'utf8');
    for (const [scope, language] of Object.entries(grammar.embeddedLanguages)) {
      assert.ok(languageIds.includes(language), language);
      assert.ok(text.includes(scope), `${grammar.path} produces ${scope}`);
    }
  }
});

test('the shipped grammars are the ones grammar/ generates', { skip: !fs.existsSync(path.join(root, '..', '..', 'grammar')) }, () => {
  for (const grammar of contributes.grammars) {
    const shipped = fs.readFileSync(path.join(root, grammar.path), 'utf8');
    const source = fs.readFileSync(path.join(root, '..', '..', 'grammar', path.basename(grammar.path)), 'utf8');
    assert.equal(shipped, source, `${grammar.path} differs from grammar/ (run \`node grammar/build.mjs\`)`);
  }
});

test('activation events name contributed languages and commands', () => {
  const commands = contributes.commands.map((c) => c.command);
  assert.ok(manifest.activationEvents.length > 0);
  for (const event of manifest.activationEvents) {
    const [kind, name] = event.split(':');
    if (kind === 'onLanguage') {
      assert.ok(languageIds.includes(name) || BUILT_IN_LANGUAGES.includes(name), event);
    } else if (kind === 'onCommand') {
      assert.ok(commands.includes(name), event);
    } else {
      assert.fail(`unexpected activation event ${event}`);
    }
  }
  for (const id of languageIds) assert.ok(manifest.activationEvents.includes(`onLanguage:${id}`), id);
});

test('the entry point and the command are built', { skip: !fs.existsSync(path.join(root, 'out')) && 'run `npm run compile` first' }, () => {
  const main = path.join(root, manifest.main);
  assert.ok(fs.existsSync(main), `${manifest.main} exists`);
  const code = fs.readFileSync(main, 'utf8');
  for (const { command } of contributes.commands) assert.ok(code.includes(`'${command}'`), `${command} is registered`);
});

test('settings: server path, trace, rule selection, Markdown switch', () => {
  const props = contributes.configuration.properties;
  assert.deepEqual(Object.keys(props).sort(), [
    'silp.draft',
    'silp.lint.ignore',
    'silp.lint.select',
    'silp.markdown.enable',
    'silp.server.path',
    'silp.trace.server',
  ]);
  assert.equal(props['silp.server.path'].type, 'string');
  // A workspace must not choose the program the extension runs unless it is trusted.
  assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ['silp.server.path']);
  assert.deepEqual(props['silp.trace.server'].enum, ['off', 'messages', 'verbose']);
  assert.equal(props['silp.lint.select'].type, 'array');
  assert.equal(props['silp.lint.ignore'].type, 'array');
  assert.deepEqual(props['silp.draft'].enum, ['00', '01', '02']);
  assert.equal(props['silp.draft'].default, '02');
});

test('semantic token scopes cover the server legend and map onto grammar scopes', () => {
  const legend = ['keyword', 'function', 'parameter', 'variable', 'string', 'number', 'operator', 'comment', 'enumMember', 'namespace', 'property'];
  const keys = [...legend, 'function.defaultLibrary', 'function.deprecated'];
  const grammarText = contributes.grammars.map((g) => fs.readFileSync(path.join(root, g.path), 'utf8')).join('\n');
  const produced = new Set(grammarText.match(/"name": "[^"]+"/g).flatMap((m) => m.slice(9, -1).split(' ')));
  const family = (scope) => scope.replace(/\.(silp|slip|json)$/, '');
  for (const entry of contributes.semanticTokenScopes) {
    assert.ok(languageIds.includes(entry.language) || BUILT_IN_LANGUAGES.includes(entry.language), entry.language);
    assert.deepEqual(Object.keys(entry.scopes).sort(), [...keys].sort(), entry.language);
    for (const [token, scopes] of Object.entries(entry.scopes)) {
      for (const scope of scopes) {
        assert.ok(
          [...produced].some((p) => p === scope || p.startsWith(`${family(scope)}.`)),
          `${entry.language} ${token} -> ${scope} is a scope the grammars produce`,
        );
      }
    }
  }
});
