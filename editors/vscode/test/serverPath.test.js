// The server is looked up in the order the README promises: the setting, then the
// bundled binary, then PATH (`silp-lsp`, then `silp-lint lsp`); a miss names the setting.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { resolveServer, expandVariables, argsFor, bundledCandidates, searchPath } = require('../out/serverPath.js');

/** Options for a fake file system holding exactly `files` (absolute paths). */
function options(files, overrides = {}) {
  const set = new Set(files);
  return {
    configuredPath: '',
    extensionPath: '/ext',
    platform: 'linux',
    arch: 'x64',
    env: { PATH: '/usr/local/bin:/usr/bin', HOME: '/home/me' },
    workspaceFolder: '/work/project',
    isExecutable: (file) => set.has(file),
    ...overrides,
  };
}

const everywhere = [
  '/opt/silp/silp-lsp',
  '/ext/server/linux-x64/silp-lsp',
  '/ext/server/silp-lsp',
  '/usr/local/bin/silp-lsp',
  '/usr/bin/silp-lint',
];

test('the setting wins over everything else', () => {
  const r = resolveServer(options(everywhere, { configuredPath: '/opt/silp/silp-lsp' }));
  assert.deepEqual(r, { ok: true, server: { command: '/opt/silp/silp-lsp', args: [], source: 'setting' } });
});

test('then the binary bundled for this platform, then the generic bundled one', () => {
  let r = resolveServer(options(everywhere));
  assert.deepEqual(r, { ok: true, server: { command: '/ext/server/linux-x64/silp-lsp', args: [], source: 'bundled' } });
  r = resolveServer(options(everywhere.filter((f) => !f.includes('linux-x64'))));
  assert.deepEqual(r, { ok: true, server: { command: '/ext/server/silp-lsp', args: [], source: 'bundled' } });
});

test('then silp-lsp on PATH, then silp-lint on PATH started as `silp-lint lsp`', () => {
  let r = resolveServer(options(['/usr/local/bin/silp-lsp', '/usr/bin/silp-lint']));
  assert.deepEqual(r, { ok: true, server: { command: '/usr/local/bin/silp-lsp', args: [], source: 'path' } });
  r = resolveServer(options(['/usr/bin/silp-lint']));
  assert.deepEqual(r, { ok: true, server: { command: '/usr/bin/silp-lint', args: ['lsp'], source: 'path' } });
});

test('PATH directories are searched in order', () => {
  const r = resolveServer(options(['/usr/bin/silp-lsp', '/usr/local/bin/silp-lsp']));
  assert.equal(r.ok && r.server.command, '/usr/local/bin/silp-lsp');
});

test('nothing found: one actionable message that names the setting', () => {
  const r = resolveServer(options([]));
  assert.equal(r.ok, false);
  assert.equal(r.reason, 'not-found');
  assert.match(r.message, /`silp\.server\.path`/);
  assert.match(r.message, /silp-lsp/);
  assert.match(r.message, /PATH/);
});

test('a setting that points nowhere is reported, not silently replaced by PATH', () => {
  const r = resolveServer(options(everywhere, { configuredPath: '/nowhere/silp-lsp' }));
  assert.equal(r.ok, false);
  assert.equal(r.reason, 'setting-not-found');
  assert.match(r.message, /`silp\.server\.path`/);
  assert.match(r.message, /\/nowhere\/silp-lsp/);
});

test('the setting accepts silp-lint, bare names, ~, ${workspaceFolder} and relative paths', () => {
  let r = resolveServer(options(['/usr/bin/silp-lint'], { configuredPath: '/usr/bin/silp-lint' }));
  assert.deepEqual(r.server, { command: '/usr/bin/silp-lint', args: ['lsp'], source: 'setting' });
  r = resolveServer(options(['/usr/bin/silp-lint'], { configuredPath: 'silp-lint' }));
  assert.deepEqual(r.server, { command: '/usr/bin/silp-lint', args: ['lsp'], source: 'setting' });
  r = resolveServer(options(['/home/me/.cargo/bin/silp-lsp'], { configuredPath: '~/.cargo/bin/silp-lsp' }));
  assert.equal(r.server.command, '/home/me/.cargo/bin/silp-lsp');
  r = resolveServer(options(['/work/project/target/release/silp-lsp'], { configuredPath: '${workspaceFolder}/target/release/silp-lsp' }));
  assert.equal(r.server.command, '/work/project/target/release/silp-lsp');
  r = resolveServer(options(['/work/project/target/debug/silp-lsp'], { configuredPath: 'target/debug/silp-lsp' }));
  assert.equal(r.server.command, '/work/project/target/debug/silp-lsp');
  r = resolveServer(options(['/work/project/bin/silp-lsp'], { configuredPath: '  ./bin/silp-lsp  ' }));
  assert.equal(r.server.command, '/work/project/bin/silp-lsp');
});

test('Windows: .exe names, `;` PATH, PATHEXT and case-insensitive silp-lint', () => {
  const win = {
    platform: 'win32',
    extensionPath: 'C:\\ext',
    env: { Path: 'C:\\tools;C:\\cargo\\bin', PATHEXT: '.COM;.EXE;.BAT', USERPROFILE: 'C:\\Users\\me' },
    workspaceFolder: 'C:\\work',
  };
  let r = resolveServer(options(['C:\\ext\\server\\win32-x64\\silp-lsp.exe'], win));
  assert.deepEqual(r.server, { command: 'C:\\ext\\server\\win32-x64\\silp-lsp.exe', args: [], source: 'bundled' });
  r = resolveServer(options(['C:\\cargo\\bin\\silp-lint.exe'], win));
  assert.deepEqual(r.server, { command: 'C:\\cargo\\bin\\silp-lint.exe', args: ['lsp'], source: 'path' });
  r = resolveServer(options(['C:\\bin\\SILP-LINT.EXE'], { ...win, configuredPath: 'C:\\bin\\SILP-LINT.EXE' }));
  assert.deepEqual(r.server.args, ['lsp']);
  r = resolveServer(options(['C:\\bin\\silp-lsp.exe'], { ...win, configuredPath: 'C:\\bin\\silp-lsp' }));
  assert.equal(r.server.command, 'C:\\bin\\silp-lsp.exe');
});

test('helpers: argsFor, bundledCandidates, expandVariables, searchPath', () => {
  assert.deepEqual(argsFor('/x/silp-lint', 'linux'), ['lsp']);
  assert.deepEqual(argsFor('/x/silp-lsp', 'linux'), []);
  assert.deepEqual(argsFor('/x/SILP-LINT', 'linux'), []);
  assert.deepEqual(bundledCandidates({ extensionPath: '/e', platform: 'darwin', arch: 'arm64' }), [
    '/e/server/darwin-arm64/silp-lsp',
    '/e/server/silp-lsp',
  ]);
  const o = { env: { HOME: '/h', BIN: '/b' }, workspaceFolder: undefined, platform: 'linux' };
  assert.equal(expandVariables('${env:BIN}/silp-lsp', o), '/b/silp-lsp');
  assert.equal(expandVariables('${userHome}/x', o), '/h/x');
  assert.equal(expandVariables('~', o), '/h');
  assert.equal(expandVariables('a~b', o), 'a~b');
  assert.equal(expandVariables('${workspaceFolder}/x', o), '${workspaceFolder}/x');
  assert.equal(searchPath('silp-lsp', { env: {}, platform: 'linux', isExecutable: () => true }), undefined);
});
