#!/usr/bin/env node
// Generates the TextMate grammars in this folder (and the copies the VS Code
// extension ships in editors/vscode/syntaxes/) from one definition, so the verb
// whitelist, the UCR anchors and the invisible-character classes are written once.
//
//   node build.mjs           write the grammars
//   node build.mjs --check   fail when a written grammar differs from what it would be
//
// The verbs and frontends come from src/vocabulary.rs, the anchors from
// data/anchors.tsv, both at the repository root.

import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const r = String.raw;

// ---------------------------------------------------------------- vocabulary
// Read from src/vocabulary.rs, the linter's own lists, so the grammars cannot drift
// from what the rules accept (`--check` then flags the stale grammar files).
function rustStrings(source, constant) {
  const m = new RegExp(`pub const ${constant}: \\[[^\\]]*\\] =\\s*\\[([\\s\\S]*?)\\];`).exec(source);
  if (m === null) throw new Error(`src/vocabulary.rs: cannot find the ${constant} array`);
  // The first string of each element (EXCLUDED_VERBS holds (verb, replacement) pairs).
  const items = m[1].includes('(')
    ? [...m[1].matchAll(/\(\s*"([^"]*)"\s*,/g)].map((x) => x[1])
    : [...m[1].matchAll(/"([^"]*)"/g)].map((x) => x[1]);
  if (items.length === 0) throw new Error(`src/vocabulary.rs: ${constant} is empty`);
  return items;
}
const vocabulary = readFileSync(join(root, 'src', 'vocabulary.rs'), 'utf8');
export const VERBS = rustStrings(vocabulary, 'VERBS').map((v) => v.toLowerCase());
export const EXCLUDED_VERBS = rustStrings(vocabulary, 'EXCLUDED_VERBS').map((v) => v.toLowerCase());
export const FRONTENDS = rustStrings(vocabulary, 'FRONTENDS');
if (VERBS.length !== 13) throw new Error(`expected the 13 whitelisted verbs in src/vocabulary.rs, found ${VERBS.length}`);

/** UCR v1.0 anchors grouped by family, from data/anchors.tsv. */
export function anchorFamilies() {
  const tsv = readFileSync(join(root, 'data', 'anchors.tsv'), 'utf8');
  const mnemonics = tsv
    .split(/\r?\n/)
    .slice(1)
    .filter((line) => line.trim() !== '')
    .map((line) => line.split('\t')[1]);
  const prefixes = ['Observe', 'Inform', 'Ask', 'Request', 'Propose', 'Commit', 'Eval', 'Meta', 'Error'];
  const families = new Map();
  for (const m of mnemonics) {
    let family = prefixes.find((p) => m.startsWith(p));
    if (family === undefined) {
      family = m === 'Fallback' ? 'Fallback' : 'Decision'; // Accept, Reject, AcceptWithCondition, Defer
    }
    if (!families.has(family)) families.set(family, []);
    families.get(family).push(m);
  }
  if (mnemonics.length !== 46) {
    throw new Error(`expected the 46 UCR v1.0 anchors in data/anchors.tsv, found ${mnemonics.length}`);
  }
  return families;
}

// ------------------------------------------------------ character classes
// Invisible characters (rules SL201, SL203, SL204), as Oniguruma class bodies.
const ZERO_WIDTH = r`\x{200B}\x{200C}\x{200D}\x{FEFF}`;
const BIDI = r`\x{202A}-\x{202E}\x{2066}-\x{2069}\x{200E}\x{200F}\x{061C}`;
const TAGS = r`\x{E0000}-\x{E007F}`;
const VARIATION = r`\x{FE00}-\x{FE0F}`;
const OTHER_INVISIBLE = r`\x{2060}-\x{2064}\x{00AD}\x{034F}\x{180E}\x{115F}\x{1160}\x{3164}\x{FFA0}\x{E0100}-\x{E01EF}`;
const INVISIBLE = ZERO_WIDTH + BIDI + TAGS + VARIATION + OTHER_INVISIBLE;
// Characters a variation selector may follow in an emoji or keycap sequence.
const EMOJI_BASE = r`0-9#*\x{00A9}\x{00AE}\x{203C}\x{2049}\x{2122}\x{2139}\x{2194}-\x{21AA}\x{231A}-\x{23FF}\x{24C2}\x{25AA}-\x{27BF}\x{2934}\x{2935}\x{2B05}-\x{2B55}\x{3030}\x{303D}\x{3297}\x{3299}\x{1F000}-\x{1FAFF}`;

/** Marks invisible and smuggling characters as invalid.illegal in any context. */
function invisiblePatterns(lang) {
  return [
    { match: `[${ZERO_WIDTH}]`, name: `invalid.illegal.zero-width.${lang}` },
    { match: `[${BIDI}]`, name: `invalid.illegal.bidi.${lang}` },
    { match: `[${TAGS}]+`, name: `invalid.illegal.tag-character.${lang}` },
    { match: `(?<![${EMOJI_BASE}])[${VARIATION}]|[${OTHER_INVISIBLE}]`, name: `invalid.illegal.invisible.${lang}` },
  ];
}

// Code frontend: delimiters end a word; a value is one run of anything else.
const DELIM = r`\s(),;:@=<>!`;
// A variation selector after an emoji base belongs to the emoji, not flagged.
const VALUE = `(?:[^${DELIM}${INVISIBLE}]|(?<=[${EMOJI_BASE}])[${VARIATION}])+`;
const BEFORE = `(?<![^${DELIM}])`; // at a word start
const AFTER = `(?![^${DELIM}])`; // at a word end
const NAME_CHAR = r`\p{L}\p{M}\p{N}_`;
// Letters, marks, digits and `_`, but not the invisible marks (U+034F, variation selectors).
const NAME = `(?:(?![${INVISIBLE}])[${NAME_CHAR}])+`;
const alt = (words) => words.join('|');
const kw = (word) => `${BEFORE}(${word})${AFTER}`;

// ---------------------------------------------------------------- source.silp
function silpGrammar() {
  const verbName = {
    patterns: [
      {
        match: `(?<![${NAME_CHAR}])(${alt(VERBS)})(?![${NAME_CHAR}])`,
        name: 'entity.name.function.verb.silp support.function.verb.silp',
      },
      {
        match: `(?<![${NAME_CHAR}])(${alt(EXCLUDED_VERBS)})(?![${NAME_CHAR}])`,
        name: 'entity.name.function.excluded.silp invalid.deprecated.excluded-verb.silp',
      },
      { match: NAME, name: 'entity.name.function.unknown.silp' },
    ],
  };
  const condition = {
    comment: '`if` up to `:` or `then`: constraints.',
    begin: kw('if'),
    beginCaptures: { 1: { name: 'keyword.control.conditional.if.silp' } },
    end: `(:)|${kw('then')}|$`,
    endCaptures: {
      1: { name: 'punctuation.separator.condition.silp' },
      2: { name: 'keyword.control.conditional.then.silp' },
    },
    name: 'meta.condition.silp',
    patterns: [
      { include: '#comment' },
      { include: '#invisible' },
      { match: kw('and'), captures: { 1: { name: 'keyword.control.logical.and.silp' } } },
      { match: `${BEFORE}(not)(?=\\s)`, captures: { 1: { name: 'keyword.control.logical.not.silp' } } },
      {
        comment: 'a comparison operator and the value after it: `<=500`, `> t+1`',
        match: `((?:==|!=|<=|>=|<|>)(?![=<>]))\\s*(${VALUE})?`,
        captures: {
          1: { name: 'keyword.operator.comparison.silp' },
          2: { patterns: [{ include: '#time' }, { include: '#value' }] },
        },
      },
      {
        comment: 'operators outside the six comparisons (SL406): `=>`, `<>`, `=`',
        match: `(!?[=<>]+)\\s*(${VALUE})?`,
        captures: {
          1: { name: 'invalid.illegal.operator.silp' },
          2: { patterns: [{ include: '#time' }, { include: '#value' }] },
        },
      },
      {
        comment: 'negation: `!rain` or `!rain(t+1)`',
        match: `(!)\\s*(${VALUE})?`,
        captures: {
          1: { name: 'keyword.operator.logical.negation.silp' },
          2: { name: 'variable.other.constraint.silp' },
        },
      },
      { include: '#arguments' },
      { match: ',', name: 'punctuation.separator.time.silp' },
      { include: '#time' },
      {
        comment: 'any other word of a condition names a constraint: `loc(`, `budget<=`, `not rain`',
        match: VALUE,
        name: 'variable.other.constraint.silp',
      },
    ],
  };
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: 'SILP',
    scopeName: 'source.silp',
    fileTypes: ['silp'],
    patterns: [
      { include: '#comment' },
      { include: '#ping' },
      { include: '#condition' },
      { include: '#action-level' },
    ],
    repository: {
      invisible: { patterns: invisiblePatterns('silp') },
      comment: {
        comment: 'A `#` at the start of a line or after white space runs to the end of the line.',
        begin: r`(?:^|(?<=\s))(#)`,
        beginCaptures: { 1: { name: 'punctuation.definition.comment.silp' } },
        end: '$',
        name: 'comment.line.number-sign.silp',
        patterns: [{ include: '#suppression' }, { include: '#invisible' }],
      },
      suppression: {
        comment: '`# silp-lint: ignore[SL101,SL302] reason`',
        match: r`\G\s*(silp-lint)\s*(:)\s*(ignore)(\[)([^\]]*)(\])`,
        name: 'meta.directive.suppression.silp',
        captures: {
          1: { name: 'keyword.other.directive.silp' },
          2: { name: 'punctuation.separator.key-value.silp' },
          3: { name: 'keyword.other.directive.ignore.silp' },
          4: { name: 'punctuation.definition.list.begin.silp' },
          5: {
            patterns: [
              { match: r`\b[A-Z]+[0-9]+\b`, name: 'constant.other.rule-code.silp' },
              { match: ',', name: 'punctuation.separator.list.silp' },
              { include: '#invisible' },
            ],
          },
          6: { name: 'punctuation.definition.list.end.silp' },
        },
      },
      ping: {
        comment: '`//ping code,json[,...] [session=XY] [heartbeat=N]` probes (silp-lint convention).',
        begin: r`^\s*(//ping)(?=\s|$)`,
        beginCaptures: { 1: { name: 'keyword.control.directive.ping.silp' } },
        end: '$',
        name: 'meta.probe.ping.silp',
        patterns: [
          { include: '#comment' },
          { include: '#invisible' },
          {
            match: r`(?<!\S)(session)(=)([^\s#${INVISIBLE}]*)`,
            captures: {
              1: { name: 'variable.parameter.silp' },
              2: { name: 'keyword.operator.assignment.silp' },
              3: { name: 'string.unquoted.session-id.silp' },
            },
          },
          {
            match: r`(?<!\S)(heartbeat)(=)([^\s#${INVISIBLE}]*)`,
            captures: {
              1: { name: 'variable.parameter.silp' },
              2: { name: 'keyword.operator.assignment.silp' },
              3: { name: 'constant.numeric.heartbeat.silp' },
            },
          },
          {
            match: `(?<![^\\s,])(${alt(FRONTENDS)})(?![^\\s,])`,
            name: 'support.constant.frontend.silp',
          },
          { match: ',', name: 'punctuation.separator.list.silp' },
          { match: `[^\\s,=#${INVISIBLE}]+`, name: 'constant.other.frontend.silp' },
        ],
      },
      condition,
      'condition-in-string': {
        ...condition,
        comment: 'a condition at the start of a payload inside a JSON string, right after its quote',
        begin: `(?<=")\\s*(if)${AFTER}`,
      },
      'payload-in-string': {
        comment: 'a payload inside a JSON string (an MCP wrapper\'s `silp_payload`), from the quote on',
        patterns: [{ include: '#condition-in-string' }, { include: '#action-level' }],
      },
      'action-level': {
        patterns: [
          { include: '#invisible' },
          {
            match: `${kw('else')}(?:\\s*(:))?`,
            captures: {
              1: { name: 'keyword.control.conditional.else.silp' },
              2: { name: 'punctuation.separator.else.silp' },
            },
          },
          { match: kw('then'), captures: { 1: { name: 'keyword.control.conditional.then.silp' } } },
          {
            match: `${kw('with')}(?:\\s+(${VALUE}))?`,
            captures: {
              1: { name: 'keyword.control.with.silp' },
              2: { name: 'variable.other.with.silp' },
            },
          },
          { match: '->', name: 'keyword.operator.arrow.silp' },
          { match: ';', name: 'punctuation.separator.sequence.silp' },
          { include: '#call-name' },
          { include: '#arguments' },
        ],
      },
      'call-name': verbName,
      arguments: {
        begin: r`\(`,
        beginCaptures: { 0: { name: 'punctuation.definition.arguments.begin.silp' } },
        end: r`\)|$`,
        endCaptures: { 0: { name: 'punctuation.definition.arguments.end.silp' } },
        name: 'meta.arguments.silp',
        patterns: [
          { include: '#comment' },
          { include: '#invisible' },
          {
            comment: 'keyword argument: `src=fr_rev_bold`, `loc=indoor`',
            match: `(${VALUE})\\s*(=)(?!=)`,
            captures: {
              1: { name: 'variable.parameter.silp' },
              2: { name: 'keyword.operator.assignment.silp' },
            },
          },
          { match: '@', name: 'keyword.operator.location.silp' },
          { match: ',', name: 'punctuation.separator.arguments.silp' },
          { include: '#time' },
          { include: '#value' },
        ],
      },
      time: {
        comment: 'relative times: `t+1`, `t+1pm`, `t-2d`',
        match: `${BEFORE}t[+-][^${DELIM}${INVISIBLE}]*`,
        name: 'constant.numeric.time.silp',
      },
      value: { match: VALUE, name: 'string.unquoted.value.silp' },
    },
  };
}

