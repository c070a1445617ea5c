// The aggregated surface of a running gateway over real fixture upstreams, through the SDK client on
// both protocol revisions: listing, pagination, calls, scope by token and by profile path,
// describe_tool, list_changed, and tools/list answered without a single upstream message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { ProtocolError } from '@modelcontextprotocol/client';
import {
  connectClient,
  ERAS,
  fixtureServer,
  readCount,
  serverReady,
  startTestGateway,
  TempDir,
  toolText,
  waitForState,
  type FixtureToolSpec,
  type TestGateway,
} from './gateway-harness.js';
import { connectListeningClient } from './listening-client.js';

const TOKEN = 'agent-token-for-alpha-only';
const ALPHA_TOOLS: FixtureToolSpec[] = [
  { name: 'echo', description: 'Echoes its arguments', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, echo: true, annotations: { readOnlyHint: true, openWorldHint: false } },
  { name: 'fail', description: 'Always fails', error: 'boom from upstream', annotations: { destructiveHint: true } },
  { name: 'add', description: 'Adds', inputSchema: { type: 'object', properties: { a: { type: 'number' } } }, result: { content: [{ type: 'text', text: '42' }], structuredContent: { sum: 42 } } },
];
const BETA_TOOLS: FixtureToolSpec[] = [{ name: 'x', description: 'x' }, { name: 'y', description: 'y' }];
const ALL_NAMES = ['describe_tool', 'alpha:add', 'alpha:echo', 'alpha:fail', 'beta:x', 'beta:y'];

type ListPage = { tools: { name: string; annotations?: unknown }[]; nextCursor?: string };
const listPage = (client: Client, cursor?: string) =>
  client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }) as Promise<ListPage>;

