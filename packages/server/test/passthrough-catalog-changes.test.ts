// What changes in the upstreams' resources and prompts reaches the clients through the gateway: an
// upstream's resources/list_changed and prompts/list_changed, a resource update to the clients
// subscribed to that resource (a 2025-11-25 session by resources/subscribe, a 2026-07-28 listen stream
// by its resourceSubscriptions), and a server that stops contributing (quarantined). The fixture
// upstream re-reads its file on SIGHUP and announces exactly what changed.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client, McpSubscription, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonLines } from './json-lines-file.js';
import { connectClient, ERAS, fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type Era, type TestGateway } from './gateway-harness.js';

const NOTE = 'mcpproxy://cat/note://a';

interface Heard {
  readonly resourcesChanged: number;
  readonly promptsChanged: number;
  readonly updated: string[];
}

function hearing(client: Client): Heard {
  const heard = { resourcesChanged: 0, promptsChanged: 0, updated: [] as string[] };
  client.setNotificationHandler('notifications/resources/list_changed', () => void heard.resourcesChanged++);
  client.setNotificationHandler('notifications/prompts/list_changed', () => void heard.promptsChanged++);
  client.setNotificationHandler('notifications/resources/updated', (notification) => void heard.updated.push(notification.params.uri));
  return heard;
}

/** Subscribes to NOTE the way the revision does it; returns what ends the subscription. */
async function subscribe(client: Client, era: Era): Promise<McpSubscription | undefined> {
  if (era === 'legacy') {
    await client.request({ method: 'resources/subscribe', params: { uri: NOTE } });
    return undefined;
  }
  const subscription = await client.listen({ resourcesListChanged: true, promptsListChanged: true, resourceSubscriptions: [NOTE, 'mcpproxy://nowhere/x'] });
  // The gateway keeps what this caller may read and drops the rest before the stream opens.
  expect(subscription.honoredFilter.resourceSubscriptions).toEqual([NOTE]);
  return subscription;
}

describe.each(ERAS)('resource and prompt changes through the gateway (%s)', (era) => {
  let dir: TempDir;
  let gw: TestGateway;
  let file: string;
  const write = (text: string, extra: { resources?: object[]; prompts?: object[] } = {}) =>
    writeFileSync(
      file,
      JSON.stringify({
        tools: [{ name: 'echo', echo: true }],
        resources: [{ uri: 'note://a', name: 'a', text }, ...(extra.resources ?? [])],
        prompts: [{ name: 'greet', text: 'hello' }, ...(extra.prompts ?? [])],
      }),
    );
  const reload = () => process.kill(Number(readFileSync(join(dir.path, 'cat.pid'), 'utf8')), 'SIGHUP');

  beforeEach(async () => {
    dir = new TempDir();
    file = join(dir.path, 'cat.json');
    write('one');
    const entry = fixtureServer('cat', file);
    const args = [...(entry['args'] as string[]), '--pid-file', join(dir.path, 'cat.pid'), '--events-file', join(dir.path, 'cat.events')];
    gw = await startTestGateway(dir, { tool_quarantine: false, servers: [{ ...entry, args }] });
    await waitForState(gw.gateway, serverReady('cat'), 30_000);
  }, 60_000);
  afterEach(async () => {
    await gw?.close();
    dir?.remove();
  });

  it('forwards list changes and a subscribed resource update, and reads the new content', async () => {
    const client = await connectClient(gw.url, era);
    const heard = hearing(client);
    const subscription = await subscribe(client, era);
    try {
      const read = async () => ((await client.request({ method: 'resources/read', params: { uri: NOTE } })).contents[0] as { text: string }).text;
      expect(await read()).toBe('one');
      write('two', { resources: [{ uri: 'note://b', name: 'b', text: 'new' }], prompts: [{ name: 'bye', text: 'goodbye' }] });
      reload();
      await expect.poll(() => heard.updated, { timeout: 30_000 }).toContain(NOTE);
      await expect.poll(() => heard.resourcesChanged, { timeout: 30_000 }).toBeGreaterThan(0);
      await expect.poll(() => heard.promptsChanged, { timeout: 30_000 }).toBeGreaterThan(0);
      expect(heard.updated.every((uri) => uri === NOTE)).toBe(true);
      expect(await read()).toBe('two');
      const prompts = (await client.request({ method: 'prompts/list', params: {} })).prompts.map((p) => p.name);
      // Per server, in the upstream's own order.
      expect(prompts).toEqual(['cat:greet', 'cat:bye']);
    } finally {
      await subscription?.close();
      if (era === 'legacy') await (client.transport as StreamableHTTPClientTransport).terminateSession();
      await client.close();
    }
    // The upstream was subscribed once for this client, and unsubscribed once the client went away.
    const subscriptions = () => readJsonLines<{ event: string; uri?: string }>(join(dir.path, 'cat.events')).filter((e) => e.uri === 'note://a').map((e) => e.event);
    await expect.poll(subscriptions, { timeout: 30_000 }).toEqual(['subscribed', 'unsubscribed']);
  });

  it('tells the client its resources and prompts changed when a server stops contributing (quarantined)', async () => {
    const client = await connectClient(gw.url, era);
    const heard = hearing(client);
    const subscription = era === 'modern' ? await client.listen({ resourcesListChanged: true, promptsListChanged: true }) : undefined;
    try {
      expect((await client.request({ method: 'resources/list', params: {} })).resources.map((r) => r.uri)).toEqual([NOTE]);
      await gw.gateway.runtime.setQuarantined('cat', true);
      await expect.poll(() => heard.resourcesChanged, { timeout: 30_000 }).toBeGreaterThan(0);
      await expect.poll(() => heard.promptsChanged, { timeout: 30_000 }).toBeGreaterThan(0);
      expect((await client.request({ method: 'resources/list', params: {} })).resources).toEqual([]);
      expect((await client.request({ method: 'prompts/list', params: {} })).prompts).toEqual([]);
    } finally {
      await subscription?.close();
      await client.close();
    }
  });
});
