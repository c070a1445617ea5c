// Stdio sessions get what HTTP sessions get besides tools: the client holding `serve --stdio` open and
// a client relayed to that gateway by a second `serve --stdio` on the same data directory each hear
// their own call's progress under their own token, and read the upstream's resources by the
// gateway's URIs. Both kinds are served by the same stdio session code, which the relay reaches over
// the local socket.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { ChildStdioTransport } from './child-stdio-transport.js';
import { ERAS, SERVE_MAIN, TempDir, fixtureServer } from './gateway-harness.js';

let dir: TempDir;
beforeEach(() => {
  dir = new TempDir();
});
afterEach(() => dir.remove());

interface Held {
  readonly client: Client;
  readonly progress: unknown[];
  readonly exited: Promise<number | null>;
}

async function hold(configFile: string, era: 'legacy' | 'modern'): Promise<Held> {
  const child = spawn(process.execPath, [SERVE_MAIN, '--stdio', '--config', configFile], { stdio: ['pipe', 'pipe', 'pipe'] });
  child.stderr.resume();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const client = new Client({ name: 'stdio-passthrough-test', version: '1.0.0' }, era === 'modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {});
  const progress: unknown[] = [];
  client.setNotificationHandler('notifications/progress', (notification) => {
    progress.push(notification.params);
  });
  await client.connect(new ChildStdioTransport(child));
  return { client, progress, exited };
}

describe.each(ERAS)('stdio sessions pass progress and resources through, %s', (era) => {
  it('the gateway own stdio client and a relayed one each hear their call progress and read resources', async () => {
    const tools = dir.file(
      'demo.tools.json',
      JSON.stringify({ tools: [{ name: 'steps', progress: { steps: 3, interval_ms: 10 } }], resources: [{ uri: 'note://a?x=1', name: 'a', text: 'hello from demo' }] }),
    );
    const config = (name: string) =>
      dir.file(
        `${name}.json`,
        JSON.stringify({ data_dir: join(dir.path, 'data'), api_key: 'a-configured-admin-key-123', first_listing_wait_ms: 60_000, tool_quarantine: false, servers: [fixtureServer('demo', tools)] }),
      );
    const call = (client: Client, token: string) => client.request({ method: 'tools/call', params: { name: 'demo:steps', arguments: {}, _meta: { progressToken: token } } });
    const first = await hold(config('first'), era);
    try {
      // The first listing waits for the upstream's: from then on demo:steps can be called.
      expect((await first.client.listTools()).tools.map((t) => t.name)).toContain('demo:steps');
      const relayed = await hold(config('second'), era);
      try {
        // The same token on both: the gateway's own tokens upstream keep the two calls apart.
        const [a, b] = await Promise.all([call(first.client, 'same'), call(relayed.client, 'same')]);
        expect(a.isError).toBeFalsy();
        expect(b.isError).toBeFalsy();
        const expected = [1, 2, 3].map((progress) => expect.objectContaining({ progressToken: 'same', progress }));
        expect(first.progress).toEqual(expected);
        expect(relayed.progress).toEqual(expected);
        for (const client of [first.client, relayed.client]) {
          expect((await client.listResources()).resources.map((r) => [r.uri, r.name])).toEqual([['mcpproxy://demo/note://a?x=1', 'demo:a']]);
          const read = await client.readResource({ uri: 'mcpproxy://demo/note://a?x=1' });
          expect(read.contents).toEqual([expect.objectContaining({ uri: 'mcpproxy://demo/note://a?x=1', text: 'hello from demo' })]);
        }
      } finally {
        await relayed.client.close();
        await relayed.exited;
      }
    } finally {
      await first.client.close();
      await first.exited;
    }
  });
});
