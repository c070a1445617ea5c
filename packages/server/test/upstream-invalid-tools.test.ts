// A faulty upstream lists one malformed tool (inputSchema: null) and one name twice with different
// definitions, beside good tools. The server must still be ready and serve its good tools; the
// bad entries are reported in its status (REST GET /api/v1/servers), are neither listed nor
// callable, and a preflight of them is not_found with a detail that names the invalid definition.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexListing } from '../src/upstream/list-upstream-tools.js';
import { connectClient, ERAS, fixtureServer, startTestGateway, TempDir, toolText, waitForState, type TestGateway } from './gateway-harness.js';
import { restClient, type RestClient } from './rest-client.js';

const TOKEN = 'invalid-tools-agent-secret-0123456789';
const TOOLS = [
  { name: 'good', description: 'a valid tool', echo: true },
  { name: 'bad', description: 'its input schema is null', inputSchema: null, echo: true },
  { name: 'twin', description: 'the first definition', echo: true },
  { name: 'also_good', echo: true },
  { name: 'twin', description: 'a second, different definition', echo: true, duplicate: true },
];

describe('one listing, malformed and duplicate entries beside good ones', () => {
  it('indexes the valid tools and reports the rest with positions and reasons', () => {
    const listing = indexListing([
      { name: 'ok', inputSchema: { type: 'object' } },
      { name: 'nul', inputSchema: null },
      { description: 'no name at all', inputSchema: { type: 'object' } },
      { name: 'dup', inputSchema: { type: 'object' } },
      { name: 'dup', inputSchema: { type: 'object', properties: {} } },
      'not even an object',
    ]);
    expect([...listing.tools.keys()]).toEqual(['ok']);
    expect(listing.invalid).toEqual([
      { name: 'nul', position: 1, reason: expect.stringMatching(/^inputSchema: .*null/) },
      { position: 2, reason: expect.stringMatching(/^name: /) },
      { name: 'dup', position: 3, reason: 'listed 2 times (positions 3, 4): none of them is served' },
      { position: 5, reason: expect.stringMatching(/^the entry: /) },
    ]);
  });
});

describe('against the real gateway and a faulty fixture upstream', () => {
  const dir = new TempDir();
  let gw: TestGateway;
  let operator: RestClient;
  let agent: RestClient;

  beforeAll(async () => {
    gw = await startTestGateway(dir, {
      agent_tokens: [{ name: 'agent', token: TOKEN, allowed_servers: ['*'] }],
      servers: [fixtureServer('fx', dir.file('fx.tools.json', JSON.stringify(TOOLS)))],
    });
    // Before the fix the whole server went to error here: the good tools read server_unhealthy.
    await waitForState(gw.gateway, (s) => ['ready', 'error'].includes(s.snapshot.servers.get('fx')?.connection.state ?? ''));
    operator = restClient(gw.gateway.origin!);
    agent = restClient(gw.gateway.origin!, { bearer: TOKEN });
  });
  afterAll(async () => {
    await gw?.close();
    dir.remove();
  });

  it('stays ready and serves its good tools', async () => {
    expect(gw.gateway.runtime.current().snapshot.servers.get('fx')?.connection).toMatchObject({ state: 'ready' });
    const answer = await agent.preflight({ tools: [{ id: 'fx:good' }, { id: 'fx:also_good' }] });
    expect(answer.body.verdict).toBe('ready');
    for (const era of ERAS) {
      const client = await connectClient(gw.url, era, TOKEN);
      try {
        const listed = (await client.listTools()).tools.map((tool) => tool.name);
        expect(listed, era).toEqual(expect.arrayContaining(['fx:good', 'fx:also_good']));
        expect(listed, era).not.toEqual(expect.arrayContaining(['fx:bad']));
        expect(listed, era).not.toEqual(expect.arrayContaining(['fx:twin']));
        expect(toolText(await client.callTool({ name: 'fx:good', arguments: { n: era } }))).toContain(era);
        const refused = await client.callTool({ name: 'fx:bad', arguments: {} });
        expect(refused.isError).toBe(true);
        expect(toolText(refused)).toMatch(/^Tool call refused: not_found\nTool fx:bad is listed by server fx with an invalid definition/);
      } finally {
        await client.close();
      }
    }
  });

  it('a preflight of an invalid one is not_found naming the invalid definition, on both tiers', async () => {
    for (const api of [operator, agent]) {
      const answer = await api.preflight({ tools: [{ id: 'fx:bad' }, { id: 'fx:twin' }] });
      expect(answer.status).toBe(200);
      expect(answer.body.verdict).toBe('unknown_ids');
      expect(answer.body.tools).toEqual([
        {
          id: 'fx:bad',
          status: 'unavailable',
          reason: 'not_found',
          retryable: false,
          action: 'configure',
          detail: 'Tool fx:bad is listed by server fx with an invalid definition, so the gateway does not serve it.',
          remediation: "See what is wrong with it in mcpproxy servers list; the server's author must fix the definition of bad.",
        },
        expect.objectContaining({ id: 'fx:twin', reason: 'not_found', detail: 'Tool fx:twin is listed by server fx with an invalid definition, so the gateway does not serve it.' }),
      ]);
    }
  });

  it("the server's status names each one and says why", async () => {
    const answer = await operator.call('GET', '/api/v1/servers');
    expect(answer.status).toBe(200);
    const fx = (answer.body.servers as { name: string }[]).find((server) => server.name === 'fx');
    expect(fx).toMatchObject({
      state: 'ready',
      tools: { indexed: 2, served: 2 },
      invalid_tools: [
        { name: 'bad', position: 1, reason: expect.stringMatching(/^inputSchema: .*null/) },
        { name: 'twin', position: 2, reason: 'listed 2 times (positions 2, 4): none of them is served' },
      ],
    });
    expect(fx).not.toHaveProperty('last_error');
  });
});