async function listAll(client: Client): Promise<ListPage['tools']> {
  const tools: ListPage['tools'] = [];
  let cursor: string | undefined;
  do {
    const page = await listPage(client, cursor);
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}


describe('the gateway MCP surface', () => {
  let dir: TempDir;
  let gw: TestGateway;
  let alphaCount: string;
  let betaCount: string;
  beforeAll(async () => {
    dir = new TempDir();
    alphaCount = `${dir.path}/alpha.count`;
    betaCount = `${dir.path}/beta.count`;
    gw = await startTestGateway(dir, {
      page_size: 2,
      servers: [fixtureServer('alpha', dir.tools('alpha', ALPHA_TOOLS), {}, alphaCount), fixtureServer('beta', dir.tools('beta', BETA_TOOLS), {}, betaCount)],
      agent_tokens: [{ name: 'ci', token: TOKEN, allowed_servers: ['alpha'] }],
      profiles: [{ name: 'dev', servers: ['beta'] }],
    });
    await waitForState(gw.gateway, (s) => serverReady('alpha')(s) && serverReady('beta')(s));
  });
  afterAll(async () => {
    await gw?.close();
    dir?.remove();
  });

  for (const era of ERAS) {
    describe(`over ${era === 'legacy' ? '2025-11-25' : '2026-07-28'}`, () => {
      let client: Client;
      beforeAll(async () => {
        client = await connectClient(gw.url, era);
      });
      afterAll(async () => client?.close());

      it('lists the aggregated tools in served order with annotations unchanged, paginated', async () => {
        const first = await listPage(client);
        expect(first.tools.map((t) => t.name)).toEqual(ALL_NAMES.slice(0, 2));
        expect(first.nextCursor).toEqual(expect.any(String));
        const tools = await listAll(client);
        expect(tools.map((t) => t.name)).toEqual(ALL_NAMES);
        expect(tools.find((t) => t.name === 'alpha:echo')?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
        const sdkListing = await client.listTools();
        expect(sdkListing.tools.map((t) => t.name)).toEqual(ALL_NAMES);
      });

      it('answers a cursor it did not issue with -32602', async () => {
        const error = await listPage(client, 'not-a-cursor').catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ProtocolError);
        expect((error as ProtocolError).code).toBe(-32602);
      });

      it('forwards an allowed call and returns the upstream result unchanged, tool errors included', async () => {
        const echoed = await client.callTool({ name: 'alpha:echo', arguments: { text: `hi ${era}` } });
        expect(echoed.isError).toBeFalsy();
        expect(JSON.parse(toolText(echoed))).toEqual({ text: `hi ${era}` });
        const added = await client.callTool({ name: 'alpha:add', arguments: { a: 1 } });
        expect(added.structuredContent).toEqual({ sum: 42 });
        const failed = await client.callTool({ name: 'alpha:fail', arguments: {} });
        expect(failed.isError).toBe(true);
        expect(toolText(failed)).toBe('boom from upstream');
      });

      it('refuses an unknown tool as not_found without reaching any upstream', async () => {
        const before = gw.gateway.runtime.upstreamMessageCount();
        const refused = await client.callTool({ name: 'alpha:nope', arguments: {} });
        expect(refused.isError).toBe(true);
        expect(toolText(refused)).toMatch(/^Tool call refused: not_found\n/);
        expect(gw.gateway.runtime.upstreamMessageCount()).toBe(before);
      });

      it('describes served tools with describe_tool (plain mode)', async () => {
        const described = await client.callTool({ name: 'describe_tool', arguments: { tool_ids: ['alpha:echo', 'beta:x', 'alpha:echo', 'nowhere:z'] } });
        expect(described.isError).toBeFalsy();
        const body = JSON.parse(toolText(described)) as { tools: { id: string; tool?: { name: string; description?: string }; error?: string }[] };
        expect(body.tools.map((t) => t.id)).toEqual(['alpha:echo', 'beta:x', 'nowhere:z']);
        expect(body.tools[0]?.tool?.description).toBe('Echoes its arguments');
        expect(body.tools[2]?.error).toBe('not_found');
        const tooMany = await client.callTool({ name: 'describe_tool', arguments: { tool_ids: ['a:1', 'a:2', 'a:3', 'a:4', 'a:5', 'a:6'] } });
        expect(tooMany.isError).toBe(true);
        // check: true is the required-tools check mode (its own tests are extension-check-mode.test.ts).
        const checkMode = await client.callTool({ name: 'describe_tool', arguments: { tool_ids: ['alpha:echo'], check: true } });
        expect(checkMode.isError).toBeFalsy();
        expect(JSON.parse(toolText(checkMode))).toMatchObject({ verdict: 'ready', results: [{ id: 'alpha:echo', status: 'ready' }] });
      });

      it('scopes listing and dispatch by bearer token', async () => {
        const scoped = await connectClient(gw.url, era, TOKEN);
        try {
          expect((await listAll(scoped)).map((t) => t.name)).toEqual(['describe_tool', 'alpha:add', 'alpha:echo', 'alpha:fail']);
          const refused = await scoped.callTool({ name: 'beta:x', arguments: {} });
          expect(refused.isError).toBe(true);
          expect(toolText(refused)).toMatch(/^Tool call refused: not_found\n/);
          expect((await scoped.callTool({ name: 'alpha:echo', arguments: {} })).isError).toBeFalsy();
        } finally {
          await scoped.close();
        }
      });

      it('scopes listing and dispatch by /mcp/p/<profile>', async () => {
        const profiled = await connectClient(`${gw.url}/p/dev`, era);
        try {
          expect((await listAll(profiled)).map((t) => t.name)).toEqual(['describe_tool', 'beta:x', 'beta:y']);
          const refused = await profiled.callTool({ name: 'alpha:echo', arguments: {} });
          expect(toolText(refused)).toMatch(/^Tool call refused: not_found\n/);
        } finally {
          await profiled.close();
        }
        // A token's allow-list and the path's profile intersect: alpha-only token on the beta profile sees nothing.
        const both = await connectClient(`${gw.url}/p/dev`, era, TOKEN);
        try {
          expect((await listAll(both)).map((t) => t.name)).toEqual(['describe_tool']);
        } finally {
          await both.close();
        }
      });
    });
  }

  it('answers tools/list from the published index with zero upstream messages', async () => {
    const clients = await Promise.all(ERAS.map((era) => connectClient(gw.url, era)));
    const before = { runtime: gw.gateway.runtime.upstreamMessageCount(), alpha: readCount(alphaCount), beta: readCount(betaCount) };
    expect(before.alpha).toBeGreaterThan(0); // the count file is live: discovery was counted
    for (let round = 0; round < 5; round++) {
      for (const client of clients) await listAll(client);
    }
    expect(gw.gateway.runtime.upstreamMessageCount()).toBe(before.runtime);
    // A fence on each upstream connection: once each upstream has counted this one call, anything
    // the listings had sent (earlier, on the same connection) would have been counted too.
    await clients[0]!.callTool({ name: 'alpha:echo', arguments: { text: 'fence' } });
    await clients[0]!.callTool({ name: 'beta:x', arguments: {} });
    expect(gw.gateway.runtime.upstreamMessageCount()).toBe(before.runtime + 2);
    await expect.poll(() => ({ alpha: readCount(alphaCount), beta: readCount(betaCount) })).toEqual({ alpha: before.alpha + 1, beta: before.beta + 1 });
    await Promise.all(clients.map((c) => c.close()));
  });

  it('sends notifications/tools/list_changed to a legacy session when its listing changes, and not otherwise', async () => {
    const alphaOnly = await connectListeningClient(gw.url, TOKEN);
    const everything = await connectListeningClient(gw.url);
    const heard = { alphaOnly: 0, everything: 0 };
    alphaOnly.client.setNotificationHandler('notifications/tools/list_changed', () => void heard.alphaOnly++);
    everything.client.setNotificationHandler('notifications/tools/list_changed', () => void heard.everything++);
    await listAll(everything.client);
    await Promise.all([alphaOnly.streamOpen, everything.streamOpen]);
    try {
      await gw.gateway.runtime.setToolDisabled('beta', 'y', true);
      await expect.poll(() => heard.everything, { timeout: 15_000 }).toBe(1);
      expect((await listAll(everything.client)).map((t) => t.name)).not.toContain('beta:y');
      // The control: a change inside alpha's scope reaches alphaOnly on the same stream, after
      // anything sent for the beta change; hearing exactly one means beta's was never sent.
      await gw.gateway.runtime.setToolDisabled('alpha', 'add', true);
      await expect.poll(() => heard.alphaOnly, { timeout: 15_000 }).toBeGreaterThanOrEqual(1);
      expect(heard.alphaOnly).toBe(1);
    } finally {
      await gw.gateway.runtime.setToolDisabled('beta', 'y', false);
      await gw.gateway.runtime.setToolDisabled('alpha', 'add', false);
      await alphaOnly.client.close();
      await everything.client.close();
    }
  });
});

describe('list_changed on 2026-07-28 listen streams', () => {
  it('notifies an open subscriptions/listen stream when the served listing changes', async () => {
    const dir = new TempDir();
    const gw = await startTestGateway(dir, { servers: [fixtureServer('alpha', dir.tools('alpha', ALPHA_TOOLS))] });
    try {
      await waitForState(gw.gateway, serverReady('alpha'));
      const client = await connectClient(gw.url, 'modern');
      let heard = 0;
      client.setNotificationHandler('notifications/tools/list_changed', () => void heard++);
      const subscription = await client.listen({ toolsListChanged: true });
      await gw.gateway.runtime.setToolDisabled('alpha', 'add', true);
      await expect.poll(() => heard, { timeout: 15_000 }).toBe(1);
      await subscription.close();
      await client.close();
    } finally {
      await gw.close();
      dir.remove();
    }
  });
});

describe('require_mcp_auth', () => {
  it('answers 401 without an agent token on both revisions and serves with one', async () => {
    const dir = new TempDir();
    const gw = await startTestGateway(dir, {
      require_mcp_auth: true,
      servers: [fixtureServer('alpha', dir.tools('alpha', ALPHA_TOOLS))],
      agent_tokens: [{ name: 'ci', token: TOKEN, allowed_servers: ['*'] }],
    });
    try {
      await waitForState(gw.gateway, serverReady('alpha'));
      for (const era of ERAS) {
        await expect(connectClient(gw.url, era)).rejects.toMatchObject({ data: { status: 401 } });
        const client = await connectClient(gw.url, era, TOKEN);
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('alpha:echo');
        await client.close();
      }
      const raw = await fetch(gw.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      expect(raw.status).toBe(401);
    } finally {
      await gw.close();
      dir.remove();
    }
  });
});