// ---------------------------------------------------------------- source.slip
function slipGrammar() {
  const families = anchorFamilies();
  const anchorPatterns = [...families.entries()].map(([family, names]) => ({
    match: `(?<!\\S)(?:${alt(names)})(?!\\S)`,
    name: `constant.other.anchor.${family.toLowerCase()}.slip`,
  }));
  const TOKEN = `(?:[^\\s"${INVISIBLE}]|(?<=[${EMOJI_BASE}])[${VARIATION}])+`;
  const message = {
    comment: '`SLIP v1 <src> <dst> <anchor> [payload...]`',
    begin: r`^\s*(SLIP)(?:[ \t]+(\S+))?(?:[ \t]+(\S+))?(?:[ \t]+(\S+))?(?:[ \t]+(\S+))?`,
    beginCaptures: {
      1: { name: 'keyword.control.marker.slip' },
      2: {
        patterns: [
          { include: '#invisible' },
          { match: r`(?<!\S)v1(?!\S)`, name: 'constant.numeric.version.slip' },
          { match: r`(?<!\S)v[0-9]+(?!\S)`, name: 'constant.numeric.version.unsupported.slip' },
          { match: `[^\\s${INVISIBLE}]+`, name: 'invalid.illegal.version.slip' },
        ],
      },
      3: { patterns: [{ include: '#agent' }] },
      4: { patterns: [{ include: '#agent' }] },
      5: {
        patterns: [
          { include: '#invisible' },
          ...anchorPatterns,
          { match: `[^\\s${INVISIBLE}]+`, name: 'constant.other.anchor.unknown.slip' },
        ],
      },
    },
    end: '$',
    name: 'meta.message.slip',
    patterns: [
      { include: '#invisible' },
      {
        comment: 'the first payload token starting with `thread` is the thread id',
        begin: `(?<!\\S)(thread)(${TOKEN})?`,
        beginCaptures: {
          1: { name: 'keyword.other.thread.slip' },
          2: { name: 'constant.other.thread-id.slip' },
        },
        end: '$',
        patterns: [{ include: '#payload' }],
      },
      { include: '#payload' },
    ],
  };
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: 'Slipstream SLIP',
    scopeName: 'source.slip',
    fileTypes: ['slip'],
    patterns: [{ include: '#comment' }, { include: '#message' }, { include: '#not-a-message' }],
    repository: {
      invisible: { patterns: invisiblePatterns('slip') },
      comment: {
        begin: r`^\s*(#)`,
        beginCaptures: { 1: { name: 'punctuation.definition.comment.slip' } },
        end: '$',
        name: 'comment.line.number-sign.slip',
        patterns: [{ include: '#suppression' }, { include: '#invisible' }],
      },
      suppression: {
        match: r`\G\s*(silp-lint)\s*(:)\s*(ignore)(\[)([^\]]*)(\])`,
        name: 'meta.directive.suppression.slip',
        captures: {
          1: { name: 'keyword.other.directive.slip' },
          2: { name: 'punctuation.separator.key-value.slip' },
          3: { name: 'keyword.other.directive.ignore.slip' },
          4: { name: 'punctuation.definition.list.begin.slip' },
          5: {
            patterns: [
              { match: r`\b[A-Z]+[0-9]+\b`, name: 'constant.other.rule-code.slip' },
              { match: ',', name: 'punctuation.separator.list.slip' },
              { include: '#invisible' },
            ],
          },
          6: { name: 'punctuation.definition.list.end.slip' },
        },
      },
      message,
      'message-in-string': {
        ...message,
        comment: 'a message inside a JSON string (an A2A text part), from the quote on',
        begin: message.begin.replace(/^\^/, '(?<=")'),
      },
      agent: {
        patterns: [
          { include: '#invisible' },
          { match: r`[A-Za-z0-9._-]+`, name: 'entity.name.namespace.agent.slip' },
          { match: `[^\\s${INVISIBLE}]`, name: 'invalid.illegal.agent-id.slip' },
        ],
      },
      payload: {
        patterns: [
          { include: '#invisible' },
          {
            match: r`(")([^"]*)(")`,
            captures: {
              1: { name: 'punctuation.definition.string.begin.slip' },
              2: { patterns: [{ include: '#invisible' }] },
              3: { name: 'punctuation.definition.string.end.slip' },
            },
            name: 'string.quoted.double.slip',
          },
          {
            match: r`"[^"]*$`,
            name: 'invalid.illegal.unclosed-string.slip',
            captures: { 0: { patterns: [{ include: '#invisible' }] } },
          },
          { match: TOKEN, name: 'string.unquoted.payload.slip' },
        ],
      },
      'not-a-message': {
        comment: 'a line that is neither a comment nor a SLIP message: its first word is wrong',
        match: `^\\s*([^\\s${INVISIBLE}]+)`,
        captures: { 1: { name: 'invalid.illegal.expected-marker.slip' } },
      },
    },
  };
}

