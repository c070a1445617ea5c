// A 2026-07-28 answer built on prepared bytes is handed over before the SDK tears down the
// per-request server instance: the teardown (closing the instance, settling and aborting what it
// held) waits for the next turn instead of delaying the answer; it still happens, once per request.
// An answer that is not prepared bytes keeps the SDK's order.
import { Server, type ListToolsResult } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createMcpEndpoint } from '../src/mcp/mcp-endpoint.js';
import type { McpIdentity } from '../src/mcp/mcp-identity.js';
import type { ServedListing } from '../src/mcp/served-listing.js';
import { toolListPage } from '../src/mcp/tool-list-page.js';

const MODERN = '2026-07-28';
const identity: McpIdentity = { key: 'teardown-test', scope: { allowed_servers: '*' } };
const listing: ServedListing = { entries: [{ server: 'a', tool: 'x', definition: { name: 'a:x', inputSchema: { type: 'object' } }, source: { name: 'x', inputSchema: { type: 'object' } } }] };

/** A tools/list POST; with a cursor, the test server answers with a listing that has no prepared bytes. */
function modernPost(method: string, cursor?: string): Request {
  const meta = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} };
  const body = { jsonrpc: '2.0', id: 7, method, params: { _meta: meta, ...(cursor === undefined ? {} : { cursor }) } };
  return new Request('http://127.0.0.1/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': MODERN, 'mcp-method': method },
    body: JSON.stringify(body),
  });
}

describe('2026-07-28 answers on prepared bytes', () => {
  it('go out before the per-request instance is torn down; the teardown follows in the next turn', async () => {
    const events: string[] = [];
    const endpoint = createMcpEndpoint({
      createServer: () => {
        const server = new Server({ name: 'teardown', version: '1.0.0' }, { capabilities: { tools: {} } });
        server.setRequestHandler('tools/list', (request): ListToolsResult => (request.params?.cursor === undefined ? toolListPage(listing, undefined, 10) : { tools: [] }));
        server.onclose = () => events.push('closed');
        return server;
      },
    });
    try {
      for (const method of ['tools/list', 'tools/list']) {
        events.length = 0;
        const response = await endpoint.fetch(modernPost(method), identity);
        events.push('answered');
        const text = await response.text();
        expect(response.status).toBe(200);
        const parsed = JSON.parse(text) as { id: number; result: ListToolsResult };
        expect(text).toBe(JSON.stringify(parsed));
        expect(parsed.id).toBe(7);
        expect(parsed.result.tools.map((tool) => tool.name)).toEqual(['a:x']);
        await new Promise((resolve) => setImmediate(resolve));
        expect(events).toEqual(['answered', 'closed']);
      }
      // Not prepared bytes: the SDK's own order (the instance is closed by the time the answer is out).
      events.length = 0;
      const plain = await endpoint.fetch(modernPost('tools/list', 'unprepared'), identity);
      events.push('answered');
      expect(plain.status).toBe(200);
      expect(JSON.parse(await plain.text())).toMatchObject({ id: 7, result: { tools: [] } });
      await new Promise((resolve) => setImmediate(resolve));
      expect(events).toEqual(['closed', 'answered']);
    } finally {
      await endpoint.close();
    }
  });
});
