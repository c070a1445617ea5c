// A repeated rider on one state: every answer carries the same wire verdicts (one deep-frozen value,
// made once from the memoised evaluation) and every record the same deep-frozen metadata, while what
// is per answer (request id, time) is new each time; a different rider gets values of its own. A
// server that keeps JSON text per frozen value (the gateway) then serializes neither more than once.
import { describe, expect, it } from 'vitest';
import { prepareSnapshot, type GatewaySnapshot } from '@mcpproxy/evaluator';
import { checkValue, EXTENSION_ID, strictValidators, type PreflightActivityRecord } from '@mcpproxy/schema';
import { Client } from '@modelcontextprotocol/client';
import { InMemoryTransport, Server, type JSONRPCMessage, type ListToolsResult } from '@modelcontextprotocol/server';
import { RequiredToolsExtension } from '../src/index.js';
import { oneServerSnapshot } from './one-server-snapshot.js';

const HASH = `sha256/v1:${'e'.repeat(64)}`;

function snapshot(): GatewaySnapshot {
  return oneServerSnapshot('files', HASH, [
    { name: 'read', annotations: { readOnlyHint: true } },
    { name: 'write', annotations: { readOnlyHint: false } },
  ]);
}

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

type Facet = { request_id: string; tools: unknown[] };

describe('answers to a repeated rider', () => {
  it('share one deep-frozen wire verdict list and one deep-frozen record metadata; ids and times stay per answer', async () => {
    const prepared = prepareSnapshot(snapshot());
    const records: PreflightActivityRecord[] = [];
    const extension = new RequiredToolsExtension({ gateway: { state: () => ({ prepared, scope: { allowed_servers: '*' } }) }, activity: (record) => records.push(record) });
    const server = new Server({ name: 'files', version: '1.0.0' }, { capabilities: { tools: {} } });
    extension.attach(server, { era: 'legacy' });
    server.setRequestHandler('tools/list', (): ListToolsResult => ({ tools: [] }));
    // The facets as the server hands them to its transport (what a server serializes), not as the client parsed them.
    const sent: Facet[] = [];
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const send = serverSide.send.bind(serverSide);
    serverSide.send = (message: JSONRPCMessage, options) => {
      const facet = 'result' in message ? (message.result as { _meta?: Record<string, unknown> })._meta?.[EXTENSION_ID] : undefined;
      if (facet !== undefined) sent.push(facet as Facet);
      return send(message, options);
    };
    await server.connect(serverSide);
    const client = new Client({ name: 'shared-answers-test', version: '1.0.0' }, { capabilities: { experimental: { [EXTENSION_ID]: { version: 1 } } } });
    await client.connect(clientSide);
    const list = (ids: string[]) => client.request({ method: 'tools/list', params: { _meta: { [EXTENSION_ID]: { tools: ids.map((id) => ({ id })), policy: { read_only_only: true } } } } });
    try {
      for (let i = 0; i < 3; i++) await list(['files:read', 'files:write', 'files:nope']);
      await list(['files:write', 'files:read']);
      expect(sent).toHaveLength(4);
      const [first, second, third, other] = sent as [Facet, Facet, Facet, Facet];
      expect(second.tools).toBe(first.tools);
      expect(third.tools).toBe(first.tools);
      expect(isDeepFrozen(first.tools)).toBe(true);
      expect(other.tools).not.toBe(first.tools);
      expect(new Set(sent.map((facet) => facet.request_id)).size).toBe(4);
      for (const facet of sent) expect(checkValue(strictValidators.ResponseFacet, facet).ok).toBe(true);
      expect((first.tools as { status: string; reason?: string }[]).map((t) => t.reason ?? t.status)).toEqual(['ready', 'policy_filtered', 'not_found']);

      expect(records).toHaveLength(4);
      expect(records[1]!.metadata).toBe(records[0]!.metadata);
      expect(records[2]!.metadata).toBe(records[0]!.metadata);
      expect(isDeepFrozen(records[0]!.metadata)).toBe(true);
      expect(records[3]!.metadata).not.toBe(records[0]!.metadata);
      expect(records.map((r) => r.request_id)).toEqual(sent.map((facet) => facet.request_id));
      for (const record of records) expect(checkValue(strictValidators.PreflightActivityRecord, record).ok).toBe(true);
    } finally {
      await client.close();
    }
  });
});