// ----------------------------------------------------------- source.silp-json
function silpJsonGrammar() {
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: 'SILP JSON',
    scopeName: 'source.silp-json',
    fileTypes: ['silp.json', 'silp.jsonl'],
    comment: 'Strict JSON (RFC 8259) with the scope names of VS Code\'s JSON grammar; silp-json.injection adds the SILP layer.',
    patterns: [{ include: '#value' }],
    repository: {
      invisible: { patterns: invisiblePatterns('silp-json') },
      value: {
        patterns: [
          { include: '#constant' },
          { include: '#number' },
          { include: '#string' },
          { include: '#array' },
          { include: '#object' },
          { include: '#invisible' },
        ],
      },
      constant: { match: r`\b(?:true|false|null)\b`, name: 'constant.language.json' },
      number: {
        match: r`-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?`,
        name: 'constant.numeric.json',
      },
      string: {
        begin: '"',
        beginCaptures: { 0: { name: 'punctuation.definition.string.begin.json' } },
        end: '"|$',
        endCaptures: { 0: { name: 'punctuation.definition.string.end.json' } },
        name: 'string.quoted.double.json',
        patterns: [{ include: '#stringcontent' }],
      },
      objectkey: {
        begin: '"',
        beginCaptures: { 0: { name: 'punctuation.support.type.property-name.begin.json' } },
        end: '"|$',
        endCaptures: { 0: { name: 'punctuation.support.type.property-name.end.json' } },
        name: 'string.json support.type.property-name.json',
        patterns: [{ include: '#stringcontent' }],
      },
      stringcontent: {
        patterns: [
          { match: r`\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})`, name: 'constant.character.escape.json' },
          { match: r`\\.`, name: 'invalid.illegal.unrecognized-string-escape.json' },
          { include: '#invisible' },
        ],
      },
      array: {
        begin: r`\[`,
        beginCaptures: { 0: { name: 'punctuation.definition.array.begin.json' } },
        end: r`\]`,
        endCaptures: { 0: { name: 'punctuation.definition.array.end.json' } },
        name: 'meta.structure.array.json',
        patterns: [
          { include: '#value' },
          { match: ',', name: 'punctuation.separator.array.json' },
          { match: r`[^\s\]]`, name: 'invalid.illegal.expected-array-separator.json' },
        ],
      },
      object: {
        begin: r`\{`,
        beginCaptures: { 0: { name: 'punctuation.definition.dictionary.begin.json' } },
        end: r`\}`,
        endCaptures: { 0: { name: 'punctuation.definition.dictionary.end.json' } },
        name: 'meta.structure.dictionary.json',
        patterns: [
          { include: '#objectkey' },
          {
            begin: ':',
            beginCaptures: { 0: { name: 'punctuation.separator.dictionary.key-value.json' } },
            end: r`(,)|(?=\})`,
            endCaptures: { 1: { name: 'punctuation.separator.dictionary.pair.json' } },
            name: 'meta.structure.dictionary.value.json',
            patterns: [
              { include: '#value' },
              { match: r`[^\s,]`, name: 'invalid.illegal.expected-dictionary-separator.json' },
            ],
          },
          {
            comment: 'after a pair that silp-json.injection consumed whole (`"req_id": "..."`)',
            match: ',',
            name: 'punctuation.separator.dictionary.pair.json',
          },
          { include: '#invisible' },
          { match: r`[^\s\}]`, name: 'invalid.illegal.expected-dictionary-separator.json' },
        ],
      },
    },
  };
}

