// The batch_resolve prototype (docs/decisions/0004-shape-b-batch.md): tools/resolve naming 1-50 tools
// in one exchange, only when the server enabled it AND the client asked; a client that did not ask
// gets exactly what a server without the experiment answers. Real SDK client and server, in memory.
import { describe, expect, it } from 'vitest';
import { prepareSnapshot, type GatewaySnapshot } from '@mcpproxy/evaluator';
import { checkValue, EXTENSION_ID, strictValidators, type PreflightActivityRecord } from '@mcpproxy/schema';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { RequiredToolsExtension, type ExtensionExperiment } from '../src/index.js';
import { oneServerSnapshot } from './one-server-snapshot.js';

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
const HASH = `sha256/v1:${'a'.repeat(64)}`;
const ASKING = { version: 1, experimental: { batch_resolve: true } };

/** Upstream `files`: `read` approved and ready, `write` quarantined for review (pending). */
function filesSnapshot(): GatewaySnapshot {
  return oneServerSnapshot('files', HASH, [{ name: 'read' }, { name: 'write', status: 'pending' }]);
}

const Answer = z.looseObject({});

/** One 2025-11-25 session whose client declares `settings`; sends `params` as tools/resolve and returns the result or the error. */
async function resolveOnce(experiments: ExtensionExperiment[] | undefined, settings: { [key: string]: Json }, params: { [key: string]: Json }, records: PreflightActivityRecord[]): Promise<unknown> {
  const prepared = prepareSnapshot(filesSnapshot());
  const extension = new RequiredToolsExtension({
    gateway: { state: () => ({ prepared, scope: { allowed_servers: '*' } }) },
    activity: (record) => records.push(record),
    ...(experiments === undefined ? {} : { experiments }),
  });
  const server = new Server({ name: 'files', version: '1.0.0' }, { capabilities: { tools: {} } });
  extension.attach(server, { era: 'legacy' });
  server.setRequestHandler('tools/list', () => ({ tools: ['files:read', 'files:write'].map((name) => ({ name, inputSchema: { type: 'object' as const } })) }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'batch-test', version: '1.0.0' }, { capabilities: { experimental: { [EXTENSION_ID]: settings } } });
  await client.connect(clientSide);
  try {
    return await client.request({ method: 'tools/resolve', params }, Answer);
  } catch (error) {
    return { error: (error as { code?: number }).code, message: (error as Error).message };
  } finally {
    await client.close();
  }
}

const BATCH = { batch: [{ name: 'files:read' }, { name: 'ghost:thing' }, { name: 'files:write', arguments: { path: '/tmp' } }] };

describe('batch_resolve enabled and asked for', () => {
  it('answers every entry as its single resolve would, in one evaluation and one record, with the set verdict', async () => {
    const records: PreflightActivityRecord[] = [];
    const batch = await resolveOnce(['batch_resolve'], ASKING, BATCH, records);
    expect(checkValue(strictValidators.BatchResolveResult, batch).ok, JSON.stringify(batch)).toBe(true);
    const { results, _meta } = batch as { results: Record<string, unknown>[]; _meta: Record<string, { verdict: string; request_id: string }> };
    expect(results.map((entry) => (Object.hasOwn(entry, 'tool') ? (entry['tool'] as { name: string }).name : entry['name']))).toEqual(['files:read', 'ghost:thing', 'files:write']);
    expect(_meta[EXTENSION_ID]?.verdict).toBe('unknown_ids');
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ surface: 'mcp-resolve', request_id: _meta[EXTENSION_ID]?.request_id });

    // Each entry equals the single tools/resolve of its name (facet, or the -32602 error's message).
    const singles: unknown[] = [];
    for (const { name } of BATCH.batch) singles.push(await resolveOnce(undefined, { version: 1 }, { name }, []));
    BATCH.batch.forEach(({ name }, i) => {
      const single = singles[i] as { tool?: Record<string, unknown>; message?: string };
      const entry = results[i]!;
      if (single.tool !== undefined) expect((entry['tool'] as Record<string, unknown>)['_meta'], name).toEqual(single.tool['_meta']);
      else expect(entry, name).toMatchObject({ name, error: { code: -32602, message: single.message!.replace(/^MCP error -32602: /, '') } });
    });
    expect(results.filter((entry) => Object.hasOwn(entry, 'tool'))).toHaveLength(1);
  });

  it('refuses an empty or an over-50 batch as -32602 naming the batch, nothing recorded', async () => {
    const records: PreflightActivityRecord[] = [];
    const empty = await resolveOnce(['batch_resolve'], ASKING, { batch: [] }, records);
    const over = await resolveOnce(['batch_resolve'], ASKING, { batch: Array.from({ length: 51 }, (_, i) => ({ name: `files:t${i}` })) }, records);
    expect(empty).toMatchObject({ error: -32602 });
    expect((empty as { message: string }).message).toMatch(/batch must NOT have (fewer|more) than/);
    expect(over).toMatchObject({ error: -32602 });
    expect((over as { message: string }).message).toMatch(/batch must NOT have (fewer|more) than/);
    expect(records).toEqual([]);
  });
});

describe('batch_resolve off: exactly settings version 1', () => {
  it('a batch from a client that did not ask, or to a server that did not enable it, gets the error of a server without the experiment', async () => {
    const records: PreflightActivityRecord[] = [];
    const today = await resolveOnce(undefined, { version: 1 }, BATCH, records);
    expect(today).toMatchObject({ error: -32602 });
    const cases: [ExtensionExperiment[] | undefined, { [key: string]: Json }][] = [
      [['batch_resolve'], { version: 1 }], // a v1 mirror
      [['batch_resolve'], { version: 1, experimental: { batch_resolve: false } }],
      [['batch_resolve'], { version: 1, experimental: { pins: true } }],
      [undefined, ASKING],
      [['pins'], ASKING],
    ];
    for (const [enabled, settings] of cases) {
      expect(await resolveOnce(enabled, settings, BATCH, records), JSON.stringify({ enabled, settings })).toEqual(today);
    }
    expect(records).toEqual([]);
  });

  it('a single resolve is answered alike with the experiment enabled and asked for', async () => {
    const strip = (answer: unknown) => JSON.parse(JSON.stringify(answer));
    for (const name of ['files:read', 'files:write', 'ghost:thing']) {
      const today = await resolveOnce(undefined, { version: 1 }, { name }, []);
      expect(strip(await resolveOnce(['batch_resolve'], ASKING, { name }, []))).toEqual(strip(today));
    }
  });
});
