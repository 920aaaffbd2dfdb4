// Runs the compiled extension against a stand-in `vscode` API and language client:
// which server it starts, with which options, and what it says when there is none.
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const Module = require('node:module');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

function fakes(settings) {
  const state = { clients: [], errors: [], commands: new Map(), executed: [], answer: undefined };
  const vscode = {
    window: {
      createOutputChannel: () => ({ appendLine() {}, dispose() {} }),
      showErrorMessage: async (message, ...items) => {
        state.errors.push({ message, items });
        return state.answer;
      },
    },
    commands: {
      registerCommand: (id, fn) => {
        state.commands.set(id, fn);
        return { dispose() {} };
      },
      executeCommand: async (...args) => {
        state.executed.push(args);
      },
    },
    workspace: {
      getConfiguration: (section) => {
        assert.equal(section, 'silp');
        return { get: (key) => settings[key] };
      },
      onDidChangeConfiguration: () => ({ dispose() {} }),
      createFileSystemWatcher: (pattern) => ({ pattern, dispose() {} }),
      workspaceFolders: undefined,
    },
  };
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, { id, name, serverOptions, clientOptions, running: false });
      state.clients.push(this);
    }
    async start() {
      this.running = true;
    }
    async stop() {
      this.running = false;
    }
  }
  const client = { LanguageClient, TransportKind: { stdio: 0, ipc: 1, pipe: 2, socket: 3 } };
  return { vscode, client, state };
}

function loadExtension(mocks) {
  const original = Module._load;
  Module._load = function (request, parent, isMain) {
    if (request === 'vscode') return mocks.vscode;
    if (request === 'vscode-languageclient/node') return mocks.client;
    return original.call(this, request, parent, isMain);
  };
  const file = require.resolve('../out/extension.js');
  delete require.cache[file];
  try {
    return require(file);
  } finally {
    Module._load = original;
  }
}

function context() {
  return { subscriptions: [], extensionPath: fs.mkdtempSync(path.join(os.tmpdir(), 'silp-ext-')) };
}

test('starts the server from the setting over stdio, with the rule selection', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'silp-bin-'));
  const binary = path.join(dir, 'silp-lint');
  fs.writeFileSync(binary, '#!/bin/sh\n');
  fs.chmodSync(binary, 0o755);
  const mocks = fakes({ 'server.path': binary, 'lint.select': ['SL1'], 'lint.ignore': ['SL302'] });
  const extension = loadExtension(mocks);
  const ctx = context();
  await extension.activate(ctx);
  assert.equal(mocks.state.errors.length, 0);
  assert.equal(mocks.state.clients.length, 1);
  const [client] = mocks.state.clients;
  assert.equal(client.id, 'silp');
  assert.deepEqual(client.serverOptions, { command: binary, args: ['lsp'], transport: 0 });
  assert.deepEqual(client.clientOptions.initializationOptions, {
    lint: { select: ['SL1'], ignore: ['SL302'] },
    markdown: true,
    draft: '02',
  });
  assert.equal(client.clientOptions.synchronize.configurationSection, 'silp');
  // The server re-reads configuration files when they change.
  assert.equal(client.clientOptions.synchronize.fileEvents.pattern, '**/{silp-lint.toml,pyproject.toml}');
  assert.ok(client.clientOptions.documentSelector.some((f) => f.language === 'silp'));
  assert.ok(client.running);

  // The restart command stops this client and starts a new one.
  assert.ok(mocks.state.commands.has('silp.restartServer'));
  await mocks.state.commands.get('silp.restartServer')();
  assert.equal(mocks.state.clients.length, 2);
  assert.equal(client.running, false);
  assert.ok(mocks.state.clients[1].running);
  await extension.deactivate();
  assert.equal(mocks.state.clients[1].running, false);
});

test('with no server anywhere it shows one error naming the setting, and can open it', async () => {
  const mocks = fakes({ 'server.path': '' });
  mocks.state.answer = 'Open Settings';
  const savedPath = process.env.PATH;
  process.env.PATH = fs.mkdtempSync(path.join(os.tmpdir(), 'silp-empty-path-'));
  try {
    const extension = loadExtension(mocks);
    await extension.activate(context());
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(mocks.state.clients.length, 0);
    assert.equal(mocks.state.errors.length, 1);
    assert.match(mocks.state.errors[0].message, /silp\.server\.path/);
    assert.deepEqual(mocks.state.errors[0].items, ['Open Settings', 'Retry']);
    assert.deepEqual(mocks.state.executed, [['workbench.action.openSettings', 'silp.server.path']]);
    await extension.deactivate();
  } finally {
    process.env.PATH = savedPath;
  }
});

test('a bundled binary is used when the setting is empty', async () => {
  const mocks = fakes({ 'server.path': '', 'markdown.enable': false });
  const ctx = context();
  const bundled = path.join(ctx.extensionPath, 'server', 'silp-lsp');
  fs.mkdirSync(path.dirname(bundled), { recursive: true });
  fs.writeFileSync(bundled, '#!/bin/sh\n');
  fs.chmodSync(bundled, 0o755);
  const extension = loadExtension(mocks);
  await extension.activate(ctx);
  assert.equal(mocks.state.clients.length, 1);
  assert.deepEqual(mocks.state.clients[0].serverOptions.args, []);
  assert.equal(mocks.state.clients[0].serverOptions.command, bundled);
  assert.ok(!mocks.state.clients[0].clientOptions.documentSelector.some((f) => f.language === 'markdown'));
  await extension.deactivate();
});
