// Where the silp-lint language server is: the `silp.server.path` setting, then a
// binary bundled with the extension, then `PATH`. Pure logic (no `vscode` import)
// so it is tested under plain Node.
import * as path from 'path';

export const SETTING = 'silp.server.path';

/** A command that starts the server on stdio. */
export interface ServerCommand {
  command: string;
  args: string[];
  /** Where it was found, for the output channel. */
  source: 'setting' | 'bundled' | 'path';
}

export type Resolution =
  | { ok: true; server: ServerCommand }
  | { ok: false; reason: 'setting-not-found' | 'not-found'; message: string };

export interface ResolveOptions {
  /** The value of `silp.server.path` (empty or undefined when unset). */
  configuredPath: string | undefined;
  /** The extension's install folder (`context.extensionPath`). */
  extensionPath: string;
  platform: NodeJS.Platform;
  arch: string;
  env: Record<string, string | undefined>;
  /** The first workspace folder, for relative paths and `${workspaceFolder}`. */
  workspaceFolder: string | undefined;
  /** Whether an executable file exists at an absolute path. */
  isExecutable: (file: string) => boolean;
}

/** The server binary names, in order; `silp-lint` needs the `lsp` subcommand. */
const SERVER_NAMES: ReadonlyArray<{ name: string; args: string[] }> = [
  { name: 'silp-lsp', args: [] },
  { name: 'silp-lint', args: ['lsp'] },
];

export function resolveServer(o: ResolveOptions): Resolution {
  const pathApi = o.platform === 'win32' ? path.win32 : path.posix;
  const configured = (o.configuredPath ?? '').trim();
  if (configured !== '') {
    const expanded = expandVariables(configured, o);
    const found = isBareName(expanded, o.platform)
      ? searchPath(expanded, o)
      : existing(pathApi.resolve(o.workspaceFolder ?? pathApi.resolve('.'), expanded), o);
    if (found !== undefined) {
      return { ok: true, server: { command: found, args: argsFor(found, o.platform), source: 'setting' } };
    }
    return {
      ok: false,
      reason: 'setting-not-found',
      message:
        `SILP: the language server set in \`${SETTING}\` ("${configured}") was not found or is not executable. ` +
        `Fix \`${SETTING}\` to point at the \`silp-lsp\` binary, or clear it to use the bundled server or \`silp-lsp\` on PATH.`,
    };
  }
  for (const file of bundledCandidates(o)) {
    const found = existing(file, o);
    if (found !== undefined) {
      return { ok: true, server: { command: found, args: [], source: 'bundled' } };
    }
  }
  for (const { name, args } of SERVER_NAMES) {
    const found = searchPath(name, o);
    if (found !== undefined) {
      return { ok: true, server: { command: found, args, source: 'path' } };
    }
  }
  return {
    ok: false,
    reason: 'not-found',
    message:
      'SILP: the silp-lint language server (`silp-lsp`) was not found: no server is bundled with this extension ' +
      'and neither `silp-lsp` nor `silp-lint` is on PATH. Install the .vsix built for your platform, which carries ' +
      'the server, or install silp-lint (`pipx install .` or `cargo install --path .` in a silp-lint checkout puts ' +
      `both on PATH), or set \`${SETTING}\` to the \`silp-lsp\` binary.`,
  };
}

/** Binaries the extension may ship: `server/<platform>-<arch>/silp-lsp`, then `server/silp-lsp`. */
export function bundledCandidates(o: Pick<ResolveOptions, 'extensionPath' | 'platform' | 'arch'>): string[] {
  const pathApi = o.platform === 'win32' ? path.win32 : path.posix;
  const exe = o.platform === 'win32' ? 'silp-lsp.exe' : 'silp-lsp';
  return [
    pathApi.join(o.extensionPath, 'server', `${o.platform}-${o.arch}`, exe),
    pathApi.join(o.extensionPath, 'server', exe),
  ];
}

/** `silp-lint` (any extension, any case on Windows) is started as `silp-lint lsp`. */
export function argsFor(file: string, platform: NodeJS.Platform): string[] {
  const pathApi = platform === 'win32' ? path.win32 : path.posix;
  let base = pathApi.basename(file);
  if (platform === 'win32') base = base.toLowerCase().replace(/\.(exe|cmd|bat|com)$/, '');
  return base === 'silp-lint' ? ['lsp'] : [];
}

/** Expands `~`, `${userHome}`, `${workspaceFolder}` and `${env:NAME}`. */
export function expandVariables(value: string, o: Pick<ResolveOptions, 'env' | 'workspaceFolder' | 'platform'>): string {
  const home = o.env.HOME ?? o.env.USERPROFILE ?? '';
  let out = value.replace(/\$\{(userHome|workspaceFolder|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (whole, name: string, envName?: string) => {
    if (name === 'userHome') return home;
    if (name === 'workspaceFolder') return o.workspaceFolder ?? whole;
    return (envName !== undefined ? o.env[envName] : undefined) ?? '';
  });
  if (home !== '' && (out === '~' || out.startsWith('~/') || (o.platform === 'win32' && out.startsWith('~\\')))) {
    out = home + out.slice(1);
  }
  return out;
}

function isBareName(value: string, platform: NodeJS.Platform): boolean {
  return platform === 'win32' ? !/[\\/:]/.test(value) : !value.includes('/');
}

/** The first executable `name` on PATH (with Windows executable extensions). */
export function searchPath(name: string, o: Pick<ResolveOptions, 'env' | 'platform' | 'isExecutable'>): string | undefined {
  const win = o.platform === 'win32';
  const pathApi = win ? path.win32 : path.posix;
  const pathVar = o.env.PATH ?? o.env.Path ?? '';
  const dirs = pathVar.split(win ? ';' : ':').filter((d) => d !== '');
  const extensions = win
    ? ['', ...(o.env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((e) => e !== '').map((e) => e.toLowerCase())]
    : [''];
  for (const dir of dirs) {
    for (const ext of extensions) {
      const file = pathApi.join(dir, name + ext);
      if (o.isExecutable(file)) return file;
    }
  }
  return undefined;
}

function existing(file: string, o: Pick<ResolveOptions, 'platform' | 'isExecutable'>): string | undefined {
  if (o.isExecutable(file)) return file;
  if (o.platform === 'win32' && !/\.[A-Za-z]+$/.test(file) && o.isExecutable(`${file}.exe`)) return `${file}.exe`;
  return undefined;
}
