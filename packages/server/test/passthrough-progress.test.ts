// Progress and cancellation cross the gateway, with server-everything as a real upstream (stdio,
// behind a wiretap that shows what the upstream itself received): each client hears the progress of
// its own call under its own token, and a cancelled call is cancelled upstream by the id the gateway
// used there. Upstream connections are shared, so two clients using the same token must not collide.
import type { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer, tapped } from './everything-upstream.js';
import { connectClient, ERAS, serverReady, startTestGateway, TempDir, waitForState, type FixtureToolSpec, type TestGateway } from './gateway-harness.js';
import { startWebAndLocal, type WebAndLocal } from './web-and-local-gateway.js';

interface Progress {
  readonly progressToken: string | number;
  readonly progress: number;
  readonly total?: number;
}

const LONG_RUNNING = 'everything:trigger-long-running-operation';

/** A client that records every progress notification it gets, whatever its token. */
async function progressClient(url: string, era: 'legacy' | 'modern'): Promise<{ client: Client; heard: Progress[] }> {
  const client = await connectClient(url, era);
  const heard: Progress[] = [];
  client.setNotificationHandler('notifications/progress', (notification) => {
    heard.push(notification.params as Progress);
  });
  return { client, heard };
}

describe('progress and cancellation through the gateway (server-everything over stdio)', () => {
  let dir: TempDir;
  let gw: TestGateway;
  let wiretap: string;
  beforeAll(async () => {
    dir = new TempDir();
    wiretap = `${dir.path}/everything.wiretap`;
    gw = await startTestGateway(dir, { tool_quarantine: false, servers: [everythingServer('everything', wiretap)] });
    await waitForState(gw.gateway, serverReady('everything'), 30_000);
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    dir?.remove();
  });

  for (const era of ERAS) {
    it(`forwards each call's progress to its own client under the client's token (${era})`, async () => {
      const a = await progressClient(gw.url, era);
      const b = await progressClient(gw.url, era);
      try {
        // Both clients pick the same token: only the gateway's mapping keeps them apart.
        const call = (client: Client, steps: number) =>
          client.request({ method: 'tools/call', params: { name: LONG_RUNNING, arguments: { duration: steps * 0.1, steps }, _meta: { progressToken: 'shared-token' } } });
        const [ra, rb] = await Promise.all([call(a.client, 2), call(b.client, 3)]);
        expect(ra.isError).toBeFalsy();
        expect(rb.isError).toBeFalsy();
        expect(a.heard).toEqual([1, 2].map((progress) => ({ progressToken: 'shared-token', progress, total: 2 })));
        expect(b.heard).toEqual([1, 2, 3].map((progress) => ({ progressToken: 'shared-token', progress, total: 3 })));
        // Upstream, each call carried a token of the gateway's own, never the client's.
        const upstreamTokens = tapped(wiretap)
          .filter((t) => t.dir === 'up' && t.message.method === 'tools/call' && (t.message.params?.['name'] === 'trigger-long-running-operation'))
          .map((t) => (t.message.params?.['_meta'] as { progressToken?: unknown } | undefined)?.progressToken);
        expect(upstreamTokens.length).toBeGreaterThanOrEqual(2);
        for (const token of upstreamTokens) expect(token).not.toBe('shared-token');
        expect(new Set(upstreamTokens).size).toBe(upstreamTokens.length);
        expect(gw.gateway.runtime.upstreamInFlight()).toBe(0);
      } finally {
        await a.client.close();
        await b.client.close();
      }
    });

    it(`cancels the upstream call, by the upstream's request id, when the client cancels (${era})`, async () => {
      const { client, heard } = await progressClient(gw.url, era);
      try {
        const steps = 1000 + (era === 'legacy' ? 1 : 2); // tells this call apart in the wiretap
        const abort = new AbortController();
        const pending = client.request(
          { method: 'tools/call', params: { name: LONG_RUNNING, arguments: { duration: steps * 0.05, steps }, _meta: { progressToken: `cancel-${era}` } } },
          { signal: abort.signal },
        );
        pending.catch(() => undefined);
        await expect.poll(() => heard.length, { timeout: 30_000 }).toBeGreaterThan(0);
        abort.abort('the test cancels');
        await expect(pending).rejects.toThrow();
        const upstreamCall = tapped(wiretap).find((t) => t.dir === 'up' && t.message.method === 'tools/call' && (t.message.params?.['arguments'] as { steps?: number } | undefined)?.steps === steps);
        expect(upstreamCall).toBeDefined();
        await expect
          .poll(() => tapped(wiretap).some((t) => t.dir === 'up' && t.message.method === 'notifications/cancelled' && t.message.params?.['requestId'] === upstreamCall!.message.id), { timeout: 30_000 })
          .toBe(true);
        expect(gw.gateway.runtime.upstreamInFlight()).toBe(0);
      } finally {
        await client.close();
      }
    });

    it(`cancels upstream what a client had in flight when it goes away (${era})`, async () => {
      const { client, heard } = await progressClient(gw.url, era);
      const steps = 2000 + (era === 'legacy' ? 1 : 2);
      const pending = client.request({ method: 'tools/call', params: { name: LONG_RUNNING, arguments: { duration: steps * 0.05, steps }, _meta: { progressToken: 'leaving' } } });
      pending.catch(() => undefined);
      await expect.poll(() => heard.length, { timeout: 30_000 }).toBeGreaterThan(0);
      // 2025-11-25: the client ends its session; 2026-07-28: it drops the request's stream.
      if (era === 'legacy') await (client.transport as StreamableHTTPClientTransport).terminateSession();
      await client.close();
      const upstreamCall = tapped(wiretap).find((t) => t.dir === 'up' && t.message.method === 'tools/call' && (t.message.params?.['arguments'] as { steps?: number } | undefined)?.steps === steps);
      expect(upstreamCall).toBeDefined();
      await expect
        .poll(() => tapped(wiretap).some((t) => t.dir === 'up' && t.message.method === 'notifications/cancelled' && t.message.params?.['requestId'] === upstreamCall!.message.id), { timeout: 30_000 })
        .toBe(true);
      await expect.poll(() => gw.gateway.runtime.upstreamInFlight(), { timeout: 10_000 }).toBe(0);
    });
  }
});

