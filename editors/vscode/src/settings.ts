// What the client sends the server and which documents it hands over. Pure logic
// (no `vscode` import) so it is tested under plain Node.

/** Reads one setting under `silp.` (a `WorkspaceConfiguration.get` in the extension). */
export type SettingReader = (key: string) => unknown;

/** Rule selection as the server receives it in `initializationOptions`. */
export interface LintOptions {
  select: string[];
  ignore: string[];
}

export interface InitializationOptions {
  lint: LintOptions;
  markdown: boolean;
  /** The draft revision payloads are written against (`--draft`). */
  draft: Draft;
}

/** The SILP draft revisions the server knows; the newest is the default. */
export const DRAFTS = ['00', '01', '02'] as const;
export type Draft = (typeof DRAFTS)[number];

/** The `silp.draft` setting, or the newest revision when it is not one of them. */
export function draft(value: unknown): Draft {
  return DRAFTS.find((d) => d === value) ?? '02';
}

/** Codes or prefixes from a setting: strings only, trimmed, upper-cased, no blanks or duplicates. */
export function ruleList(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const out: string[] = [];
  for (const item of value) {
    if (typeof item !== 'string') continue;
    const code = item.trim().toUpperCase();
    if (code !== '' && !out.includes(code)) out.push(code);
  }
  return out;
}

export function initializationOptions(read: SettingReader): InitializationOptions {
  return {
    lint: { select: ruleList(read('lint.select')), ignore: ruleList(read('lint.ignore')) },
    markdown: read('markdown.enable') !== false,
    draft: draft(read('draft')),
  };
}

/** A `DocumentFilter` as vscode-languageclient takes it. */
export type DocumentFilter = { language: string } | { pattern: string };

/** The documents the server lints: the three payload languages, MCP tool calls and
 *  A2A messages, NLIP envelopes (VS Code opens `*.nlip.json` as JSON) and, unless
 *  turned off, Markdown. */
export function documentSelector(markdown: boolean): DocumentFilter[] {
  const selector: DocumentFilter[] = [
    { language: 'silp' },
    { language: 'slip' },
    { language: 'silp-json' },
    { language: 'mcp-call-json' },
    { language: 'a2a-json' },
    { pattern: '**/*.nlip.json' },
  ];
  if (markdown) selector.push({ language: 'markdown' });
  return selector;
}

/** Settings whose change needs a new server process (the selector or the binary). */
export const RESTART_SETTINGS = ['silp.server.path', 'silp.markdown.enable'] as const;
