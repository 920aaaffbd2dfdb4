// The VS Code client for the silp-lint language server (`silp-lsp`, stdio).
import * as fs from 'fs';
import * as vscode from 'vscode';
import { LanguageClient, LanguageClientOptions, ServerOptions, TransportKind } from 'vscode-languageclient/node';
import { resolveServer, SETTING } from './serverPath';
import { documentSelector, initializationOptions, RESTART_SETTINGS } from './settings';

const CLIENT_ID = 'silp';
const CLIENT_NAME = 'SILP Language Server';
const OPEN_SETTINGS = 'Open Settings';
const RETRY = 'Retry';

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;
/** Serialises start/stop so a restart never races a start. */
let pending: Promise<void> = Promise.resolve();

export function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel(CLIENT_NAME);
  context.subscriptions.push(output);
  context.subscriptions.push(
    vscode.commands.registerCommand('silp.restartServer', () => restart(context)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (RESTART_SETTINGS.some((key) => event.affectsConfiguration(key))) {
        void restart(context);
      }
    }),
  );
  return queue(() => start(context));
}

export function deactivate(): Promise<void> {
  return queue(stop);
}

export function restart(context: vscode.ExtensionContext): Promise<void> {
  return queue(async () => {
    await stop();
    await start(context);
  });
}

function queue(task: () => Promise<void>): Promise<void> {
  pending = pending.then(task, task);
  return pending;
}

function isExecutable(file: string): boolean {
  try {
    if (!fs.statSync(file).isFile()) return false;
    if (process.platform !== 'win32') fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

async function start(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration('silp');
  const resolution = resolveServer({
    configuredPath: config.get<string>('server.path'),
    extensionPath: context.extensionPath,
    platform: process.platform,
    arch: process.arch,
    env: process.env,
    workspaceFolder: vscode.workspace.workspaceFolders?.[0]?.uri.fsPath,
    isExecutable,
  });
  if (!resolution.ok) {
    output?.appendLine(resolution.message);
    void offerFix(context, resolution.message);
    return;
  }
  const { server } = resolution;
  output?.appendLine(`Starting ${server.command} ${server.args.join(' ')} (found via ${server.source})`);
  const serverOptions: ServerOptions = {
    command: server.command,
    args: server.args,
    transport: TransportKind.stdio,
  };
  const init = initializationOptions((key) => config.get(key));
  const clientOptions: LanguageClientOptions = {
    documentSelector: documentSelector(init.markdown),
    initializationOptions: init,
    synchronize: {
      configurationSection: 'silp',
      // The server re-reads silp-lint.toml / pyproject.toml when they change.
      fileEvents: vscode.workspace.createFileSystemWatcher('**/{silp-lint.toml,pyproject.toml}'),
    },
  };
  if (output !== undefined) clientOptions.outputChannel = output;
  const created = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  client = created;
  try {
    await created.start();
  } catch (error) {
    client = undefined;
    const detail = error instanceof Error ? error.message : String(error);
    const message =
      `SILP: the language server ${server.command} could not be started (${detail}). ` +
      `Check \`${SETTING}\`, or run "SILP: Restart Language Server" after fixing it.`;
    output?.appendLine(message);
    void offerFix(context, message);
  }
}

async function stop(): Promise<void> {
  const running = client;
  client = undefined;
  if (running === undefined) return;
  try {
    await running.stop();
  } catch (error) {
    output?.appendLine(`Stopping the server failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function offerFix(context: vscode.ExtensionContext, message: string): Promise<void> {
  const choice = await vscode.window.showErrorMessage(message, OPEN_SETTINGS, RETRY);
  if (choice === OPEN_SETTINGS) {
    await vscode.commands.executeCommand('workbench.action.openSettings', SETTING);
  } else if (choice === RETRY) {
    await restart(context);
  }
}
