'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const { ruleList, initializationOptions, documentSelector, RESTART_SETTINGS } = require('../out/settings.js');

test('rule lists keep non-empty strings, trimmed, upper-cased, once', () => {
  assert.deepEqual(ruleList([' sl1 ', 'SL201', 'SL1', '', 3, null, 'all']), ['SL1', 'SL201', 'ALL']);
  assert.deepEqual(ruleList('SL1'), []);
  assert.deepEqual(ruleList(undefined), []);
});

test('initialization options carry the rule selection and the Markdown switch', () => {
  const values = { 'lint.select': ['SL1'], 'lint.ignore': ['sl302'], 'markdown.enable': false, draft: '00' };
  assert.deepEqual(initializationOptions((k) => values[k]), {
    lint: { select: ['SL1'], ignore: ['SL302'] },
    markdown: false,
    draft: '00',
  });
  assert.deepEqual(initializationOptions(() => undefined), {
    lint: { select: [], ignore: [] },
    markdown: true,
    draft: '02',
  });
  // An unknown revision falls back to the newest, as the server's default.
  assert.equal(initializationOptions((k) => (k === 'draft' ? '7' : undefined)).draft, '02');
});

test('the document selector covers the payload languages, MCP, A2A and NLIP files and (optionally) Markdown', () => {
  assert.deepEqual(documentSelector(true), [
    { language: 'silp' },
    { language: 'slip' },
    { language: 'silp-json' },
    { language: 'mcp-call-json' },
    { language: 'a2a-json' },
    { pattern: '**/*.nlip.json' },
    { language: 'markdown' },
  ]);
  assert.ok(!documentSelector(false).some((f) => f.language === 'markdown'));
  assert.deepEqual([...RESTART_SETTINGS], ['silp.server.path', 'silp.markdown.enable']);
});
