// The extension as a package of its own: attached to a plain SDK server that is not the gateway,
// with that server's own state provider (a hand-built published state, the real preflight seam and
// evaluator, an in-memory activity list). Advertisement per revision, attach rules, both revisions
// end to end, and the producer's refusals when a source misbehaves.
import { describe, expect, it } from 'vitest';
import { prepareSnapshot, type ToolResult } from '@mcpproxy/evaluator';
import { checkValue, EXTENSION_ID, SETTINGS_VERSION, strictValidators } from '@mcpproxy/schema';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, InMemoryTransport, Server, type ListToolsResult, type Tool } from '@modelcontextprotocol/server';
import { RequiredToolsExtension } from '../src/extension/required-tools-extension.js';
import type { InBandOutcome, RequiredToolsSource } from '../src/extension/required-tools-source.js';
import { createPreflightSeam } from '../src/preflight/preflight-seam.js';
import type { PublishedState, RuntimeSnapshot, ServedTool } from '../src/state/gateway-runtime.js';
import type { ActivityInput } from '../src/store/store.js';
import { z } from 'zod';

const HASH = `sha256/v1:${'c'.repeat(64)}`;
const TOOL_RESOLUTION = 'io.modelcontextprotocol/tool-resolution';

function weatherState(): PublishedState {
  const tool = (name: string, annotations: ServedTool['annotations']): ServedTool => ({
    name,
    hash: HASH,
    ...(annotations === undefined ? {} : { annotations }),
    definition: { name, inputSchema: { type: 'object' }, ...(annotations === undefined ? {} : { annotations }) },
  });
  const tools = new Map([
    ['forecast', tool('forecast', { readOnlyHint: true })],
    ['alert', tool('alert', undefined)],
  ]);
  const snapshot: RuntimeSnapshot = {
    version: 1,
    tool_quarantine: true,
    profiles: new Map(),
    servers: new Map([
      [
        'weather',
        {
          name: 'weather',
          enabled: true,
          quarantined: false,
          connection: { state: 'ready', ever_ready: true },
          tools,
          approvals: new Map([...tools.keys()].map((t) => [t, { tool: t, status: 'approved', approved_hash: HASH, current_hash: HASH, hash_schema_version: 1, user_disabled: false }] as const)),
          enabled_tools: [],
          disabled_tools: [],
          auto_approve_tool_changes: false,
          transport: 'stdio',
        },
      ],
    ]),
  };
  return { snapshot, prepared: prepareSnapshot(snapshot) };
}

/** A server's own provider: its listing, its lookup, and the real seam over its own state. */
function weatherSource(activity: ActivityInput[] = []): RequiredToolsSource {
  const state = weatherState();
  const seam = createPreflightSeam({
    runtime: { current: () => state, subscribe: () => () => undefined },
    activity: { appendActivity: async (record) => (activity.push(record), { ...record, id: activity.length }) as never },
  });
  const listed: Tool[] = [...state.snapshot.servers.get('weather')!.tools.values()].map((t) => ({ ...t.definition, name: `weather:${t.name}` }));
  return {
    listTools: (): ListToolsResult => ({ tools: listed }),
    servedTool: (name) => listed.find((t) => t.name === name),
    evaluate: (check) => seam.run({ surface: check.surface, raw: check.raw, scope: { allowed_servers: '*' } }),
  };
}

const ResolveResult = z.looseObject({ tool: z.looseObject({ name: z.string(), _meta: z.record(z.string(), z.unknown()).optional() }) });

/** A custom method needs the caller's result schema in the SDK client. */
function resolve(client: Client, name: string): Promise<z.infer<typeof ResolveResult>> {
  return client.request({ method: 'tools/resolve', params: { name, arguments: {} } }, ResolveResult);
}

function plainServer(): Server {
  return new Server({ name: 'weather', version: '1.0.0' }, { capabilities: {} });
}

async function legacyClient(server: Server, capabilities: Record<string, unknown>): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'attach-test', version: '1.0.0' }, { capabilities });
  await client.connect(clientSide);
  return client;
}

