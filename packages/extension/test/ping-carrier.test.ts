// The ping_carrier prototype (docs/decisions/0001-shape-a-carrier.md): the Shape A rider on ping, only
// when the server enabled it AND the client asked; any other ping gets today's empty result whatever
// its _meta says. Real SDK client and server, in memory, on a 2025-11-25 session (the benchmark
// drives both revisions through the gateway over HTTP).
import { describe, expect, it } from 'vitest';
import { checkValue, EXTENSION_ID, strictValidators, type PreflightActivityRecord } from '@mcpproxy/schema';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { RequiredToolsExtension, type ExtensionExperiment } from '../src/index.js';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
const ASKING = { version: 1, experimental: { ping_carrier: true } };
const RIDER = { tools: [{ id: 'weather:forecast' }, { id: 'weather:radar' }, { id: 'ghost:x' }] };
const Answer = z.looseObject({});

/** A server with two tools, radar down for maintenance; one session whose client declares `settings`; sends `method` with `_meta`. */
async function send(experiments: ExtensionExperiment[] | undefined, settings: { [key: string]: Json }, method: 'ping' | 'tools/list', meta: { [key: string]: Json } | undefined, records: PreflightActivityRecord[]): Promise<unknown> {
  const extension = new RequiredToolsExtension({
    state: () => ({ 'weather:radar': { reason: 'server_unhealthy', detail: 'Radar is down for maintenance.' } }),
    activity: (record) => records.push(record),
    ...(experiments === undefined ? {} : { experiments }),
  });
  const server = new Server({ name: 'weather', version: '1.0.0' }, { capabilities: { tools: {} } });
  extension.attach(server, { era: 'legacy' });
  server.setRequestHandler('tools/list', () => ({ tools: ['weather:forecast', 'weather:radar'].map((name) => ({ name, inputSchema: { type: 'object' as const } })) }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'ping-test', version: '1.0.0' }, { capabilities: { experimental: { [EXTENSION_ID]: settings } } });
  await client.connect(clientSide);
  try {
    return await client.request({ method, params: meta === undefined ? {} : { _meta: meta } }, Answer);
  } catch (error) {
    return { error: (error as { code?: number }).code, message: (error as Error).message };
  } finally {
    await client.close();
  }
}

/** The facet without what differs per check (the request id and the time). */
function verdictOf(answer: unknown): unknown {
  const facet = (answer as { _meta?: Record<string, Record<string, unknown>> })._meta?.[EXTENSION_ID];
  if (facet === undefined) return undefined;
  const { request_id: _id, checked_at: _at, ...rest } = facet;
  return rest;
}

describe('ping_carrier enabled and asked for', () => {
  it('answers the rider on ping exactly as on tools/list, with one mcp-rider record, and no listing', async () => {
    const records: PreflightActivityRecord[] = [];
    const ping = await send(['ping_carrier'], ASKING, 'ping', { [EXTENSION_ID]: RIDER }, records);
    const listed = await send(['ping_carrier'], ASKING, 'tools/list', { [EXTENSION_ID]: RIDER }, records);
    expect(checkValue(strictValidators.ShapeAPingResponse, { jsonrpc: '2.0', id: 1, result: ping }).ok, JSON.stringify(ping)).toBe(true);
    expect(verdictOf(ping)).toMatchObject({ verdict: 'unknown_ids' });
    expect(verdictOf(ping)).toEqual(verdictOf(listed));
    expect(Object.keys(ping as object)).toEqual(['_meta']);
    expect(records.map((record) => record.surface)).toEqual(['mcp-rider', 'mcp-rider']);
  });

  it('a malformed rider on ping is the tools/list rider\'s -32602, nothing recorded; a ping without a rider stays empty', async () => {
    const records: PreflightActivityRecord[] = [];
    const malformed = { [EXTENSION_ID]: { tools: [] } };
    const onPing = await send(['ping_carrier'], ASKING, 'ping', malformed, records);
    const onList = await send(['ping_carrier'], ASKING, 'tools/list', malformed, records);
    expect(onPing).toMatchObject({ error: -32602 });
    expect(onPing).toEqual(onList);
    expect(await send(['ping_carrier'], ASKING, 'ping', undefined, records)).toEqual({});
    expect(records).toEqual([]);
  });
});

describe('ping_carrier off: ping is exactly today\'s', () => {
  it('a ping with a rider, well-formed or not, gets the empty result and evaluates nothing unless both sides ask', async () => {
    const records: PreflightActivityRecord[] = [];
    const cases: [ExtensionExperiment[] | undefined, { [key: string]: Json }][] = [
      [['ping_carrier'], { version: 1 }], // a v1 mirror
      [['ping_carrier'], { version: 1, experimental: { ping_carrier: false } }],
      [['ping_carrier'], { version: 1, experimental: { batch_resolve: true } }],
      [undefined, ASKING],
      [['batch_resolve'], ASKING],
    ];
    for (const [enabled, settings] of cases) {
      for (const rider of [RIDER, { tools: [] }, 'not a rider']) {
        expect(await send(enabled, settings, 'ping', { [EXTENSION_ID]: rider }, records), JSON.stringify({ enabled, settings, rider })).toEqual({});
      }
    }
    expect(records).toEqual([]);
  });
});
