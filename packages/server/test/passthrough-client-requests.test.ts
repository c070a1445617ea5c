// Server-to-client requests through the gateway: an upstream tool that asks for sampling, elicitation
// or roots has its request answered by the client whose call caused it (2025-11-25: a real request
// related to the call; 2026-07-28: input_required and the client's retry), when that client declared
// the capability; otherwise the upstream gets an error that says why. server-everything's own
// sampling and elicitation tools, and the fixture upstream over stdio and HTTP (its events file shows
// exactly what the upstream got back).
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer } from './everything-upstream.js';
import { connectClient, ERAS, serverReady, startTestGateway, TempDir, toolText, waitForState, type Era, type FixtureToolSpec, type TestGateway } from './gateway-harness.js';
import { openRawSession } from './raw-mcp-session.js';
import { startWebAndLocal, type WebAndLocal } from './web-and-local-gateway.js';

interface AskedEvent {
  readonly event: string;
  readonly tool?: string;
  readonly outcome?: string;
  readonly detail?: { readonly code?: number; readonly message?: string; readonly data?: { readonly reason?: string } };
}

const ASKING = { sampling: {}, elicitation: { form: {} }, roots: {} };

/** A client that answers sampling, elicitation and roots requests the way a host application would. */
async function answeringClient(url: string, era: Era, who: string): Promise<Client> {
  const client = await connectClient(url, era, undefined, ASKING);
  client.setRequestHandler('sampling/createMessage', async () => ({ role: 'assistant', content: { type: 'text', text: `sampled by ${who}` }, model: 'test-model' }));
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: `Ada via ${who}` } }));
  client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///work', name: `roots of ${who}` }] }));
  return client;
}

describe('server-everything asks the calling client for sampling and elicitation through the gateway', () => {
  let dir: TempDir;
  let gw: TestGateway;
  beforeAll(async () => {
    dir = new TempDir();
    gw = await startTestGateway(dir, { tool_quarantine: false, servers: [everythingServer('everything')] });
    // Its sampling and elicitation tools appear once it knows the gateway can route those requests.
    await waitForState(gw.gateway, (state) => serverReady('everything')(state) && state.snapshot.servers.get('everything')!.tools.has('trigger-elicitation-request'), 30_000);
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    dir?.remove();
  });

  for (const era of ERAS) {
    it(`the client that called answers the upstream's sampling and elicitation (${era})`, async () => {
      const client = await answeringClient(gw.url, era, era);
      try {
        const sampled = await client.callTool({ name: 'everything:trigger-sampling-request', arguments: { prompt: 'hello', maxTokens: 5 } });
        expect(sampled.isError).toBeFalsy();
        expect(toolText(sampled)).toContain(`sampled by ${era}`);
        const elicited = await client.callTool({ name: 'everything:trigger-elicitation-request', arguments: {} });
        expect(elicited.isError).toBeFalsy();
        expect(JSON.stringify(elicited.content)).toContain(`Ada via ${era}`);
        expect(gw.gateway.runtime.upstreamInFlight()).toBe(0);
      } finally {
        await client.close();
      }
    });

    it(`a client that did not declare sampling: the upstream is told so (${era})`, async () => {
      const client = await connectClient(gw.url, era);
      try {
        const refused = await client.callTool({ name: 'everything:trigger-sampling-request', arguments: { prompt: 'hello' } });
        // server-everything reports the error its request got as the tool's error.
        expect(refused.isError).toBe(true);
        expect(toolText(refused)).toContain('did not declare the sampling capability');
      } finally {
        await client.close();
      }
    });
  }
});

