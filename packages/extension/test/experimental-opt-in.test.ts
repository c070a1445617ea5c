// The opt-in of the decision records' prototypes (docs/decisions/README.md): a prototype serves a
// request only when the server enabled it AND the client asked for it by name in its declaration of
// the extension. Through the public API, over a real SDK client and server in one process.
import { describe, expect, it } from 'vitest';
import { prepareSnapshot, type GatewaySnapshot } from '@mcpproxy/evaluator';
import { EXTENSION_ID, type PreflightActivityRecord } from '@mcpproxy/schema';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server } from '@modelcontextprotocol/server';
import { EXTENSION_EXPERIMENTS, RequiredToolsExtension, type ExtensionExperiment } from '../src/index.js';
import { oneServerSnapshot } from './one-server-snapshot.js';

/** A client's declaration of the extension, as JSON (what the SDK's capabilities accept). */
type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Declaration = { [key: string]: Json };

const HASH = `sha256/v1:${'a'.repeat(64)}`;
const OTHER = `sha256/v1:${'b'.repeat(64)}`;

/** One upstream `files` with one approved tool `read`, whose hash is HASH. */
function filesSnapshot(): GatewaySnapshot {
  return oneServerSnapshot('files', HASH, [{ name: 'read' }]);
}

function filesExtension(experiments: ExtensionExperiment[] | undefined, records: PreflightActivityRecord[] = []): RequiredToolsExtension {
  const prepared = prepareSnapshot(filesSnapshot());
  return new RequiredToolsExtension({
    gateway: { state: () => ({ prepared, scope: { allowed_servers: '*' } }) },
    activity: (record) => records.push(record),
    ...(experiments === undefined ? {} : { experiments }),
  });
}

/** A 2025-11-25 session whose client declares `settings` for the extension; the rider pins files:read to `pin`. */
async function pinnedRider(extension: RequiredToolsExtension, settings: Declaration, pin: string): Promise<unknown> {
  const server = new Server({ name: 'files', version: '1.0.0' }, { capabilities: { tools: {} } });
  extension.attach(server, { era: 'legacy' });
  server.setRequestHandler('tools/list', () => ({ tools: [{ name: 'files:read', inputSchema: { type: 'object' } }] }));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'opt-in-test', version: '1.0.0' }, { capabilities: { experimental: { [EXTENSION_ID]: settings } } });
  await client.connect(clientSide);
  try {
    const result = await client.listTools({ _meta: { [EXTENSION_ID]: { tools: [{ id: 'files:read', pin_hash: pin }] } } });
    return result._meta?.[EXTENSION_ID];
  } catch (error) {
    return { error: (error as { code?: number; message?: string }).code, message: (error as Error).message };
  } finally {
    await client.close();
  }
}

describe('experiments the server enables', () => {
  it('are only names the extension has, and pins needs the gateway state (the one source with hashes)', () => {
    expect(EXTENSION_EXPERIMENTS).toEqual(['pins', 'error_facet', 'batch_resolve', 'ping_carrier']);
    expect(() => filesExtension(['pin' as ExtensionExperiment])).toThrow('unknown experiment "pin" (known: pins, error_facet, batch_resolve, ping_carrier)');
    expect(() => new RequiredToolsExtension({ state: () => ({}), activity: () => undefined, experiments: ['pins'] })).toThrow('the pins experiment needs the gateway state source');
    expect(() => new RequiredToolsExtension({ state: () => ({}), activity: () => undefined, experiments: [] })).not.toThrow();
  });
});

describe('a prototype serves a request only when both sides ask', () => {
  const asking = { version: 1, experimental: { pins: true } };

  it('enabled and asked for: the pin is compared (ready on the right hash, hash_mismatch on another, never a hash)', async () => {
    const records: PreflightActivityRecord[] = [];
    const right = await pinnedRider(filesExtension(['pins'], records), asking, HASH);
    const wrong = await pinnedRider(filesExtension(['pins'], records), asking, OTHER);
    expect(right).toMatchObject({ verdict: 'ready', tools: [{ id: 'files:read', status: 'ready' }] });
    expect(wrong).toMatchObject({ verdict: 'blocked', tools: [{ id: 'files:read', status: 'unavailable', reason: 'hash_mismatch', retryable: false }] });
    expect(JSON.stringify([right, wrong])).not.toContain('a'.repeat(16));
    expect(records.map((record) => record.surface)).toEqual(['mcp-rider', 'mcp-rider']);
  });

  it('either side silent: exactly settings version 1, where pin_hash is reserved (-32602, nothing evaluated)', async () => {
    const records: PreflightActivityRecord[] = [];
    const cases: [ExtensionExperiment[] | undefined, Declaration][] = [
      [['pins'], { version: 1 }], // a v1 mirror
      [['pins'], { version: 1, experimental: { pins: false } }],
      [['pins'], { version: 1, experimental: { pins: 'yes' } }],
      [['pins'], { version: 1, experimental: ['pins'] }],
      [undefined, asking], // the server did not enable it
      [[], asking],
    ];
    for (const [enabled, settings] of cases) {
      const answer = await pinnedRider(filesExtension(enabled, records), settings, HASH);
      expect(answer, JSON.stringify({ enabled, settings })).toMatchObject({ error: -32602 });
      expect((answer as { message: string }).message).toContain('tools[0].pin_hash is reserved in settings version 1');
    }
    expect(records).toEqual([]);
  });
});
