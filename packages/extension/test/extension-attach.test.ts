// The extension through its public API only: how it attaches (advertisement per revision, the
// rules of attach), and a server that aggregates others (a gateway-shaped state: an evaluator
// snapshot and a scope) answering the rider, resolve and check mode on both revisions, with what
// the activity sink receives. When the state or the sink fails, no verdict reaches the wire.
import { describe, expect, it } from 'vitest';
import { prepareSnapshot, type GatewaySnapshot } from '@mcpproxy/evaluator';
import { checkValue, EXTENSION_ID, SETTINGS_VERSION, strictValidators, type PreflightActivityRecord } from '@mcpproxy/schema';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, InMemoryTransport, McpServer, Server, type ListToolsResult, type Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { RequiredToolsExtension, TOOL_RESOLUTION_EXTENSION_ID, type GatewayState, type RequiredToolsExtensionOptions } from '../src/index.js';
import { oneServerSnapshot } from './one-server-snapshot.js';

const HASH = `sha256/v1:${'c'.repeat(64)}`;

/** A gateway's view of one upstream, `weather`: `forecast` read-only, `alert` without annotations. */
function weatherSnapshot(): GatewaySnapshot {
  return oneServerSnapshot('weather', HASH, [{ name: 'forecast', annotations: { readOnlyHint: true } }, { name: 'alert' }]);
}