describe('the fixture upstream asks its client, over stdio and over HTTP', () => {
  let dir: TempDir;
  let gw: TestGateway;
  let both: WebAndLocal;
  const events = (server: 'web' | 'local') => both.events<AskedEvent>(server).filter((e) => e.event === 'asked');
  beforeAll(async () => {
    dir = new TempDir();
    const tools = dir.tools('asking', [
      { name: 'sample', ask: { method: 'sampling/createMessage', params: { messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }], maxTokens: 5 } } },
      { name: 'elicit', ask: { method: 'elicitation/create', params: { message: 'your name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } } } },
      { name: 'roots', ask: { method: 'roots/list' } },
      { name: 'hold', progress: { steps: 1_000_000, interval_ms: 20 } },
    ] as unknown as FixtureToolSpec[]);
    both = await startWebAndLocal(dir, tools);
    gw = both.gw;
  }, 60_000);
  afterAll(async () => {
    await both?.close();
    dir?.remove();
  });

  for (const era of ERAS) {
    for (const server of ['local', 'web'] as const) {
      it(`${server}: sampling, elicitation and roots are answered by the calling client (${era})`, async () => {
        const client = await answeringClient(gw.url, era, `${server}-${era}`);
        try {
          expect(toolText(await client.callTool({ name: `${server}:sample`, arguments: {} }))).toContain(`sampled by ${server}-${era}`);
          expect(toolText(await client.callTool({ name: `${server}:elicit`, arguments: {} }))).toContain(`Ada via ${server}-${era}`);
          expect(toolText(await client.callTool({ name: `${server}:roots`, arguments: {} }))).toContain(`roots of ${server}-${era}`);
          expect(events(server).slice(-3).map((e) => e.outcome)).toEqual(['answered', 'answered', 'answered']);
        } finally {
          await client.close();
        }
      });
    }

    it(`the upstream gets an error saying why when the calling client did not declare the capability (${era})`, async () => {
      const client = await connectClient(gw.url, era);
      try {
        const result = await client.callTool({ name: 'local:sample', arguments: {} });
        expect(result.isError).toBe(true);
        const got = events('local').at(-1)!;
        expect(got).toMatchObject({ tool: 'sample', outcome: 'failed', detail: { code: -32600, data: { reason: 'capability_missing' } } });
        expect(got.detail?.message).toContain('did not declare the sampling capability');
      } finally {
        await client.close();
      }
    });
  }

  it('2026-07-28 on the wire: input_required with the request, a requestState good for that caller and call only, then the answer', async () => {
    const session = await openRawSession(gw.url, 'modern', { capabilities: { sampling: {} } });
    try {
      const first = await session.request('tools/call', { name: 'local:sample', arguments: {} });
      expect(first.result).toMatchObject({ resultType: 'input_required', inputRequests: { 'input-1': { method: 'sampling/createMessage', params: { maxTokens: 5 } } } });
      const state = first.result.requestState as string;
      expect(typeof state).toBe('string');
      const answer = { 'input-1': { role: 'assistant', content: { type: 'text', text: 'raw answer' }, model: 'm' } };
      // A forged state, or the right one for another call, is refused and answers nothing.
      expect((await session.request('tools/call', { name: 'local:sample', arguments: {}, requestState: `${state}x`, inputResponses: answer })).error).toMatchObject({ code: -32602, message: 'Invalid or expired requestState' });
      expect((await session.request('tools/call', { name: 'local:elicit', arguments: {}, requestState: state, inputResponses: answer })).error).toMatchObject({ code: -32602 });
      const done = await session.request('tools/call', { name: 'local:sample', arguments: {}, requestState: state, inputResponses: answer });
      expect(done.result.resultType).toBe('complete');
      expect(done.result.content[0].text).toContain('raw answer');
      // The flow ended with its call: the state is good for nothing now.
      expect((await session.request('tools/call', { name: 'local:sample', arguments: {}, requestState: state, inputResponses: answer })).error).toMatchObject({ code: -32602 });
      expect(gw.gateway.runtime.upstreamInFlight()).toBe(0);
    } finally {
      await session.close();
    }
  });

  it('stdio cannot tell two calls apart: with two in flight the request is refused; HTTP ties it to its call', async () => {
    const holder = await answeringClient(gw.url, 'legacy', 'holder');
    const asker = await answeringClient(gw.url, 'legacy', 'asker');
    try {
      for (const server of ['local', 'web'] as const) {
        const abort = new AbortController();
        let progressed = false;
        const held = holder.request({ method: 'tools/call', params: { name: `${server}:hold`, arguments: {}, _meta: { progressToken: 'hold' } } }, { signal: abort.signal, onprogress: () => (progressed = true) });
        held.catch(() => undefined);
        await expect.poll(() => progressed, { timeout: 30_000 }).toBe(true);
        const asked = await asker.callTool({ name: `${server}:sample`, arguments: {} });
        if (server === 'local') {
          expect(asked.isError).toBe(true);
          expect(events('local').at(-1)).toMatchObject({ outcome: 'failed', detail: { code: -32600, data: { reason: 'not_routable' } } });
          expect(events('local').at(-1)!.detail?.message).toContain('cannot be tied to one call: 2 calls');
        } else {
          // Over HTTP the request came on the asker's call stream: the asker answers, not the holder.
          expect(toolText(asked)).toContain('sampled by asker');
        }
        abort.abort('done holding');
        await expect(held).rejects.toThrow();
      }
      await expect.poll(() => gw.gateway.runtime.upstreamInFlight(), { timeout: 10_000 }).toBe(0);
    } finally {
      await holder.close();
      await asker.close();
    }
  });
});