describe('progress and cancellation through the gateway (the fixture upstream over HTTP and over stdio)', () => {
  let dir: TempDir;
  let gw: TestGateway;
  let both: WebAndLocal;
  const events = (name: 'web' | 'local') => both.events<FixtureEvent>(name);
  beforeAll(async () => {
    dir = new TempDir();
    const tools = dir.tools('slow', [
      { name: 'steps', progress: { steps: 3, interval_ms: 10 } },
      { name: 'forever', progress: { steps: 1_000_000, interval_ms: 20 } },
    ] as unknown as FixtureToolSpec[]);
    both = await startWebAndLocal(dir, tools);
    gw = both.gw;
  }, 60_000);
  afterAll(async () => {
    await both?.close();
    dir?.remove();
  });

  for (const era of ERAS) {
    for (const server of ['web', 'local'] as const) {
      it(`${server}: progress under the client's token, and a cancel that reaches the upstream (${era})`, async () => {
        const { client, heard } = await progressClient(gw.url, era);
        try {
          const done = await client.request({ method: 'tools/call', params: { name: `${server}:steps`, arguments: {}, _meta: { progressToken: 7 } } });
          expect(done.isError).toBeFalsy();
          expect(heard).toEqual([1, 2, 3].map((progress) => ({ progressToken: 7, progress, total: 3 })));

          heard.length = 0;
          const abort = new AbortController();
          const pending = client.request({ method: 'tools/call', params: { name: `${server}:forever`, arguments: {}, _meta: { progressToken: 8 } } }, { signal: abort.signal });
          pending.catch(() => undefined);
          await expect.poll(() => heard.length, { timeout: 30_000 }).toBeGreaterThan(0);
          const before = events(server).filter((e) => e.event === 'cancelled').length;
          abort.abort('enough');
          await expect(pending).rejects.toThrow();
          await expect.poll(() => events(server).filter((e) => e.event === 'cancelled').length, { timeout: 30_000 }).toBe(before + 1);
          const cancelled = events(server).filter((e) => e.event === 'cancelled').at(-1)!;
          expect(cancelled.tool).toBe('forever');
          // The upstream saw the gateway's own token, never the client's.
          expect(String(cancelled.progress_token)).toMatch(/^mcpproxy-\d+$/);
          expect(gw.gateway.runtime.upstreamInFlight()).toBe(0);
        } finally {
          await client.close();
        }
      });
    }
  }
});

interface FixtureEvent {
  readonly event: string;
  readonly tool?: string;
  readonly progress_token?: unknown;
}
