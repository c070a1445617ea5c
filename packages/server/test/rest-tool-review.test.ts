// GET /api/v1/tools/{id}/review against a real gateway, fixture upstream and SQLite file: the
// definition recorded when a tool was approved, next to the one listed after a rug-pull; approving
// records the new one; both survive a restart of the gateway on the same data directory.
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_MAIN, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { restClient, type RestClient } from './rest-client.js';

const V1 = { name: 'drifting', title: 'Drifting', description: 'v1', inputSchema: { type: 'object', properties: { a: { type: 'string' } } }, annotations: { readOnlyHint: true } };
const V2 = { name: 'drifting', title: 'Drifting', description: 'v2', inputSchema: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'number' } } }, annotations: { readOnlyHint: false } };
const AGENT_SECRET = 'review-agent-secret-0123';

let dir: TempDir;
let gw: TestGateway;
let api: RestClient;
let toolsFile: string;
let pidFile: string;

function config(): Record<string, unknown> {
  return {
    tool_quarantine: true,
    servers: [{ name: 'rev', command: process.execPath, args: [FIXTURE_MAIN, '--tools', toolsFile, '--pid-file', pidFile], quarantined: false }],
    agent_tokens: [{ name: 'agent', token: AGENT_SECRET, allowed_servers: ['*'] }],
  };
}

async function start(): Promise<void> {
  gw = await startTestGateway(dir, config());
  api = restClient(gw.gateway.origin!);
  await waitForState(gw.gateway, serverReady('rev'));
}

beforeAll(async () => {
  dir = new TempDir();
  toolsFile = dir.file('rev.tools.json', JSON.stringify([V1, { name: 'stable' }]));
  pidFile = dir.file('rev.pid', '');
  await start();
});
afterAll(async () => {
  await gw?.close();
  dir?.remove();
});

describe('GET /api/v1/tools/{id}/review', () => {
  it('shows the approved definition of the baseline, identical to what is listed', async () => {
    const answer = await api.call('GET', '/api/v1/tools/rev%3Adrifting/review');
    expect(answer.status).toBe(200);
    const definition = { title: 'Drifting', description: 'v1', inputSchema: V1.inputSchema, annotations: V1.annotations };
    expect(answer.body).toMatchObject({ tool: { id: 'rev:drifting', approval: 'approved' }, approved: definition, current: definition, approved_recorded: true });
  });

  it('after a rug-pull shows the approved v1 next to the listed v2; approving records v2; both survive a restart', async () => {
    writeFileSync(toolsFile, JSON.stringify([V2, { name: 'stable' }, { name: 'newcomer', description: 'new' }]));
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGHUP');
    await waitForState(gw.gateway, (state) => state.snapshot.servers.get('rev')?.approvals.get('drifting')?.status === 'changed');
    const changed = await api.call('GET', '/api/v1/tools/rev%3Adrifting/review');
    expect(changed.body.tool).toMatchObject({ approval: 'changed' });
    expect(changed.body.approved).toMatchObject({ description: 'v1', annotations: { readOnlyHint: true } });
    expect(changed.body.current).toMatchObject({ description: 'v2', annotations: { readOnlyHint: false }, inputSchema: V2.inputSchema });
    expect(changed.body.tool.approved_hash).not.toBe(changed.body.tool.hash);

    // A tool that appeared after the baseline has no approved definition yet, and says it lacks none.
    const pending = await api.call('GET', '/api/v1/tools/rev%3Anewcomer/review');
    expect(pending.body).toMatchObject({ tool: { approval: 'pending' }, current: { description: 'new' }, approved_recorded: true });
    expect(pending.body).not.toHaveProperty('approved');

    expect((await api.call('POST', '/api/v1/tools/approve', { body: { ids: ['rev:drifting'] } })).status).toBe(200);
    const approved = await api.call('GET', '/api/v1/tools/rev%3Adrifting/review');
    expect(approved.body).toMatchObject({ tool: { approval: 'approved' }, approved: { description: 'v2' }, current: { description: 'v2' } });

    await gw.close();
    await start();
    const afterRestart = await api.call('GET', '/api/v1/tools/rev%3Adrifting/review');
    expect(afterRestart.body).toMatchObject({ approved: { description: 'v2', annotations: { readOnlyHint: false } }, approved_recorded: true });
  });

  it('404 for what is not a known tool, 403 for an agent token, 401 without credentials', async () => {
    expect((await api.call('GET', '/api/v1/tools/rev%3Aghost/review')).body).toMatchObject({ code: 'not_found', path: 'id' });
    expect((await api.call('GET', '/api/v1/tools/nope%3Ax/review')).status).toBe(404);
    expect((await api.call('GET', '/api/v1/tools/no-colon/review')).status).toBe(404);
    expect((await restClient(gw.gateway.origin!, { bearer: AGENT_SECRET }).call('GET', '/api/v1/tools/rev%3Adrifting/review')).status).toBe(403);
    expect((await restClient(gw.gateway.origin!, null).call('GET', '/api/v1/tools/rev%3Adrifting/review')).status).toBe(401);
  });
});
