// Resources, resource templates, prompts, completion and logging of a real upstream (server-everything
// over stdio) through the gateway, on both revisions: aggregated under namespaced names
// (`server:name`, `mcpproxy://<server>/<upstream URI>`), each request forwarded to its upstream, and
// the gates tools have where they apply (a quarantined server and one out of a token's scope give
// nothing). Subscriptions: a 2025-11-25 session hears the upstream's resource update.
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer } from './everything-upstream.js';
import { connectClient, ERAS, serverReady, startTestGateway, TempDir, toolText, waitForState, type TestGateway } from './gateway-harness.js';

const SCOPED_TOKEN = 'token-for-held-only-0123456789';
const DOCUMENT = 'mcpproxy://everything/demo://resource/static/document/features.md';

interface Listed {
  readonly uri?: string;
  readonly uriTemplate?: string;
  readonly name: string;
}

async function everyPage(client: Client, method: 'resources/list' | 'resources/templates/list' | 'prompts/list', key: string): Promise<Listed[]> {
  const all: Listed[] = [];
  let cursor: string | undefined;
  do {
    const page = (await client.request({ method, params: cursor === undefined ? {} : { cursor } })) as unknown as Record<string, unknown>;
    all.push(...(page[key] as Listed[]));
    cursor = page['nextCursor'] as string | undefined;
  } while (cursor !== undefined);
  return all;
}