// ------------------------------------------------------- silp-json.injection
/** A `"key": "..."` pair whose string `content` is a payload, highlighted by `include`
 *  (what silp-lint lints in place: a string written without escapes). */
function carriedString(comment, key, content, embedded, include) {
  return {
    comment,
    match: `(")(${key})(")\\s*(:)\\s*((")(${content})("))`,
    captures: pairCaptures({ name: embedded, patterns: [{ include }] }),
  };
}

/** The scopes of a `(")(key)(")\s*(:)\s*((")(value)("))` match, as VS Code's JSON
 *  grammar names a pair's parts; `value` is the string content's capture. */
function pairCaptures(value) {
  return {
    1: { name: 'string.json support.type.property-name.json punctuation.support.type.property-name.begin.json' },
    2: { name: 'string.json support.type.property-name.json' },
    3: { name: 'string.json support.type.property-name.json punctuation.support.type.property-name.end.json' },
    4: { name: 'punctuation.separator.dictionary.key-value.json' },
    5: { name: 'string.quoted.double.json' },
    6: { name: 'punctuation.definition.string.begin.json' },
    7: value,
    8: { name: 'punctuation.definition.string.end.json' },
  };
}

// ------------------------------------------------------- source.mcp-call-json, source.a2a-json
/** The grammar of a carrier file: SILP JSON, which silp-json.injection colours. */
function carrierGrammar(name, scopeName, fileType) {
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name,
    scopeName,
    fileTypes: [fileType],
    comment: 'Strict JSON as source.silp-json reads it; silp-json.injection highlights the payloads it carries.',
    patterns: [{ include: 'source.silp-json' }],
  };
}

