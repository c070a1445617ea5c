// End to end with a real published MCP server as the upstream: @modelcontextprotocol/server-everything
// over stdio, listed through the gateway as everything:* and called with its real result.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer } from './everything-upstream.js';
import { connectClient, ERAS, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';

describe('a real published upstream: server-everything', () => {
  let dir: TempDir;
  let gw: TestGateway;
  beforeAll(async () => {
    dir = new TempDir();
    gw = await startTestGateway(dir, { tool_quarantine: false, servers: [everythingServer('everything')] });
    await waitForState(gw.gateway, serverReady('everything'), 30_000);
  }, 60_000);
  afterAll(async () => {
    await gw?.close();
    dir?.remove();
  });

  for (const era of ERAS) {
    it(`lists everything:* and calls echo with the upstream's real result (${era})`, async () => {
      const client = await connectClient(gw.url, era);
      try {
        const names = (await client.listTools()).tools.map((t) => t.name);
        expect(names).toContain('everything:echo');
        const upstreamTools = [...gw.gateway.runtime.current().snapshot.servers.get('everything')!.tools.keys()].sort();
        expect(names.filter((n) => n.startsWith('everything:'))).toEqual(upstreamTools.map((t) => `everything:${t}`));
        const result = await client.callTool({ name: 'everything:echo', arguments: { message: `hello from ${era}` } });
        expect(result.isError).toBeFalsy();
        expect(result.content).toEqual([{ type: 'text', text: `Echo: hello from ${era}` }]);
      } finally {
        await client.close();
      }
    });
  }
});