describe('resources, prompts and completion through the gateway (server-everything)', () => {
  let dir: TempDir;
  let gw: TestGateway;
  beforeAll(async () => {
    dir = new TempDir();
    gw = await startTestGateway(dir, {
      tool_quarantine: true,
      servers: [everythingServer('everything'), { ...everythingServer('held'), quarantined: true }],
      agent_tokens: [{ name: 'held-only', token: SCOPED_TOKEN, allowed_servers: ['held'] }],
    });
    await waitForState(gw.gateway, (state) => serverReady('everything')(state) && serverReady('held')(state), 30_000);
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    dir?.remove();
  });

  for (const era of ERAS) {
    it(`lists and reads resources and templates under mcpproxy://everything/ (${era})`, async () => {
      const client = await connectClient(gw.url, era);
      try {
        const capabilities = client.getServerCapabilities();
        expect(capabilities?.resources).toEqual({ subscribe: true, listChanged: true });
        expect(capabilities?.prompts).toEqual({ listChanged: true });
        expect(capabilities?.completions).toEqual({});
        // 2026-07-28 carries log messages only inside a request: the gateway does not claim logging there.
        expect(capabilities?.logging).toEqual(era === 'legacy' ? {} : undefined);

        const resources = await everyPage(client, 'resources/list', 'resources');
        expect(resources.length).toBeGreaterThan(0);
        for (const resource of resources) {
          expect(resource.uri).toMatch(/^mcpproxy:\/\/everything\/demo:\/\//);
          expect(resource.name.startsWith('everything:')).toBe(true);
        }
        expect(resources.map((r) => r.uri)).toContain(DOCUMENT);

        const read = await client.request({ method: 'resources/read', params: { uri: DOCUMENT } });
        expect(read.contents[0]?.uri).toBe(DOCUMENT);
        expect((read.contents[0] as { text?: string }).text?.length).toBeGreaterThan(0);

        const templates = await everyPage(client, 'resources/templates/list', 'resourceTemplates');
        const text = templates.find((t) => t.name === 'everything:Dynamic Text Resource');
        expect(text?.uriTemplate).toBe('mcpproxy://everything/demo://resource/dynamic/text/{resourceId}');
        // Expanding the gateway's template gives a URI that reads back through the gateway.
        const expanded = text!.uriTemplate!.replace('{resourceId}', '7');
        const dynamic = await client.request({ method: 'resources/read', params: { uri: expanded } });
        expect(dynamic.contents[0]?.uri).toBe(expanded);
        expect((dynamic.contents[0] as { text?: string }).text).toContain('7');
      } finally {
        await client.close();
      }
    });

    it(`lists and gets prompts as everything:<prompt>, and completes their arguments (${era})`, async () => {
      const client = await connectClient(gw.url, era);
      try {
        const prompts = (await everyPage(client, 'prompts/list', 'prompts')).map((p) => p.name);
        expect(prompts).toEqual(expect.arrayContaining(['everything:simple-prompt', 'everything:args-prompt', 'everything:completable-prompt']));
        expect(prompts.every((name) => name.startsWith('everything:'))).toBe(true);

        const prompt = await client.request({ method: 'prompts/get', params: { name: 'everything:args-prompt', arguments: { city: 'Lyon' } } });
        expect(JSON.stringify(prompt.messages)).toContain('Lyon');

        const completed = await client.request({
          method: 'completion/complete',
          params: { ref: { type: 'ref/prompt', name: 'everything:completable-prompt' }, argument: { name: 'department', value: 'Eng' } },
        });
        expect(completed.completion.values).toEqual(['Engineering']);
        const byTemplate = await client.request({
          method: 'completion/complete',
          params: { ref: { type: 'ref/resource', uri: 'mcpproxy://everything/demo://resource/dynamic/text/{resourceId}' }, argument: { name: 'resourceId', value: '' } },
        });
        expect(Array.isArray(byTemplate.completion.values)).toBe(true);

        await expect(client.request({ method: 'prompts/get', params: { name: 'simple-prompt' } })).rejects.toMatchObject({ code: -32602 });
      } finally {
        await client.close();
      }
    });

    it(`gives nothing of a quarantined server or of one out of the token's scope (${era})`, async () => {
      const anonymous = await connectClient(gw.url, era);
      const scoped = await connectClient(gw.url, era, SCOPED_TOKEN);
      try {
        const anyHeld = (listed: Listed[]) => listed.some((entry) => (entry.uri ?? entry.uriTemplate ?? '').startsWith('mcpproxy://held/') || entry.name.startsWith('held:'));
        expect(anyHeld(await everyPage(anonymous, 'resources/list', 'resources'))).toBe(false);
        expect(anyHeld(await everyPage(anonymous, 'prompts/list', 'prompts'))).toBe(false);
        const quarantined = await anonymous.request({ method: 'resources/read', params: { uri: 'mcpproxy://held/demo://resource/static/document/features.md' } }).catch((error: unknown) => error);
        expect(quarantined).toMatchObject({ code: -32602, message: expect.stringContaining('quarantined') });

        // The token sees only `held`, which is quarantined: nothing at all, and everything is unknown to it.
        expect(await everyPage(scoped, 'resources/list', 'resources')).toEqual([]);
        expect(await everyPage(scoped, 'resources/templates/list', 'resourceTemplates')).toEqual([]);
        expect(await everyPage(scoped, 'prompts/list', 'prompts')).toEqual([]);
        const outOfScope = await scoped.request({ method: 'resources/read', params: { uri: DOCUMENT } }).catch((error: unknown) => error);
        const unknown = await scoped.request({ method: 'resources/read', params: { uri: 'mcpproxy://nowhere/demo://x' } }).catch((error: unknown) => error);
        expect(outOfScope).toMatchObject({ code: -32602 });
        // Out of scope reads exactly like a server that does not exist.
        expect((outOfScope as Error).message.replace(DOCUMENT, 'URI')).toBe((unknown as Error).message.replace('mcpproxy://nowhere/demo://x', 'URI'));
        await expect(scoped.request({ method: 'prompts/get', params: { name: 'everything:simple-prompt' } })).rejects.toMatchObject({ code: -32602 });
      } finally {
        await anonymous.close();
        await scoped.close();
      }
    });
  }

  it("forwards a resource update to the 2025-11-25 session subscribed to it, and the upstream's log messages at each session's level", async () => {
    const client = await connectClient(gw.url, 'legacy');
    const quiet = await connectClient(gw.url, 'legacy');
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      updates.push(notification.params.uri);
    });
    const logged = (c: Client) => {
      const messages: { logger?: string | undefined; data: unknown }[] = [];
      c.setNotificationHandler('notifications/message', (notification) => void messages.push(notification.params));
      return messages;
    };
    const heard = logged(client);
    const quietHeard = logged(quiet);
    try {
      expect(await client.request({ method: 'logging/setLevel', params: { level: 'info' } })).toEqual({});
      expect(await quiet.request({ method: 'logging/setLevel', params: { level: 'error' } })).toEqual({});
      await client.request({ method: 'resources/subscribe', params: { uri: DOCUMENT } });
      // server-everything logs each subscription at info: the session at info hears it, named after
      // the server; the one at error does not.
      await expect.poll(() => heard.find((m) => String(m.data).includes('Received Subscribe Resource request')), { timeout: 30_000 }).toMatchObject({ logger: 'everything' });
      // server-everything sends updates of subscribed resources once its simulation is switched on.
      const toggled = await client.callTool({ name: 'everything:toggle-subscriber-updates', arguments: {} });
      expect(toolText(toggled)).toContain('Started');
      try {
        await expect.poll(() => updates, { timeout: 30_000 }).toContain(DOCUMENT);
        // By now (a tool call and an update later) the session at error would have had it too.
        expect(quietHeard.filter((m) => String(m.data).includes('Received Subscribe'))).toEqual([]);
      } finally {
        await client.callTool({ name: 'everything:toggle-subscriber-updates', arguments: {} });
      }
      await client.request({ method: 'resources/unsubscribe', params: { uri: DOCUMENT } });
    } finally {
      await client.close();
      await quiet.close();
    }
  });
});