function silpJsonInjection() {
  const VERBS_UPPER = VERBS.map((v) => v.toUpperCase());
  const EXCLUDED_UPPER = EXCLUDED_VERBS.map((v) => v.toUpperCase());
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: 'SILP JSON action codes and request ids',
    scopeName: 'silp-json.injection',
    comment: 'Injected into source.silp-json (and silp-json fences in Markdown, MCP and A2A files): `!VERB` action codes, `action_<verb>` keys, negated constraint types, `meta.req_id` values, and the payloads MCP wrappers and A2A text parts carry.',
    injectionSelector: 'L:source.silp-json, L:meta.embedded.block.silp-json, L:source.mcp-call-json, L:source.a2a-json',
    patterns: [
      { include: '#req-id' },
      { include: '#carried-payload' },
      { include: '#carried-slip' },
      { include: '#action-code' },
      { include: '#action-key' },
      { include: '#carried-grammars' },
    ],
    repository: {
      'carried-grammars': {
        comment: 'Never matches. The engine loads the grammars a grammar includes from its patterns, not from its captures: listing them here loads the ones the carried payloads are highlighted with.',
        begin: '(?!)',
        end: '(?!)',
        patterns: [{ include: 'source.silp#payload-in-string' }, { include: 'source.slip#message-in-string' }],
      },
      'carried-payload': carriedString(
        'an MCP wrapper\'s `"silp_payload": "..."` on one line, written without escapes and not JSON (which starts with `{` or `[`): a code-frontend payload',
        'silp_payload',
        r`(?!\s*[\[{])[^"\\]*`,
        'meta.embedded.line.silp',
        'source.silp#payload-in-string',
      ),
      'carried-slip': carriedString(
        'an A2A text part `"text": "SLIP ..."` on one line, written without escapes: a Slipstream message',
        'text',
        r`\s*SLIP\s[^"\\]*`,
        'meta.embedded.line.slip',
        'source.slip#message-in-string',
      ),
      'req-id': {
        comment: 'a `"req_id": "..."` pair on one line: 4 to 8 lower-case hex digits',
        match: r`(")(req_id)(")\s*(:)\s*(?:((")([a-f0-9]{4,8})("))|((")([^"]*)(")))`,
        captures: {
          ...pairCaptures({ name: 'constant.other.req-id.silp' }),
          9: { name: 'string.quoted.double.json' },
          10: { name: 'punctuation.definition.string.begin.json' },
          11: { name: 'invalid.illegal.req-id.silp' },
          12: { name: 'punctuation.definition.string.end.json' },
        },
      },
      'action-code': {
        comment: 'a string that is a whole `!VERB` action code or a negated constraint type `!rain`',
        match: `(?<=")(!)(?:(${alt(VERBS_UPPER)})|(${alt(EXCLUDED_UPPER)})|([A-Z]+(?:_[A-Z]+)*)|([a-z_][a-z0-9_]*)|(${NAME}))(?=")`,
        captures: {
          1: { name: 'punctuation.definition.action-code.silp' },
          2: { name: 'entity.name.function.action-code.silp support.function.action-code.silp' },
          3: { name: 'entity.name.function.action-code.excluded.silp invalid.deprecated.excluded-verb.silp' },
          4: { name: 'entity.name.function.action-code.unknown.silp' },
          5: { name: 'variable.other.constraint.negated.silp' },
          6: { name: 'invalid.illegal.action-code.silp' },
        },
      },
      'action-key': {
        comment: 'JSON-frontend keys for secondary actions: `"action_email"`',
        match: `(?<=")(action_)(?:(${alt(VERBS)})|(${alt(EXCLUDED_VERBS)})|(${NAME}))(?=")`,
        captures: {
          1: { name: 'storage.modifier.action-prefix.silp' },
          2: { name: 'entity.name.function.verb.silp support.function.verb.silp' },
          3: { name: 'entity.name.function.excluded.silp invalid.deprecated.excluded-verb.silp' },
          4: { name: 'entity.name.function.unknown.silp' },
        },
      },
    },
  };
}