async function modernClient(factory: () => Server, capabilities: Record<string, unknown>): Promise<Client> {
  const handler = createMcpHandler(factory, { legacy: 'reject' });
  const client = new Client({ name: 'attach-test', version: '1.0.0' }, { capabilities, versionNegotiation: { mode: { pin: '2026-07-28' } } });
  await client.connect(new StreamableHTTPClientTransport(new URL('http://in-process.invalid/mcp'), { fetch: (input, init) => handler.fetch(new Request(input, init)) }));
  return client;
}

describe('attach', () => {
  it('declares the extension where the revision puts it, or in both places when the era is not known', () => {
    const extension = new RequiredToolsExtension({ source: weatherSource() });
    const settings = { version: SETTINGS_VERSION, max_tools: 50 };
    const legacy = plainServer();
    extension.attach(legacy, { era: 'legacy' });
    expect(legacy.getCapabilities()).toEqual({ tools: {}, experimental: { [EXTENSION_ID]: settings, [TOOL_RESOLUTION]: {} } });
    const modern = plainServer();
    extension.attach(modern, { era: 'modern' });
    expect(modern.getCapabilities()).toEqual({ tools: {}, extensions: { [EXTENSION_ID]: settings, [TOOL_RESOLUTION]: {} } });
    const both = plainServer();
    extension.attach(both);
    expect(both.getCapabilities()).toMatchObject({ experimental: { [EXTENSION_ID]: settings }, extensions: { [EXTENSION_ID]: settings } });
    expect(extension.id).toBe(EXTENSION_ID);
    expect(checkValue(strictValidators.Settings, extension.settings).ok).toBe(true);
  });

  it('is a no-op the second time, refuses a connected server, and leaves a server with its own tools/list untouched', async () => {
    const extension = new RequiredToolsExtension({ source: weatherSource() });
    const server = plainServer();
    extension.attach(server);
    expect(() => extension.attach(server)).not.toThrow();

    const connected = plainServer();
    connected.registerCapabilities({ tools: {} });
    const client = await legacyClient(connected, {});
    expect(() => extension.attach(connected)).toThrow(/before connecting/);
    await client.close();

    const own = new Server({ name: 'own', version: '1.0.0' }, { capabilities: { tools: {} } });
    own.setRequestHandler('tools/list', () => ({ tools: [] }));
    expect(() => extension.attach(own)).toThrow(/tools\/list/);
    expect(own.getCapabilities()).toEqual({ tools: {} });
  });
});

describe('a server that is not the gateway, on both revisions', () => {
  it('2025-11-25 (in-memory): rider, resolve and check mode from its own source', async () => {
    const activity: ActivityInput[] = [];
    const extension = new RequiredToolsExtension({ source: weatherSource(activity) });
    const server = plainServer();
    extension.attach(server, { era: 'legacy' });
    const client = await legacyClient(server, { experimental: { [EXTENSION_ID]: { version: 1 } } });
    try {
      const listed = await client.request({ method: 'tools/list', params: { _meta: { [EXTENSION_ID]: { tools: [{ id: 'weather:forecast' }, { id: 'weather:alert' }, { id: 'weather:radar' }], policy: { read_only_only: true } } } } });
      const facet = checkValue(strictValidators.ResponseFacet, listed._meta?.[EXTENSION_ID]);
      expect(facet.ok && facet.value.tools.map((t) => t.reason ?? t.status)).toEqual(['ready', 'missing_annotation', 'not_found']);
      expect(listed.tools.map((t) => t.name)).toEqual(['weather:forecast', 'weather:alert']);
      const resolved = await resolve(client, 'weather:forecast');
      expect(resolved.tool._meta?.[EXTENSION_ID]).toEqual({ status: 'ready' });
      const checked = await extension.checkMode({ tool_ids: ['weather:alert'], check: true }, {} as never);
      expect(JSON.parse((checked.content[0] as { text: string }).text)).toMatchObject({ verdict: 'ready' });
      expect(activity.map((r) => r.surface)).toEqual(['mcp-rider', 'mcp-resolve', 'mcp-check']);
    } finally {
      await client.close();
    }
  });

  it('2026-07-28 (createMcpHandler): the facet and the cache hints of a varying result', async () => {
    const extension = new RequiredToolsExtension({ source: weatherSource() });
    const client = await modernClient(() => {
      const server = plainServer();
      extension.attach(server, { era: 'modern' });
      return server;
    }, { extensions: { [EXTENSION_ID]: {} } });
    try {
      expect(client.getServerCapabilities()?.extensions?.[EXTENSION_ID]).toEqual({ version: SETTINGS_VERSION, max_tools: 50 });
      const listed = await client.request({ method: 'tools/list', params: { _meta: { [EXTENSION_ID]: { tools: [{ id: 'weather:forecast' }] } } } });
      expect(listed._meta?.[EXTENSION_ID]).toMatchObject({ verdict: 'ready', tools: [{ id: 'weather:forecast', status: 'ready' }] });
    } finally {
      await client.close();
    }
  });
});

