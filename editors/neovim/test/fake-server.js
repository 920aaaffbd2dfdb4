// A stand-in language server for the Neovim check: answers `initialize` and
// `shutdown`, and logs every message it receives (one JSON object per line).
'use strict';
const fs = require('node:fs');
const log = process.argv[2];
let buffer = Buffer.alloc(0);

function send(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', ...message }), 'utf8');
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}

process.stdin.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const headerEnd = buffer.indexOf('\r\n\r\n');
    if (headerEnd < 0) return;
    const match = /Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString('ascii'));
    if (!match) process.exit(1);
    const length = Number(match[1]);
    if (buffer.length < headerEnd + 4 + length) return;
    const message = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8'));
    buffer = buffer.subarray(headerEnd + 4 + length);
    fs.appendFileSync(log, JSON.stringify(message) + '\n');
    if (message.method === 'initialize') {
      send({ id: message.id, result: { capabilities: { textDocumentSync: 1 }, serverInfo: { name: 'fake-silp-lsp' } } });
    } else if (message.method === 'shutdown') {
      send({ id: message.id, result: null });
    } else if (message.method === 'exit') {
      process.exit(0);
    }
  }
});
