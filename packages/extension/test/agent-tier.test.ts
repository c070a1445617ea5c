// The in-band surfaces answer at the agent tier whoever asks, through the package's public API: a
// server outside the caller's scope and one not configured at all both read as the not_found an
// unknown tool gets (nothing tells the caller which servers exist), and a ready tool carries no
// hash. The same snapshot evaluated at the operator tier tells all three apart, so the data can
// show a broken tier rule.
import { describe, expect, it } from 'vitest';
import { evaluate, prepareSnapshot, type GatewaySnapshot, type IndexedTool, type PreflightRequest, type Scope } from '@mcpproxy/evaluator';
import { checkValue, EXTENSION_ID, strictValidators, type PreflightActivityRecord } from '@mcpproxy/schema';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server, type Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { RequiredToolsExtension } from '../src/index.js';

const HASH = `sha256/v1:${'d'.repeat(64)}`;
const SCOPE: Scope = { allowed_servers: ['weather'] };
const REQUESTED = ['weather:forecast', 'secret:files', 'ghost:files'];

/** Two configured servers, both ready: `weather` (in the caller's scope) and `secret` (outside it). */
function snapshot(): GatewaySnapshot {
  const server = (name: string, tool: string) => {
    const indexed: IndexedTool = { name: tool, hash: HASH, annotations: { readOnlyHint: true } };
    return {
      name,
      enabled: true,
      quarantined: false,
      connection: { state: 'ready' as const, ever_ready: true },
      tools: new Map([[tool, indexed]]),
      approvals: new Map([[tool, { tool, status: 'approved' as const, approved_hash: HASH, current_hash: HASH, hash_schema_version: 1, user_disabled: false }]]),
      enabled_tools: [],
      disabled_tools: [],
      auto_approve_tool_changes: false,
    };
  };
  return { version: 1, tool_quarantine: true, profiles: new Map(), servers: new Map([['weather', server('weather', 'forecast')], ['secret', server('secret', 'files')]]) };
}

const PREPARED = prepareSnapshot(snapshot());
const LISTED: Tool[] = [{ name: 'weather:forecast', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }];
const ResolveResult = z.looseObject({ tool: z.looseObject({ name: z.string(), _meta: z.record(z.string(), z.unknown()).optional() }) });

async function connected(records: PreflightActivityRecord[]): Promise<{ client: Client; extension: RequiredToolsExtension; server: Server }> {
  const extension = new RequiredToolsExtension({ gateway: { state: () => ({ prepared: PREPARED, scope: SCOPE }) }, activity: (record) => records.push(record) });
  const server = new Server({ name: 'scoped-gateway', version: '1.0.0' }, { capabilities: { tools: {} } });
  extension.attach(server, { era: 'legacy' });
  server.setRequestHandler('tools/list', () => ({ tools: LISTED }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'agent-tier-test', version: '1.0.0' }, { capabilities: { experimental: { [EXTENSION_ID]: { version: 1 } } } });
  await client.connect(clientSide);
  return { client, extension, server };
}

/** An answer for one id with the id's server name swapped, to compare two answers word for word. */
const renamed = (value: unknown, from: string, to: string) => JSON.parse(JSON.stringify(value).replaceAll(from, to)) as unknown;

describe('the agent tier on every in-band surface', () => {
  it('the snapshot tells the three apart at the operator tier (the oracle below has something to miss)', () => {
    const request: PreflightRequest = { tools: REQUESTED.map((id) => ({ id })) };
    const operator = evaluate(PREPARED, request, { tier: 'operator', scope: SCOPE });
    expect(operator.tools.map((t) => [t.reason ?? t.status, t.hash])).toEqual([
      ['ready', HASH],
      ['server_not_in_scope', undefined],
      ['server_not_configured', undefined],
    ]);
  });

  it('rider, check mode and resolve: out of scope and unconfigured are the same not_found, ready has no hash', async () => {
    const records: PreflightActivityRecord[] = [];
    const { client, extension, server } = await connected(records);
    try {
      const listed = await client.request({ method: 'tools/list', params: { _meta: { [EXTENSION_ID]: { tools: REQUESTED.map((id) => ({ id })) } } } });
      const rider = checkValue(strictValidators.ResponseFacet, listed._meta?.[EXTENSION_ID]);
      if (!rider.ok) throw new Error(`the rider's facet is not schema-valid: ${JSON.stringify(rider)}`);
      const checked = await extension.checkMode(server, { tool_ids: REQUESTED, check: true }, {} as never);
      const checkMode = JSON.parse((checked.content[0] as { text: string }).text) as { results: Record<string, unknown>[] };

      for (const tools of [rider.value.tools as unknown as Record<string, unknown>[], checkMode.results]) {
        expect(tools.map((t) => t['reason'] ?? t['status'])).toEqual(['ready', 'not_found', 'not_found']);
        expect(Object.hasOwn(tools[0]!, 'hash')).toBe(false);
        // Word for word the answer of a server that does not exist: nothing says `secret` is configured.
        expect(renamed(tools[1], 'secret', 'ghost')).toEqual(tools[2]);
      }
      expect(JSON.stringify(listed._meta)).not.toContain('sha256/');
      expect(JSON.stringify(checkMode)).not.toContain('sha256/');

      const resolved = await client.request({ method: 'tools/resolve', params: { name: 'weather:forecast', arguments: {} } }, ResolveResult);
      expect(resolved.tool._meta?.[EXTENSION_ID]).toEqual({ status: 'ready' });

      expect(records.map((r) => [r.surface, r.status])).toEqual([
        ['mcp-rider', 'blocked'],
        ['mcp-check', 'blocked'],
        ['mcp-resolve', 'success'],
      ]);
      expect(JSON.stringify(records)).not.toContain('sha256/');
    } finally {
      await client.close();
    }
  });
});
