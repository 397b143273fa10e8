// SPDX-License-Identifier: Apache-2.0
// The JSON Schema `capops-lint schema` writes, in the YAML language server as
// an editor runs it (yaml-language-server over stdio, the schema named by the
// modeline `capops-lint init` writes):
//   - a size without its unit is told the schema's message, not "Incorrect
//     type. Expected string | null", on a required and an optional field;
//   - an enum member's other spelling, which capops reads, is no problem;
//   - completion offers each member once, in its YAML spelling;
//   - hover shows the Markdown description, its backticks not escaped.
// Usage: node check_yaml_language_server.js SCHEMA DIR. Prints `ok: …` or
// `FAIL: …` lines; exit 1 after any failure.
const fs = require('fs');
const path = require('path');
const {spawn} = require('child_process');

const [schema, dir] = process.argv.slice(2);
const server = spawn(process.execPath,
    [path.join(__dirname, 'node_modules', 'yaml-language-server', 'bin', 'yaml-language-server'),
     '--stdio'],
    {stdio: ['pipe', 'pipe', 'inherit']});
let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok' : 'FAIL'}: ${what}`);
  if (!ok) failures++;
};

// The protocol: framed JSON-RPC both ways.
let buffer = Buffer.alloc(0), nextId = 1;
const pending = new Map(), diagnostics = new Map(), waiters = [];
const send = message => {
  const body = Buffer.from(JSON.stringify({jsonrpc: '2.0', ...message}));
  server.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
  server.stdin.write(body);
};
const request = (method, params) => new Promise(resolve => {
  const id = nextId++;
  pending.set(id, resolve);
  send({id, method, params});
});
server.stdout.on('data', chunk => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf('\r\n\r\n');
    if (end < 0) return;
    const length = Number(/Content-Length: *(\d+)/i.exec(buffer.slice(0, end).toString())[1]);
    if (buffer.length < end + 4 + length) return;
    const message = JSON.parse(buffer.slice(end + 4, end + 4 + length).toString());
    buffer = buffer.slice(end + 4 + length);
    if (message.method && message.id !== undefined) {  // a request to the editor
      const settings = {yaml: {validate: true, hover: true, completion: true}};
      send({id: message.id, result: message.method === 'workspace/configuration'
                                         ? message.params.items.map(() => settings.yaml)
                                         : null});
    } else if (message.method === 'textDocument/publishDiagnostics') {
      diagnostics.set(message.params.uri, message.params.diagnostics);
      waiters.splice(0).forEach(w => w());
    } else if (message.id !== undefined && pending.has(message.id)) {
      pending.get(message.id)(message.result);
      pending.delete(message.id);
    }
  }
});
const published = (uri, ms) => new Promise(resolve => {
  const deadline = setTimeout(() => resolve(diagnostics.get(uri) || null), ms);
  const poll = () => {
    const got = diagnostics.get(uri);
    if (got && got.length) { clearTimeout(deadline); resolve(got); } else waiters.push(poll);
  };
  poll();
});

const open = (name, text) => {
  const file = path.join(dir, name), uri = 'file://' + file;
  fs.writeFileSync(file, text);
  send({method: 'textDocument/didOpen',
        params: {textDocument: {uri, languageId: 'yaml', version: 1, text}}});
  return uri;
};

(async () => {
  const timer = setTimeout(() => { check(false, 'the server answered within 60 s'); process.exit(1); }, 60000);
  await request('initialize', {
    processId: process.pid, rootUri: 'file://' + dir,
    capabilities: {textDocument: {hover: {contentFormat: ['markdown', 'plaintext']},
                                  completion: {completionItem: {snippetSupport: true}}},
                   workspace: {configuration: true}},
  });
  send({method: 'initialized', params: {}});
  send({method: 'workspace/didChangeConfiguration',
        params: {settings: {yaml: {validate: true, hover: true, completion: true}}}});
  const head = `# yaml-language-server: $schema=${schema}\napiVersion: capops.dev/v1\nkind: Inventory\n`;
  const text = head + 'accelerator_types:\n  - id: l4\n    model: L4\n    memory: 80\n' +
      '    interconnect: pcie4\npools:\n  - id: p\n    accelerator: l4\n    hosts: 1\n' +
      '    gpus_per_host: 4\n    region: eu\n    role: production_replacement\n' +
      '    host_memory: 512\n';
  const lines = text.split('\n');
  const uri = open('inventory.yaml', text);
  const found = (await published(uri, 30000)) || [];
  const on = key => found.filter(d => lines[d.range.start.line].trim().startsWith(key + ':'));
  for (const key of ['memory', 'host_memory']) {
    const said = on(key).map(d => d.message);
    check(said.length === 1 && /expected a size with its unit: `80GiB`/.test(said[0]) &&
              !/Incorrect type/.test(said[0]),
          `${key} without a unit is told what a size is: ${JSON.stringify(said)}`);
  }
  check(on('role').length === 0, `role: production_replacement passes: ${JSON.stringify(on('role'))}`);
  check(found.length === 2, `only those two are problems: ${JSON.stringify(found.map(d => d.message))}`);

  // Completion of a member: each once, as YAML spells it.
  const blank = head + 'pools:\n  - id: p\n    role: \n';
  const blankUri = open('blank.yaml', blank);
  const list = await request('textDocument/completion', {
    textDocument: {uri: blankUri}, position: {line: 5, character: 10}});
  const labels = ((list && list.items) || list || []).map(i => i.label);
  check(labels.includes('production-replacement') && !labels.includes('production_replacement') &&
            labels.includes('research'),
        `role completes to one spelling per member: ${JSON.stringify(labels)}`);

  // Hover: the Markdown description, backticks as code.
  const hover = await request('textDocument/hover', {
    textDocument: {uri}, position: {line: lines.findIndex(l => l.includes('memory: 80')), character: 6}});
  const shown = hover && hover.contents ? JSON.stringify(hover.contents) : '';
  check(/`80GiB`/.test(shown) && !/\\\\`/.test(shown) && /Device memory per accelerator/.test(shown),
        `hover on memory shows its Markdown description: ${shown.slice(0, 200)}`);

  clearTimeout(timer);
  server.kill();
  process.exit(failures ? 1 : 0);
})();