describe('a misbehaving source never reaches the wire as a verdict', () => {
  function sourceAnswering(outcome: InBandOutcome): RequiredToolsSource {
    return { ...weatherSource(), evaluate: async () => outcome };
  }
  const verdictWith = (result: ToolResult): InBandOutcome => ({ ok: true, result: { verdict: 'blocked', checked_at: new Date(0).toISOString(), request_id: 'r1', tools: [result] } });

  async function attached(source: RequiredToolsSource): Promise<{ client: Client; extension: RequiredToolsExtension }> {
    const extension = new RequiredToolsExtension({ source });
    const server = plainServer();
    extension.attach(server, { era: 'legacy' });
    return { client: await legacyClient(server, { experimental: { [EXTENSION_ID]: {} } }), extension };
  }

  it('unavailable state: -32603 on the rider and resolve, a tool error saying no verdict in check mode', async () => {
    const { client, extension } = await attached(sourceAnswering({ ok: false, error: { kind: 'unavailable', code: 'state_unavailable', message: 'the gateway state could not be read; no verdict was computed', path: '' } }));
    try {
      await expect(client.request({ method: 'tools/list', params: { _meta: { [EXTENSION_ID]: { tools: [{ id: 'weather:forecast' }] } } } })).rejects.toMatchObject({ code: -32603 });
      await expect(resolve(client, 'weather:forecast')).rejects.toMatchObject({ code: -32603 });
      const checked = await extension.checkMode({ tool_ids: ['weather:forecast'], check: true }, {} as never);
      expect(checked.isError).toBe(true);
      expect((checked.content[0] as { text: string }).text).toBe('describe_tool: the gateway state could not be read; no verdict was computed');
      // A plain listing still works: the rider is what cannot be answered honestly.
      expect((await client.request({ method: 'tools/list', params: {} })).tools).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('a code the surface may not carry: -32603 on the rider, a tool error in check mode, -32602 (not served) on resolve', async () => {
    const { client, extension } = await attached(
      sourceAnswering(verdictWith({ id: 'weather:forecast', status: 'unavailable', reason: 'server_not_in_scope', retryable: false, action: 'configure' })),
    );
    try {
      await expect(client.request({ method: 'tools/list', params: { _meta: { [EXTENSION_ID]: { tools: [{ id: 'weather:forecast' }] } } } })).rejects.toMatchObject({ code: -32603 });
      await expect(resolve(client, 'weather:forecast')).rejects.toMatchObject({ code: -32602 });
      const checked = await extension.checkMode({ tool_ids: ['weather:forecast'], check: true }, {} as never);
      expect(checked.isError).toBe(true);
      expect((checked.content[0] as { text: string }).text).toMatch(/server_not_in_scope.*no verdict was computed$/);
    } finally {
      await client.close();
    }
  });

  it('resolve with a rider-only code (tool_changed) answers -32602: such a tool is not served', async () => {
    const { client } = await attached(sourceAnswering(verdictWith({ id: 'weather:forecast', status: 'unavailable', reason: 'tool_changed', retryable: false, action: 'approve' })));
    try {
      await expect(resolve(client, 'weather:forecast')).rejects.toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });
});