// --------------------------------------------------- markdown.silp.codeblock
function markdownInjection() {
  const block = (tag, lang, scope) => ({
    begin: `(^|\\G)(\\s*)(\`{3,}|~{3,})\\s*(${tag})((\\s+|[,{])[^\`]*)?$`,
    beginCaptures: {
      3: { name: 'punctuation.definition.markdown' },
      4: { name: 'fenced_code.block.language.markdown' },
      5: { name: 'fenced_code.block.language.attributes.markdown' },
    },
    end: '(^|\\G)(\\2|\\s{0,3})(\\3)\\s*$',
    endCaptures: { 3: { name: 'punctuation.definition.markdown' } },
    name: 'markup.fenced_code.block.markdown',
    patterns: [
      {
        begin: '(^|\\G)(\\s*)(.*)',
        while: '(^|\\G)(?!\\s*([`~]{3,})\\s*$)',
        contentName: `meta.embedded.block.${lang}`,
        patterns: [{ include: scope }],
      },
    ],
  });
  return {
    $schema: 'https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json',
    name: 'SILP fenced code blocks in Markdown',
    scopeName: 'markdown.silp.codeblock',
    comment: 'Fenced blocks tagged silp, slip and silp-json, as silp-lint lints them.',
    injectionSelector: 'L:text.html.markdown -markup.fenced_code -markup.raw -comment',
    patterns: [{ include: '#silp-json-block' }, { include: '#silp-block' }, { include: '#slip-block' }],
    repository: {
      'silp-json-block': block('silp-json', 'silp-json', 'source.silp-json'),
      'silp-block': block('silp', 'silp', 'source.silp'),
      'slip-block': block('slip', 'slip', 'source.slip'),
    },
  };
}

