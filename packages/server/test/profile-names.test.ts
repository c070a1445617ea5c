// Profile names are not secret at the agent tier (server README, "Profile names"): an agent can tell
// an unknown profile from a known one, by design, because naming a profile only ever narrows what it
// sees. These tests pin that reasoning: a known profile outside a token's scope gives it nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { restClient, withoutVolatile } from './rest-client.js';

const AGENT = 'profile-agent-secret-0123456789';

describe('profile names at the agent tier', () => {
  let dir: TempDir;
  let gw: TestGateway;
  beforeAll(async () => {
    dir = new TempDir();
    gw = await startTestGateway(dir, {
      servers: [fixtureServer('alpha', dir.tools('alpha', [{ name: 'echo', echo: true }])), fixtureServer('beta', dir.tools('beta', [{ name: 'echo', echo: true }]))],
      profiles: [{ name: 'dev', servers: ['alpha'] }, { name: 'prod', servers: ['beta'] }],
      agent_tokens: [{ name: 'dev-agent', token: AGENT, allowed_servers: ['alpha'] }],
    });
    await waitForState(gw.gateway, (state) => serverReady('alpha')(state) && serverReady('beta')(state));
  });
  afterAll(async () => {
    await gw.close();
    dir.remove();
  });

  it("a known profile outside the token's scope lists and checks nothing more than a server that does not exist", async () => {
    const client = await connectClient(`${gw.gateway.origin!}/mcp/p/prod`, 'modern', AGENT);
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['describe_tool']);
    } finally {
      await client.close();
    }
    const agent = restClient(gw.gateway.origin!, { bearer: AGENT });
    const viaProfile = await agent.preflight({ tools: [{ id: 'beta:echo' }], profile: 'prod' });
    const ghost = await agent.preflight({ tools: [{ id: 'ghost:echo' }] });
    expect([viaProfile.status, viaProfile.body.tools[0].reason]).toEqual([200, 'not_found']);
    // Byte for byte what a server that is not configured reads like (apart from the id it names).
    expect(withoutVolatile(viaProfile.text).replaceAll('beta', 'ghost')).toBe(withoutVolatile(ghost.text));
  });

  it('an unknown profile is a plain error, so a typo is loud (400 on REST, 404 on /mcp/p/)', async () => {
    const agent = restClient(gw.gateway.origin!, { bearer: AGENT });
    const typo = await agent.preflight({ tools: [{ id: 'alpha:echo' }], profile: 'dve' });
    expect([typo.status, typo.body.code]).toEqual([400, 'unknown_profile']);
    const mcp = await fetch(`${gw.gateway.origin!}/mcp/p/dve`, { method: 'POST', headers: { authorization: `Bearer ${AGENT}`, 'content-type': 'application/json' }, body: '{}' });
    expect(mcp.status).toBe(404);
  });
});
