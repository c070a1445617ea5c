// A user of @mcpproxy/extension alone, beside the SDK's @modelcontextprotocol/server (its peer) and
// nothing else of ours: a plain low-level SDK Server (not a gateway) whose own state says why a tool
// is unavailable attaches the extension, and a rider on each revision gets the facet, checked with
// the strict validators of the @mcpproxy/schema the extension brought along. The wire is raw
// JSON-RPC, as any client sends it: 2025-11-25 over an in-memory connection (initialize declares
// the extension), 2026-07-28 through createMcpHandler's fetch face (each request's envelope
// declares it). No network. Prints a JSON report.
import { RequiredToolsExtension } from '@mcpproxy/extension';
import { checkValue, EXTENSION_ID, strictValidators } from '@mcpproxy/schema';
import { createMcpHandler, InMemoryTransport, Server } from '@modelcontextprotocol/server';

const TOOLS = [
  { name: 'lookup', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'send_report', inputSchema: { type: 'object' }, annotations: { readOnlyHint: false } },
];
// A repeated id and one the server does not list: dedup and not_found are the package's.
const RIDER = { tools: [{ id: 'lookup' }, { id: 'send_report' }, { id: 'lookup' }, { id: 'archive' }] };

const records = [];
const extension = new RequiredToolsExtension({
  state: () => ({ send_report: { reason: 'server_initializing', detail: 'The report queue is still starting.' } }),
  activity: (record) => {
    records.push(record);
  },
});

function plainServer(era) {
  const server = new Server({ name: 'plain', version: '1.0.0' }, { capabilities: { tools: {} } });
  extension.attach(server, { era });
  server.setRequestHandler('tools/list', () => ({ tools: TOOLS }));
  return server;
}

function checked(listed) {
  const facet = listed.result?._meta?.[EXTENSION_ID];
  const strict = checkValue(strictValidators.ResponseFacet, facet);
  return { facet: facet ?? null, strict: strict.ok, errors: strict.ok ? [] : strict, listed: (listed.result?.tools ?? []).map((t) => t.name), error: listed.error ?? null };
}

async function legacy() {
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map();
  client.onmessage = (message) => {
    const answer = waiting.get(message.id);
    if (answer !== undefined) {
      waiting.delete(message.id);
      answer(message);
    }
  };
  await plainServer('legacy').connect(serverSide);
  await client.start();
  const request = (id, method, params) =>
    new Promise((resolve) => {
      waiting.set(id, resolve);
      void client.send({ jsonrpc: '2.0', id, method, params });
    });
  const initialized = await request(1, 'initialize', {
    protocolVersion: '2025-11-25',
    capabilities: { experimental: { [EXTENSION_ID]: { version: 1 } } },
    clientInfo: { name: 'extension-consumer', version: '1.0.0' },
  });
  await client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  const listed = await request(2, 'tools/list', { _meta: { [EXTENSION_ID]: RIDER } });
  await client.close();
  return { advertised: initialized.result?.capabilities?.experimental?.[EXTENSION_ID] ?? null, ...checked(listed) };
}

async function modern() {
  const handler = createMcpHandler(() => plainServer('modern'), { legacy: 'reject' });
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXTENSION_ID]: { version: 1 } } },
  };
  const post = async (id, method, meta) => {
    const response = await handler.fetch(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': method },
        body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { _meta: { ...envelope, ...meta } } }),
      }),
    );
    const text = await response.text();
    return JSON.parse(text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? 'null'));
  };
  const discovered = await post(1, 'server/discover', {});
  const listed = await post(2, 'tools/list', { [EXTENSION_ID]: RIDER });
  return { advertised: discovered?.result?.capabilities?.extensions?.[EXTENSION_ID] ?? null, discover_error: discovered?.error ?? null, ...checked(listed) };
}

const eras = { '2025-11-25': await legacy(), '2026-07-28': await modern() };
process.stdout.write(
  `${JSON.stringify({
    eras,
    records: records.map((record) => ({ surface: record.surface, verdict: record.metadata?.verdict, strict: checkValue(strictValidators.PreflightActivityRecord, record).ok })),
  })}\n`,
);