// ------------------------------------------------------------------- output
export const GRAMMARS = {
  'silp.tmLanguage.json': silpGrammar,
  'slip.tmLanguage.json': slipGrammar,
  'silp-json.tmLanguage.json': silpJsonGrammar,
  'silp-json.injection.tmLanguage.json': silpJsonInjection,
  'mcp-call-json.tmLanguage.json': () => carrierGrammar('MCP tool calls (SILP)', 'source.mcp-call-json', 'mcp-call.json'),
  'a2a-json.tmLanguage.json': () => carrierGrammar('A2A messages (Slipstream)', 'source.a2a-json', 'a2a.json'),
  'markdown.injection.tmLanguage.json': markdownInjection,
};
const OUTPUT_DIRS = [here, join(root, 'editors', 'vscode', 'syntaxes')];

function main() {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const [file, make] of Object.entries(GRAMMARS)) {
    const text = JSON.stringify(make(), null, 2) + '\n';
    for (const dir of OUTPUT_DIRS) {
      const path = join(dir, file);
      const current = existsSync(path) ? readFileSync(path, 'utf8') : null;
      if (current === text) continue;
      if (check) {
        stale.push(relative(root, path));
      } else {
        mkdirSync(dir, { recursive: true });
        writeFileSync(path, text);
        console.log(`wrote ${relative(root, path)}`);
      }
    }
  }
  if (stale.length > 0) {
    console.error(`grammar files out of date (run \`node grammar/build.mjs\`): ${stale.join(', ')}`);
    process.exit(1);
  }
  if (check) console.log(`grammars up to date (${Object.keys(GRAMMARS).length} grammars, ${OUTPUT_DIRS.length} copies each)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
