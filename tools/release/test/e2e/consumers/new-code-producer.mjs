// A producer that emits a reason code only the new release knows, built from the NEW packages:
// POST /api/v1/preflight answers a RestPreflightResponse (checked with the new schema's strict
// validator before serving, so it is a legal answer of the new settings version), and /mcp is a
// plain SDK server with the new @mcpproxy/extension attached, its state saying why the one tool is
// unavailable. argv[2]: a JSON file with the unavailable tool verdict carrying the code; the tool
// whose id it names is unavailable, every other requested id is ready.
// Prints {"origin": ...} once listening; runs until killed.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { RequiredToolsExtension } from '@mcpproxy/extension';
import { checkValue, strictValidators } from '@mcpproxy/schema';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, Server } from '@modelcontextprotocol/server';

const unavailable = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const REQUEST_ID = '01a22c6c-5689-7000-8e5d-2141543ae087';

function verdictFor(ids) {
  const tools = ids.map((id) => (id === unavailable.id ? unavailable : { id, status: 'ready' }));
  const verdict = tools.some((t) => t.status !== 'ready') ? 'degraded_retryable' : 'ready';
  return { verdict, checked_at: new Date().toISOString(), request_id: REQUEST_ID, tools };
}

function legal(def, value) {
  const checked = checkValue(strictValidators[def], value);
  if (!checked.ok) throw new Error(`not a legal ${def}: ${JSON.stringify(checked)}`);
  return value;
}
// Refuse to start at all unless the answer is legal for the new release.
legal('RestPreflightResponse', verdictFor(['demo:echo', unavailable.id]));

const listed = [{ name: 'demo:echo', inputSchema: { type: 'object' } }, { name: unavailable.id, inputSchema: { type: 'object' } }];
// The server's own words for the tool; the extension adds what the new registry says of the code.
const said = Object.fromEntries(['reason', 'action', 'detail', 'remediation'].filter((key) => unavailable[key] !== undefined).map((key) => [key, unavailable[key]]));
const extension = new RequiredToolsExtension({
  state: () => ({ [unavailable.id]: said }),
  // Nothing here reads the records: the clients' answers are what the test checks.
  activity: () => undefined,
});
const mcp = createMcpHandler(() => {
  const server = new Server({ name: 'new-code-producer', version: '1.0.0' }, { capabilities: { tools: {} } });
  extension.attach(server, { era: 'modern' });
  server.setRequestHandler('tools/list', () => ({ tools: listed }));
  return server;
}, { legacy: 'reject' });
const mcpHandler = toNodeHandler({ fetch: (request) => mcp.fetch(request) });

const http = createServer((req, res) => {
  if ((req.url ?? '').startsWith('/mcp')) {
    void mcpHandler(req, res);
    return;
  }
  if (req.method === 'POST' && req.url === '/api/v1/preflight') {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const ids = JSON.parse(body).tools.map((t) => t.id);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(legal('RestPreflightResponse', verdictFor(ids))));
    });
    return;
  }
  res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not_found"}');
});
http.listen(0, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ origin: `http://127.0.0.1:${http.address().port}` })}\n`));
