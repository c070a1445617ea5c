// No skew between the REST preflight and dispatch: for every gate state (server quarantine, approval
// pending and changed, user-disabled tool, config-denied tool, disabled server) a tools/call through
// /mcp is refused exactly when the REST preflight of that tool reports that gate, with the same
// reason, and goes through exactly when the preflight says ready. The state is moved both ways
// through the REST operator endpoints; both protocol revisions call.
import { readFileSync, writeFileSync } from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectClient, ERAS, fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type FixtureToolSpec, type TestGateway } from './gateway-harness.js';
import { restClient, type RestClient } from './rest-client.js';

const TOKEN = 'skew-agent-secret-0123456789';
const dir = new TempDir();
let gw: TestGateway;
let operator: RestClient;
let agent: RestClient;
let clients: Client[];
const toolsFile = `${dir.path}/svc.tools.json`;
const pidFile = `${dir.path}/svc.pid`;
const BASE: FixtureToolSpec[] = [
  { name: 'a', description: 'approved at start', echo: true },
  { name: 'b', description: 'approved at start', echo: true },
  { name: 'denied', description: 'the config denies it', echo: true },
];

beforeAll(async () => {
  const entry = fixtureServer('svc', dir.tools('svc', BASE), { disabled_tools: ['denied'] });
  gw = await startTestGateway(dir, {
    tool_quarantine: true,
    agent_tokens: [{ name: 'agent', token: TOKEN, allowed_servers: ['*'] }],
    servers: [{ ...entry, args: [...(entry.args as string[]), '--pid-file', pidFile] }],
  });
  await waitForState(gw.gateway, serverReady('svc'));
  operator = restClient(gw.gateway.origin!);
  agent = restClient(gw.gateway.origin!, { bearer: TOKEN });
  clients = await Promise.all(ERAS.map((era) => connectClient(gw.url, era, TOKEN)));
});
afterAll(async () => {
  await Promise.all((clients ?? []).map((client) => client.close()));
  await gw?.close();
  dir.remove();
});

/** What the preflight says and what dispatch does, for one ID: 'ready' or the reason code, on both sides. */
async function observe(id: string): Promise<{ preflight: string; calls: string[] }> {
  const answer = await agent.preflight({ tools: [{ id }] });
  const verdict = answer.body.tools[0] as { status: string; reason?: string };
  const calls = await Promise.all(
    clients.map(async (client) => {
      const result = (await client.callTool({ name: id, arguments: { n: 1 } })) as { isError?: boolean; content: { text: string }[] };
      if (result.isError !== true) return 'ready';
      return /^Tool call refused: (\w+)/.exec(result.content[0]?.text ?? '')?.[1] ?? `error: ${result.content[0]?.text ?? ''}`;
    }),
  );
  return { preflight: verdict.reason ?? verdict.status, calls };
}

async function expectBoth(id: string, expected: string): Promise<void> {
  const seen = await observe(id);
  expect(seen, id).toEqual({ preflight: expected, calls: ERAS.map(() => expected) });
}

function rewrite(tools: FixtureToolSpec[]): void {
  writeFileSync(toolsFile, JSON.stringify(tools));
  process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGHUP');
}

describe('no skew between REST preflight and tools/call', () => {
  it('starts ready on both sides', async () => {
    await expectBoth('svc:a', 'ready');
  });

  it('server quarantine, both ways', async () => {
    expect((await operator.call('POST', '/api/v1/servers/svc/quarantine')).status).toBe(200);
    await expectBoth('svc:a', 'server_quarantined');
    expect((await operator.call('POST', '/api/v1/servers/svc/unquarantine')).status).toBe(200);
    await expectBoth('svc:a', 'ready');
  });

  it('user-disabled tool, both ways', async () => {
    await operator.call('POST', '/api/v1/tools/svc:b/disable');
    await expectBoth('svc:b', 'tool_blocked_by_user');
    await expectBoth('svc:a', 'ready');
    await operator.call('POST', '/api/v1/tools/svc:b/enable');
    await expectBoth('svc:b', 'ready');
  });

  it('config-denied tool (fixed by the config): refused on both sides while its sibling runs', async () => {
    await expectBoth('svc:denied', 'tool_denied_by_config');
    await expectBoth('svc:a', 'ready');
  });

  it('approval pending, both ways', async () => {
    rewrite([...BASE, { name: 'newcomer', description: 'appeared after the baseline', echo: true }]);
    await waitForState(gw.gateway, (s) => s.snapshot.servers.get('svc')?.approvals.get('newcomer')?.status === 'pending');
    await expectBoth('svc:newcomer', 'tool_pending_approval');
    expect((await operator.call('POST', '/api/v1/tools/approve', { body: { server: 'svc', all_pending: true } })).status).toBe(200);
    await expectBoth('svc:newcomer', 'ready');
  });

  it('approval changed (rug-pull), both ways', async () => {
    rewrite([...BASE.map((tool) => (tool.name === 'a' ? { ...tool, description: 'now does something else' } : tool)), { name: 'newcomer', echo: true as const, description: 'appeared after the baseline' }]);
    await waitForState(gw.gateway, (s) => s.snapshot.servers.get('svc')?.approvals.get('a')?.status === 'changed');
    await expectBoth('svc:a', 'tool_changed');
    await expectBoth('svc:b', 'ready');
    expect((await operator.call('POST', '/api/v1/tools/approve', { body: { ids: ['svc:a'] } })).status).toBe(200);
    await expectBoth('svc:a', 'ready');
  });

  it('disabled server, both ways', async () => {
    await operator.call('POST', '/api/v1/servers/svc/disable');
    await expectBoth('svc:a', 'server_disabled');
    await operator.call('POST', '/api/v1/servers/svc/enable');
    await waitForState(gw.gateway, serverReady('svc'));
    await expectBoth('svc:a', 'ready');
  });

  it('unknown and unconfigured IDs: refused as not_found on both sides', async () => {
    await expectBoth('svc:nope', 'not_found');
    await expectBoth('ghost:a', 'not_found');
  });
});
