#!/usr/bin/env node
// Checks a packaged extension the way VS Code would see it: unpacks the .vsix into a
// scratch folder outside the repository (with the file modes it records, as VS Code
// does), reads its package.json, and tokenises hand-written payloads there with the
// grammars *from the .vsix* in the real TextMate engine (vscode-tmgrammar-test,
// installed under grammar/). A platform-specific .vsix (scripts/package-vsix.sh)
// must also carry its server: executable, the one the extension's own lookup picks
// with no setting and nothing on PATH, and, on its own platform, answering
// `initialize` over stdio (scripts/lsp-initialize.py).
//
//   node scripts/check-vsix.mjs silp-lint-0.1.0.vsix
import { spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const vsix = process.argv[2];
if (!vsix || !existsSync(vsix)) {
  console.error('usage: node scripts/check-vsix.mjs FILE.vsix');
  process.exit(2);
}

/** Unpacks a zip (stored or deflated entries) into `dest`, with the Unix modes it
 * records; returns the names. */
function unzip(file, dest) {
  const b = readFileSync(file);
  const end = b.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${file} is not a zip file`);
  let p = b.readUInt32LE(end + 16);
  const names = [];
  for (let i = 0, n = b.readUInt16LE(end + 10); i < n; i++) {
    const method = b.readUInt16LE(p + 10);
    const size = b.readUInt32LE(p + 20);
    const nameLength = b.readUInt16LE(p + 28);
    const extra = b.readUInt16LE(p + 30);
    const comment = b.readUInt16LE(p + 32);
    const mode = (b.readUInt32LE(p + 38) >>> 16) & 0o777;
    const local = b.readUInt32LE(p + 42);
    const name = b.toString('utf8', p + 46, p + 46 + nameLength);
    p += 46 + nameLength + extra + comment;
    if (name.endsWith('/') || name.includes('..')) continue;
    const start = local + 30 + b.readUInt16LE(local + 26) + b.readUInt16LE(local + 28);
    const raw = b.subarray(start, start + size);
    const data = method === 0 ? raw : inflateRawSync(raw);
    mkdirSync(dirname(join(dest, name)), { recursive: true });
    writeFileSync(join(dest, name), data);
    if (mode !== 0) chmodSync(join(dest, name), mode);
    names.push(name);
  }
  return names;
}

// Hand-written payloads, not taken from the repository's tests.
const cases = {
  'travel.test.silp': `# SYNTAX TEST "source.silp" "hand-written code-frontend payloads"
if !snow(t+2) and temp>=20: book(table@terrace,t+7pm); notify(alice) else: suggest(loc=inside)
# <-- keyword.control.conditional.if.silp
#  ^ keyword.operator.logical.negation.silp
#   ^^^^ variable.other.constraint.silp
#        ^^^ constant.numeric.time.silp
#             ^^^ keyword.control.logical.and.silp
#                       ^^ string.unquoted.value.silp
#                           ^^^^ entity.name.function.verb.silp support.function.verb.silp
#                                     ^ keyword.operator.location.silp
#                                                    ^ punctuation.separator.sequence.silp
#                                                                    ^^^^ keyword.control.conditional.else.silp
#                                                                                  ^^^ variable.parameter.silp
escalate(ticket) -> begin(x) # silp-lint: ignore[SL102]
# <-------- invalid.deprecated.excluded-verb.silp
#                ^^ keyword.operator.arrow.silp
#                   ^^^^^ entity.name.function.unknown.silp
#                            ^ comment.line.number-sign.silp
`,
  'wire.test.slip': `# SYNTAX TEST "source.slip" "hand-written SLIP lines"
SLIP v1 scheduler worker-2 CommitDeadline thread7 "by friday"
# <---- keyword.control.marker.slip
#    ^^ constant.numeric.version.slip
#       ^^^^^^^^^ entity.name.namespace.agent.slip
#                 ^^^^^^^^ entity.name.namespace.agent.slip
#                          ^^^^^^^^^^^^^^ constant.other.anchor.commit.slip
#                                         ^^^^^^ keyword.other.thread.slip
#                                               ^ constant.other.thread-id.slip
#                                                 ^^^^^^^^^^^ string.quoted.double.slip
`,
  'order.test.silp.json': `// SYNTAX TEST "source.silp-json" "a hand-written IR document"
{"silp": "v1", "intent": "!NOTIFY", "meta": {"req_id": "0badcafe", "seq": ["!ESCALATE"]}}
//                         ^^^^^^ entity.name.function.action-code.silp support.function.action-code.silp
//                                                      ^^^^^^^^ constant.other.req-id.silp
//                                                                           ^^^^^^^^ invalid.deprecated.excluded-verb.silp
`,
  'handoff.test.a2a.json': `// SYNTAX TEST "source.a2a-json" "a hand-written A2A message"
{"role": "agent", "parts": [{"text": "SLIP v1 reviewer planner EvalApprove lgtm"}]}
//                                    ^^^^ meta.embedded.line.slip keyword.control.marker.slip
//                                                             ^^^^^^^^^^^ constant.other.anchor.eval.slip
`,
  'page.test.mcp-call.json': `// SYNTAX TEST "source.mcp-call-json" "hand-written tool arguments"
{"silp_encoding": "code", "silp_payload": "notify(oncall@pager)"}
//                                         ^^^^^^ meta.embedded.line.silp entity.name.function.verb.silp
//                                                      ^ keyword.operator.location.silp
`,
  'notes.test.md': `<!-- SYNTAX TEST "text.html.markdown" "a hand-written Markdown page"
Run this:

\`\`\`silp
route(ticket@oncall)
<!-- <----- meta.embedded.block.silp entity.name.function.verb.silp
<!--        ^ meta.embedded.block.silp keyword.operator.location.silp
\`\`\`
`,
};

/** The extension's own check, as src/extension.ts makes it. */
function isExecutable(file) {
  try {
    if (!statSync(file).isFile()) return false;
    if (process.platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Checks the server a platform-specific .vsix carries; returns what is wrong. */
function checkServer(extension, target) {
  const [platform, arch] = [target.slice(0, target.indexOf('-')), target.slice(target.indexOf('-') + 1)];
  const server = join(extension, 'server', target, platform === 'win32' ? 'silp-lsp.exe' : 'silp-lsp');
  const where = server.slice(extension.length + 1);
  if (!existsSync(server)) return [`no server at ${where}`];
  const problems = [];
  if (platform !== 'win32' && (statSync(server).mode & 0o111) === 0) problems.push(`${where} is not executable`);
  // What the extension starts with `silp.server.path` unset and nothing on PATH.
  const { resolveServer } = createRequire(import.meta.url)(join(extension, 'out', 'serverPath.js'));
  const found = resolveServer({
    configuredPath: '',
    extensionPath: extension,
    platform,
    arch,
    env: { PATH: '' },
    workspaceFolder: undefined,
    isExecutable,
  });
  if (!found.ok || found.server.command !== server) {
    problems.push(`the extension does not start ${where}: ${JSON.stringify(found)}`);
  }
  let answer = `not started: ${target} is not this machine's platform`;
  if (target === `${process.platform}-${process.arch}`) {
    const run = spawnSync('python3', [join(repo, 'scripts', 'lsp-initialize.py'), server], { encoding: 'utf8' });
    answer = (run.stdout + run.stderr).trim();
    if (run.status !== 0) problems.push(`${where} does not answer initialize: ${answer}`);
  }
  console.log(`server: ${where}, ${statSync(server).size} bytes, mode ${(statSync(server).mode & 0o777).toString(8)}; ${answer}`);
  return problems;
}

const scratch = mkdtempSync(join(tmpdir(), 'silp-vsix-'));
try {
  const names = unzip(vsix, scratch);
  const manifestPath = join(scratch, 'extension', 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  for (const g of manifest.contributes.grammars) {
    if (!names.includes(`extension/${g.path.replace(/^\.\//, '')}`)) throw new Error(`${g.path} is not in ${vsix}`);
  }
  for (const l of manifest.contributes.languages) {
    if (!names.includes(`extension/${l.configuration.replace(/^\.\//, '')}`)) throw new Error(`${l.configuration} is not in ${vsix}`);
  }
  if (!names.includes(`extension/${manifest.main.replace(/^\.\//, '')}`)) throw new Error(`${manifest.main} is not in ${vsix}`);
  const tests = join(scratch, 'payloads');
  mkdirSync(tests);
  for (const [name, text] of Object.entries(cases)) writeFileSync(join(tests, name), text);
  const unit = join(repo, 'grammar', 'node_modules', 'vscode-tmgrammar-test', 'dist', 'unit.js');
  const markdown = join(repo, 'grammar', 'node_modules', 'tm-grammars', 'grammars', 'markdown.json');
  const run = spawnSync(process.execPath, [unit, '--config', manifestPath, '-g', markdown, join(tests, '*.test.*')], {
    encoding: 'utf8',
  });
  const out = (run.stdout ?? '').replace(/\x1b\[[0-9;]*m/g, '');
  process.stdout.write(out.replaceAll(scratch, '<vsix>'));
  for (const line of (run.stderr ?? '').split('\n')) {
    if (line.trim() !== '' && !/grammar not found for "(?!source\.silp|source\.slip)/.test(line)) console.error(line);
  }
  let passed = (out.match(/^✓ /gmu) ?? []).length;
  let total = Object.keys(cases).length;
  const ok = run.status === 0 && passed === total;
  const target = /TargetPlatform="([^"]+)"/.exec(readFileSync(join(scratch, 'extension.vsixmanifest'), 'utf8'))?.[1];
  const problems = target
    ? checkServer(join(scratch, 'extension'), target)
    : names.filter((n) => n.startsWith('extension/server/')).map((n) => `a universal package ships ${n}`);
  for (const problem of problems) console.error(problem);
  total += 1;
  if (problems.length === 0) passed += 1;
  console.log(`vsix: ${passed} passed, ${total - passed} failed`);
  process.exitCode = ok && problems.length === 0 ? 0 : 1;
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