const LISTED: Tool[] = [
  { name: 'weather:forecast', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  { name: 'weather:alert', inputSchema: { type: 'object' } },
];

function weatherGateway(): GatewayState {
  const prepared = prepareSnapshot(weatherSnapshot());
  return { state: () => ({ prepared, scope: { allowed_servers: '*' } }) };
}

function extensionWith(options: Partial<RequiredToolsExtensionOptions> = {}, records: PreflightActivityRecord[] = []): RequiredToolsExtension {
  return new RequiredToolsExtension({ gateway: weatherGateway(), activity: (record) => records.push(record), ...options } as RequiredToolsExtensionOptions);
}

/** A low-level SDK server that lists the gateway's tools, with the extension attached before it registers tools/list. */
function weatherServer(extension: RequiredToolsExtension, era?: 'legacy' | 'modern'): Server {
  const server = new Server({ name: 'weather', version: '1.0.0' }, { capabilities: { tools: {} } });
  extension.attach(server, era === undefined ? {} : { era });
  server.setRequestHandler('tools/list', (): ListToolsResult => ({ tools: LISTED }));
  return server;
}

const ResolveResult = z.looseObject({ tool: z.looseObject({ name: z.string(), _meta: z.record(z.string(), z.unknown()).optional() }) });

/** A custom method needs the caller's result schema in the SDK client. */
function resolve(client: Client, name: string): Promise<z.infer<typeof ResolveResult>> {
  return client.request({ method: 'tools/resolve', params: { name, arguments: {} } }, ResolveResult);
}

async function legacyClient(server: Server | McpServer, capabilities: Record<string, unknown>): Promise<Client> {
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

const rider = (tools: string[], policy?: Record<string, boolean>) => ({ _meta: { [EXTENSION_ID]: { tools: tools.map((id) => ({ id })), ...(policy === undefined ? {} : { policy }) } } });

describe('attach', () => {
  it('declares the extension where the revision puts it, or in both places when the era is not known', () => {
    const extension = extensionWith();
    const settings = { version: SETTINGS_VERSION, max_tools: 50 };
    const advertised = { [EXTENSION_ID]: settings, [TOOL_RESOLUTION_EXTENSION_ID]: {} };
    expect(weatherServer(extension, 'legacy').getCapabilities()).toEqual({ tools: {}, experimental: advertised });
    expect(weatherServer(extension, 'modern').getCapabilities()).toEqual({ tools: {}, extensions: advertised });
    expect(weatherServer(extension).getCapabilities()).toEqual({ tools: {}, experimental: advertised, extensions: advertised });
    expect(extension.id).toBe(EXTENSION_ID);
    expect(checkValue(strictValidators.Settings, extension.settings).ok).toBe(true);
  });

  it('is a no-op the second time; refuses a connected server, and one that registered tools/list already, leaving it as it was', async () => {
    const extension = extensionWith();
    const server = weatherServer(extension);
    expect(() => extension.attach(server)).not.toThrow();

    const connected = new Server({ name: 'connected', version: '1.0.0' }, { capabilities: { tools: {} } });
    const client = await legacyClient(connected, {});
    expect(() => extension.attach(connected)).toThrow(/before connecting/);
    await client.close();

    const own = new Server({ name: 'own', version: '1.0.0' }, { capabilities: { tools: {} } });
    own.setRequestHandler('tools/list', () => ({ tools: [] }));
    expect(() => extension.attach(own)).toThrow(`attach ${EXTENSION_ID} before the server registers tools/list`);
    expect(own.getCapabilities()).toEqual({ tools: {} });
    // tools/resolve is still free: the refused attach registered nothing.
    expect(() => own.assertCanSetRequestHandler('tools/resolve')).not.toThrow();

    const mcp = new McpServer({ name: 'late', version: '1.0.0' });
    mcp.registerTool('ping', { description: 'ping' }, () => ({ content: [] }));
    expect(() => extension.attach(mcp)).toThrow(/McpServer registers it with its first tool/);
  });

  it('refuses options it cannot serve, naming what is wrong', () => {
    const activity = () => undefined;
    expect(() => new RequiredToolsExtension({ activity } as never)).toThrow('give exactly one of state, availability or gateway (got none)');
    expect(() => new RequiredToolsExtension({ activity, state: () => ({}), availability: {} })).toThrow('(got state, availability)');
    expect(() => new RequiredToolsExtension({ gateway: weatherGateway() } as never)).toThrow(/activity must be a function/);
    expect(() => new RequiredToolsExtension({ activity, availability: { search: 'server_initializing' } as never })).toThrow('availability.search must be a function');
  });
});

describe('a gateway-shaped server, on both revisions', () => {
  it('2025-11-25 (in-memory): rider, resolve and check mode at the agent tier, one strictly valid record each', async () => {
    const records: PreflightActivityRecord[] = [];
    const extension = extensionWith({}, records);
    const server = weatherServer(extension, 'legacy');
    const client = await legacyClient(server, { experimental: { [EXTENSION_ID]: { version: 1 } } });
    try {
      const listed = await client.request({ method: 'tools/list', params: rider(['weather:forecast', 'weather:alert', 'weather:radar', 'ghost:x'], { read_only_only: true }) });
      const facet = checkValue(strictValidators.ResponseFacet, listed._meta?.[EXTENSION_ID]);
      expect(facet.ok && facet.value.tools.map((t) => t.reason ?? t.status)).toEqual(['ready', 'missing_annotation', 'not_found', 'not_found']);
      // The agent tier: an unconfigured server reads as not_found, and no hash appears.
      expect(JSON.stringify(listed._meta)).not.toContain('sha256/');
      expect(listed.tools).toEqual(LISTED);
      const resolved = await resolve(client, 'weather:forecast');
      expect(resolved.tool._meta?.[EXTENSION_ID]).toEqual({ status: 'ready' });
      const checked = await extension.checkMode(server, { tool_ids: ['weather:alert'], check: true }, {} as never);
      expect(JSON.parse((checked.content[0] as { text: string }).text)).toMatchObject({ verdict: 'ready', results: [{ id: 'weather:alert', status: 'ready' }] });
      expect(records.map((r) => r.surface)).toEqual(['mcp-rider', 'mcp-resolve', 'mcp-check']);
      for (const record of records) expect(checkValue(strictValidators.PreflightActivityRecord, record).ok).toBe(true);
      expect(records[0]).toMatchObject({ status: 'blocked', request_id: (listed._meta?.[EXTENSION_ID] as { request_id: string }).request_id, metadata: { verdict: 'unknown_ids', ids_count: 4 } });
      expect(records[2]?.metadata).toMatchObject({ surface: 'mcp-check', arguments: { tool_ids: ['weather:alert'], check: true } });
    } finally {
      await client.close();
    }
  });

  it('2026-07-28 (createMcpHandler): the facet and the cache hints of a varying result', async () => {
    const extension = extensionWith();
    const client = await modernClient(() => weatherServer(extension, 'modern'), { extensions: { [EXTENSION_ID]: {} } });
    try {
      expect(client.getServerCapabilities()?.extensions?.[EXTENSION_ID]).toEqual({ version: SETTINGS_VERSION, max_tools: 50 });
      const listed = await client.request({ method: 'tools/list', params: rider(['weather:forecast']) });
      expect(listed._meta?.[EXTENSION_ID]).toMatchObject({ verdict: 'ready', tools: [{ id: 'weather:forecast', status: 'ready' }] });
      expect(listed).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    } finally {
      await client.close();
    }
  });
});

describe('no honest verdict, nothing on the wire but the refusal', () => {
  async function attached(options: Partial<RequiredToolsExtensionOptions>): Promise<{ client: Client; extension: RequiredToolsExtension; server: Server }> {
    const extension = extensionWith(options);
    const server = weatherServer(extension, 'legacy');
    return { client: await legacyClient(server, { experimental: { [EXTENSION_ID]: {} } }), extension, server };
  }

  it('a state that cannot be read: -32603 on the rider and resolve, a tool error in check mode; the plain listing still works', async () => {
    const { client, extension, server } = await attached({
      gateway: {
        state: () => {
          throw new Error('snapshot store is down');
        },
      },
    });
    try {
      const refused = client.request({ method: 'tools/list', params: rider(['weather:forecast']) });
      await expect(refused).rejects.toMatchObject({ code: -32603, message: `${EXTENSION_ID}: the server's state could not be read; no verdict was computed` });
      await expect(resolve(client, 'weather:forecast')).rejects.toMatchObject({ code: -32603 });
      const checked = await extension.checkMode(server, { tool_ids: ['weather:forecast'], check: true }, {} as never);
      expect(checked).toEqual({ isError: true, content: [{ type: 'text', text: "describe_tool: the server's state could not be read; no verdict was computed" }] });
      // The server's own error stays its own: the client learns nothing of it.
      expect(JSON.stringify(checked)).not.toContain('snapshot store');
      expect((await client.request({ method: 'tools/list', params: {} })).tools).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('a sink that cannot keep the record: -32603 and no verdict', async () => {
    const { client } = await attached({
      activity: async () => {
        throw new Error('disk full');
      },
    });
    try {
      await expect(client.request({ method: 'tools/list', params: rider(['weather:forecast']) })).rejects.toMatchObject({
        code: -32603,
        data: { extension: EXTENSION_ID, code: 'activity_unavailable' },
      });
    } finally {
      await client.close();
    }
  });
});
