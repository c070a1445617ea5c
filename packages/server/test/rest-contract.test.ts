// The REST contract, status by status, against a real gateway (real HTTP, real SQLite, real fixture
// upstreams). Every answer passes through rest-client.ts, which validates it against the generated
// OpenAPI document; the last test checks that every documented operation was exercised.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { checkValue, strictValidators } from '@mcpproxy/schema';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FailingActivityStore } from './failing-activity-store.js';
import { fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { API_ERROR_SCHEMA, OPENAPI, OPENAPI_TEXT, schemaErrors } from './openapi-contract.js';
import { ADMIN_KEY, restClient, SEEN, type RestClient } from './rest-client.js';

const AGENT_SECRET = 'agent-alpha-secret-0123';
const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };

let dir: TempDir;
let gw: TestGateway;
let api: RestClient;
let agent: RestClient;
let anonymous: RestClient;

beforeAll(async () => {
  dir = new TempDir();
  const tools = dir.tools('alpha', [
    { name: 'echo', annotations: READ_ONLY, echo: true },
    { name: 'write', annotations: { readOnlyHint: false, destructiveHint: true } },
    { name: 'denied' },
  ]);
  gw = await startTestGateway(dir, {
    tool_quarantine: true,
    servers: [
      fixtureServer('alpha', tools, { disabled_tools: ['denied'] }),
      fixtureServer('beta', tools),
      fixtureServer('quar', tools, { quarantined: true }),
      fixtureServer('off', tools, { enabled: false }),
    ],
    agent_tokens: [{ name: 'agent-alpha', token: AGENT_SECRET, allowed_servers: ['alpha'] }],
    profiles: [{ name: 'p-beta', servers: ['beta'] }],
  });
  await waitForState(gw.gateway, (s) => ['alpha', 'beta', 'quar'].every((name) => serverReady(name)(s)));
  api = restClient(gw.gateway.origin!);
  agent = restClient(gw.gateway.origin!, { bearer: AGENT_SECRET });
  anonymous = restClient(gw.gateway.origin!, null);
});
afterAll(async () => {
  await gw?.close();
  dir?.remove();
});

async function recordsFor(requestId: string) {
  return (await api.call('GET', `/api/v1/activity?request_id=${requestId}`)).body.records as { metadata: Record<string, unknown>; surface?: string }[];
}

describe('POST /api/v1/preflight', () => {
  it('200 at the operator tier: every REST code, hashes on ready tools, RestPreflightResponse strictly', async () => {
    const answer = await api.preflight({
      tools: [{ id: 'alpha:echo' }, { id: 'alpha:denied' }, { id: 'quar:echo' }, { id: 'off:echo' }, { id: 'ghost:x' }, { id: 'alpha:ech' }, { id: 'beta:echo' }],
      profile: 'p-beta',
    });
    expect(answer.status).toBe(200);
    expect(checkValue(strictValidators.RestPreflightResponse, answer.body).ok).toBe(true);
    expect(answer.body.tools.map((t: { reason?: string; status: string }) => t.reason ?? t.status)).toEqual([
      'server_not_in_scope',
      'server_not_in_scope',
      'server_not_in_scope',
      'server_not_in_scope',
      'server_not_configured',
      'server_not_in_scope',
      'ready',
    ]);
    expect(answer.body.tools[6].hash).toMatch(/^sha256\/v1:[0-9a-f]{64}$/);
    expect(answer.body.verdict).toBe('unknown_ids');
    expect(Object.keys(answer.body)).toEqual(['verdict', 'checked_at', 'request_id', 'tools']);
    // The answer is composed from pieces (the tool list serialised once per evaluation): still one plain JSON document.
    expect(answer.text).toBe(JSON.stringify(answer.body));
  });

  it('200 at the agent tier: out-of-scope and unconfigured are not_found, no hashes, RestAgentPreflightResponse strictly', async () => {
    const answer = await agent.preflight({ tools: [{ id: 'alpha:echo' }, { id: 'alpha:denied' }, { id: 'beta:echo' }, { id: 'ghost:x' }] });
    expect(answer.status).toBe(200);
    expect(checkValue(strictValidators.RestAgentPreflightResponse, answer.body).ok).toBe(true);
    expect(answer.body.tools.map((t: { reason?: string; status: string }) => t.reason ?? t.status)).toEqual(['ready', 'tool_denied_by_config', 'not_found', 'not_found']);
    expect(answer.text).not.toContain('sha256/');
  });

  it('200 whatever the verdict, with policy, pins and waited_ms when wait_ms was given', async () => {
    const hash = (await api.preflight({ tools: [{ id: 'alpha:write' }] })).body.tools[0].hash as string;
    const answer = await api.preflight({
      tools: [{ id: 'alpha:write', pin_hash: hash }, { id: 'alpha:echo', pin_hash: 'sha256/v1:zz' }, { id: 'beta:write' }],
      policy: { exclude_destructive: true },
      wait_ms: 2000,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.tools.map((t: { reason?: string }) => t.reason)).toEqual(['policy_filtered', 'hash_mismatch', 'policy_filtered']);
    expect(answer.body.waited_ms).toBe(0);
    expect(answer.body.verdict).toBe('blocked');
    expect(Object.keys(answer.body)).toEqual(['verdict', 'checked_at', 'request_id', 'waited_ms', 'tools']);
    expect(answer.text).toBe(JSON.stringify(answer.body));
  });

  it('answers with one flat JSON document and its headers for any valid X-Request-Id (the id is written without escaping)', async () => {
    // Every character REQUEST_ID_PATTERN allows, at its shortest and longest.
    const alphabet = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-'];
    const ids = fc.oneof(fc.constant(alphabet.join('')), fc.string({ unit: fc.constantFrom(...alphabet), minLength: 1, maxLength: 256 }));
    await fc.assert(
      fc.asyncProperty(ids, async (id) => {
        const answer = await api.preflight({ tools: [{ id: 'alpha:echo' }] }, { headers: { 'x-request-id': id } });
        expect(answer.body.request_id).toBe(id);
        expect(answer.text).toBe(JSON.stringify(answer.body));
        expect([answer.headers.get('x-request-id'), answer.headers.get('content-type'), answer.headers.get('content-length')]).toEqual([id, 'application/json', String(Buffer.byteLength(answer.text))]);
      }),
      { numRuns: 25 },
    );
  });

  it('honours a valid X-Request-Id (header and body) and replaces an invalid one', async () => {
    const kept = await api.preflight({ tools: [{ id: 'alpha:echo' }] }, { headers: { 'x-request-id': 'abc_DEF-123' } });
    expect([kept.headers.get('x-request-id'), kept.body.request_id]).toEqual(['abc_DEF-123', 'abc_DEF-123']);
    const replaced = await api.preflight({ tools: [{ id: 'alpha:echo' }] }, { headers: { 'x-request-id': 'no spaces/allowed' } });
    expect(replaced.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced.headers.get('x-request-id')).toBe(replaced.body.request_id);
  });

  it('records surface cli for a cli/ User-Agent or X-Client, rest otherwise', async () => {
    await api.preflight({ tools: [{ id: 'alpha:echo' }] }, { headers: { 'user-agent': 'cli/0.1.0', 'x-request-id': 'surface-ua' } });
    await api.preflight({ tools: [{ id: 'alpha:echo' }] }, { headers: { 'x-client': 'cli/0.1.0', 'x-request-id': 'surface-xc' } });
    await api.preflight({ tools: [{ id: 'alpha:echo' }] }, { headers: { 'user-agent': 'curl/8.0', 'x-request-id': 'surface-rest' } });
    expect((await recordsFor('surface-ua'))[0]?.surface).toBe('cli');
    expect((await recordsFor('surface-xc'))[0]?.surface).toBe('cli');
    expect((await recordsFor('surface-rest'))[0]?.surface).toBe('rest');
  });

  const badRequests: [string, string | unknown, string, string][] = [
    ['bad JSON', '{"tools": [', 'invalid_json', ''],
    ['two JSON values', '{"tools":[{"id":"alpha:echo"}]} {}', 'invalid_json', ''],
    ['an empty body', '', 'invalid_json', ''],
    ['bytes that are not UTF-8', Buffer.concat([Buffer.from('{"tools":[{"id":"alpha:'), Buffer.from([0xff]), Buffer.from('"}]}')]), 'invalid_json', ''],
    ['over 1 MiB', JSON.stringify({ tools: [{ id: 'alpha:echo', pin_hash: 'x'.repeat(256) }], profile: 'p'.repeat(1024 * 1024) }), 'body_too_large', ''],
    ['an unknown field', { tools: [{ id: 'alpha:echo' }], extra: true }, 'invalid_body', '/extra'],
    ['an unknown field in an entry', { tools: [{ id: 'alpha:echo', pin: 'x' }] }, 'invalid_body', '/tools/0/pin'],
    ['not an object', [{ id: 'alpha:echo' }], 'invalid_body', ''],
    ['an empty list', { tools: [] }, 'invalid_body', '/tools'],
    ['101 entries (all the same ID)', { tools: Array.from({ length: 101 }, () => ({ id: 'alpha:echo' })) }, 'invalid_body', '/tools'],
    ['conflicting pins', { tools: [{ id: 'alpha:echo', pin_hash: 'sha256/v1:aa' }, { id: 'alpha:echo' }] }, 'conflicting_pins', '/tools/1'],
    ['an unknown profile', { tools: [{ id: 'alpha:echo' }], profile: 'nope' }, 'unknown_profile', '/profile'],
    ['wait_ms -1', { tools: [{ id: 'alpha:echo' }], wait_ms: -1 }, 'invalid_body', '/wait_ms'],
    ['wait_ms 10001', { tools: [{ id: 'alpha:echo' }], wait_ms: 10_001 }, 'invalid_body', '/wait_ms'],
    ['wait_ms 1.5', { tools: [{ id: 'alpha:echo' }], wait_ms: 1.5 }, 'invalid_body', '/wait_ms'],
  ];
  for (const [label, body, code, path] of badRequests) {
    it(`400 ${code} for ${label}, and no activity record`, async () => {
      const requestId = `bad-${label.replace(/[^a-z0-9]+/gi, '-')}`;
      const answer = await api.preflight(body, { headers: { 'x-request-id': requestId } });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code, path, request_id: requestId });
      expect(answer.text).not.toMatch(/\bat .*\.(js|ts):\d+/);
      expect(await recordsFor(requestId)).toEqual([]);
    });
  }

  const refusedMedia: [string, Record<string, string>, string, string][] = [
    ['a body that is not application/json', { 'content-type': 'text/plain' }, 'Content-Type', 'Send the body as Content-Type: application/json (got text/plain)'],
    ['a compressed body', { 'content-encoding': 'gzip' }, 'Content-Encoding', 'Send the body uncompressed (got Content-Encoding: gzip)'],
  ];
  for (const [label, headers, path, message] of refusedMedia) {
    it(`415 unsupported_media_type for ${label}, on every endpoint that takes one, and no activity record`, async () => {
      const requestId = `bad-media-${path}`;
      const refused = { headers: { ...headers, 'x-request-id': requestId } };
      const answers = [
        await api.preflight({ tools: [{ id: 'alpha:echo' }] }, refused),
        await api.call('POST', '/api/v1/tools/approve', { body: { ids: ['alpha:echo'] }, ...refused }),
        await api.call('POST', '/api/v1/tokens', { body: { name: 'media', allowed_servers: ['alpha'] }, ...refused }),
        await api.call('POST', '/api/v1/servers/alpha/login', { body: { token: 'upstream-token' }, ...refused }),
      ];
      for (const answer of answers) {
        expect(answer.status).toBe(415);
        expect(answer.body).toMatchObject({ code: 'unsupported_media_type', path, message });
      }
      expect(await recordsFor(requestId)).toEqual([]);
    });
  }

  it('names the first byte that is not UTF-8, and reads a body behind a byte order mark', async () => {
    const before = '{"tools":[{"id":"alpha:';
    const bad = await api.preflight(Buffer.concat([Buffer.from(before), Buffer.from([0xe2, 0x82]), Buffer.from('"}]}')]));
    expect(bad.body).toMatchObject({ code: 'invalid_json', message: `The body is not UTF-8: no UTF-8 character starts at byte ${before.length} (0xE2)` });
    const marked = await api.preflight(Buffer.from('\ufeff{"tools":[{"id":"alpha:echo"}]}'), { headers: { 'x-request-id': 'byte-order-mark' } });
    expect([marked.status, marked.body.tools.map((t: { id: string }) => t.id)]).toEqual([200, ['alpha:echo']]);
    expect((await recordsFor('byte-order-mark')).length).toBe(1);
  });

  it('accepts exactly 100 entries and exactly 1 MiB of JSON', async () => {
    const hundred = await api.preflight({ tools: Array.from({ length: 100 }, (_, i) => ({ id: `alpha:t${i}` })) });
    expect([hundred.status, hundred.body.tools.length]).toEqual([200, 100]);
    const base = JSON.stringify({ tools: [{ id: 'alpha:echo' }] });
    const padded = base.slice(0, -1) + ' '.repeat(1024 * 1024 - base.length) + '}';
    expect(Buffer.byteLength(padded)).toBe(1024 * 1024);
    expect((await api.preflight(padded)).status).toBe(200);
  });

  const unauthorized: [string, RestClient | (() => RestClient), Record<string, string>][] = [
    ['no credential', () => anonymous, {}],
    ['a wrong API key', () => restClient(gw.gateway.origin!, { apiKey: 'wrong-key-0123456789' }), {}],
    ['an unknown bearer token', () => restClient(gw.gateway.origin!, { bearer: 'unknown-token-0123456' }), {}],
    ['a malformed Authorization header', () => anonymous, { authorization: 'Basic abc' }],
  ];
  for (const [label, client, headers] of unauthorized) {
    it(`401 for ${label}, with WWW-Authenticate, and no record`, async () => {
      const answer = await (typeof client === 'function' ? client() : client).preflight({ tools: [{ id: 'alpha:echo' }] }, { headers: { 'x-request-id': 'unauthorized', ...headers } });
      expect(answer.status).toBe(401);
      expect(answer.body.code).toBe('unauthorized');
      expect(answer.headers.get('www-authenticate')).toContain('Bearer');
      expect(await recordsFor('unauthorized')).toEqual([]);
    });
  }

  it('accepts the admin key as a bearer token (operator tier)', async () => {
    const answer = await restClient(gw.gateway.origin!, { bearer: ADMIN_KEY }).preflight({ tools: [{ id: 'ghost:x' }] });
    expect(answer.body.tools[0].reason).toBe('server_not_configured');
  });
});

describe('503 when the activity record cannot be written', () => {
  it('answers 503 activity_unavailable with no verdict and no record, then 200 again when the store recovers', async () => {
    const own = new TempDir();
    let failing: FailingActivityStore | undefined;
    const tools = own.tools('a', [{ name: 'echo' }]);
    const failingGateway = await startTestGateway(own, { servers: [fixtureServer('a', tools)] }, { wrapStore: (store) => (failing = new FailingActivityStore(store)) });
    try {
      await waitForState(failingGateway.gateway, serverReady('a'));
      const client = restClient(failingGateway.gateway.origin!);
      failing!.failing = true;
      const down = await client.preflight({ tools: [{ id: 'a:echo' }] }, { headers: { 'x-request-id': 'store-down' } });
      expect(down.status).toBe(503);
      expect(down.body).toEqual({ code: 'activity_unavailable', message: expect.stringContaining('no verdict') as unknown, path: '', request_id: 'store-down' });
      expect(down.text).not.toMatch(/verdict"|"tools"/);
      failing!.failing = false;
      expect((await client.call('GET', '/api/v1/activity?request_id=store-down')).body.records).toEqual([]);
      const up = await client.preflight({ tools: [{ id: 'a:echo' }] }, { headers: { 'x-request-id': 'store-up' } });
      expect(up.status).toBe(200);
      expect((await client.call('GET', '/api/v1/activity?request_id=store-up')).body.records).toHaveLength(1);
    } finally {
      await failingGateway.close();
      own.remove();
    }
  });
});

describe('servers', () => {
  it('GET lists every server to the operator and only the scope to an agent token', async () => {
    const all = await api.call('GET', '/api/v1/servers');
    expect(all.body.servers.map((s: { name: string }) => s.name)).toEqual(['alpha', 'beta', 'off', 'quar']);
    const quar = all.body.servers.find((s: { name: string }) => s.name === 'quar');
    expect(quar).toMatchObject({ quarantined: true, enabled: true, state: 'ready', tools: { indexed: 3, served: 0, pending: 3 } });
    const alpha = all.body.servers.find((s: { name: string }) => s.name === 'alpha');
    expect(alpha.tools).toEqual({ indexed: 3, served: 2, approved: 3, pending: 0, changed: 0, user_disabled: 0, config_denied: 1 });
    expect(all.body.servers.find((s: { name: string }) => s.name === 'off')).toMatchObject({ enabled: false, ever_ready: false });
    const mine = await agent.call('GET', '/api/v1/servers');
    expect(mine.body.servers.map((s: { name: string }) => s.name)).toEqual(['alpha']);
  });

  it('POST quarantine / unquarantine / disable / enable / restart change the state and answer it', async () => {
    expect((await api.call('POST', '/api/v1/servers/beta/quarantine')).body).toMatchObject({ name: 'beta', quarantined: true });
    expect((await api.preflight({ tools: [{ id: 'beta:echo' }] })).body.tools[0].reason).toBe('server_quarantined');
    expect((await api.call('POST', '/api/v1/servers/beta/unquarantine')).body).toMatchObject({ quarantined: false, tools: { served: 3, approved: 3 } });
    expect((await api.call('POST', '/api/v1/servers/beta/disable')).body).toMatchObject({ enabled: false });
    expect((await api.preflight({ tools: [{ id: 'beta:echo' }] })).body.tools[0].reason).toBe('server_disabled');
    expect((await api.call('POST', '/api/v1/servers/beta/enable')).body).toMatchObject({ enabled: true });
    await waitForState(gw.gateway, serverReady('beta'));
    expect((await api.call('POST', '/api/v1/servers/beta/restart')).status).toBe(200);
    await waitForState(gw.gateway, serverReady('beta'));
    expect((await api.preflight({ tools: [{ id: 'beta:echo' }] })).body.tools[0].status).toBe('ready');
  });

  it('404 for an unknown server, 409 for restarting a disabled one, 403 for an agent token, 401 without credentials', async () => {
    for (const action of ['quarantine', 'unquarantine', 'enable', 'disable', 'restart']) {
      const answer = await api.call('POST', `/api/v1/servers/ghost/${action}`);
      expect([answer.status, answer.body.code, answer.body.path]).toEqual([404, 'not_found', 'name']);
      const forbidden = await agent.call('POST', `/api/v1/servers/alpha/${action}`);
      expect([forbidden.status, forbidden.body.code]).toEqual([403, 'forbidden']);
      expect((await anonymous.call('POST', `/api/v1/servers/alpha/${action}`)).status).toBe(401);
    }
    const conflict = await api.call('POST', '/api/v1/servers/off/restart');
    expect([conflict.status, conflict.body.code]).toEqual([409, 'conflict']);
    expect(gw.gateway.runtime.current().snapshot.servers.get('alpha')!.quarantined).toBe(false);
  });
});

describe('tools', () => {
  it('GET lists every known tool with its approval status; hashes only for the operator', async () => {
    const all = await api.call('GET', '/api/v1/tools');
    const quarEcho = all.body.tools.find((t: { id: string }) => t.id === 'quar:echo');
    expect(quarEcho).toMatchObject({ approval: 'pending', indexed: true, served: false, hash: expect.stringMatching(/^sha256\/v1:/) as unknown });
    expect(quarEcho.approved_hash).toBeUndefined();
    expect(all.body.tools.find((t: { id: string }) => t.id === 'alpha:denied')).toMatchObject({ config_denied: true, served: false, approval: 'approved' });
    const ids = all.body.tools.map((t: { id: string }) => t.id);
    expect(ids).toEqual([...ids].sort());
    const filtered = await api.call('GET', '/api/v1/tools?server=quar');
    expect(filtered.body.tools.map((t: { id: string }) => t.id)).toEqual(['quar:denied', 'quar:echo', 'quar:write']);
    const mine = await agent.call('GET', '/api/v1/tools');
    expect(mine.body.tools.map((t: { id: string }) => t.id)).toEqual(['alpha:denied', 'alpha:echo', 'alpha:write']);
    expect(mine.text).not.toContain('sha256/');
    expect((await agent.call('GET', '/api/v1/tools?server=beta')).body.tools).toEqual([]);
  });

  it('POST tools/{id}/disable and enable block and unblock one tool', async () => {
    const disabled = await api.call('POST', '/api/v1/tools/alpha:write/disable');
    expect(disabled.body.tools).toEqual([expect.objectContaining({ id: 'alpha:write', user_disabled: true, served: false })]);
    expect((await api.preflight({ tools: [{ id: 'alpha:write' }] })).body.tools[0].reason).toBe('tool_blocked_by_user');
    const enabled = await api.call('POST', `/api/v1/tools/${encodeURIComponent('alpha:write')}/enable`);
    expect(enabled.body.tools[0]).toMatchObject({ user_disabled: false, served: true });
    for (const [path, status, code] of [
      ['/api/v1/tools/alpha:nope/disable', 404, 'not_found'],
      ['/api/v1/tools/ghost:x/disable', 404, 'not_found'],
      ['/api/v1/tools/no-colon/enable', 404, 'not_found'],
    ] as const) {
      const answer = await api.call('POST', path);
      expect([answer.status, answer.body.code]).toEqual([status, code]);
    }
    expect((await agent.call('POST', '/api/v1/tools/alpha:write/disable')).status).toBe(403);
  });

  it('POST tools/approve approves by ID and all pending of a server; rejects bad bodies', async () => {
    const byId = await api.call('POST', '/api/v1/tools/approve', { body: { ids: ['quar:echo'] } });
    expect(byId.body.tools).toEqual([expect.objectContaining({ id: 'quar:echo', approval: 'approved' })]);
    const rest = await api.call('POST', '/api/v1/tools/approve', { body: { server: 'quar', all_pending: true } });
    expect(rest.body.tools.map((t: { id: string; approval: string }) => [t.id, t.approval])).toEqual([
      ['quar:denied', 'approved'],
      ['quar:write', 'approved'],
    ]);
    const bad: [unknown, number, string][] = [
      [{ ids: [] }, 400, 'invalid_body'],
      [{ ids: ['quar:echo'], server: 'quar' }, 400, 'invalid_body'],
      [{ server: 'quar', all_pending: false }, 400, 'invalid_body'],
      [{ ids: ['malformed'] }, 400, 'invalid_body'],
      ['{', 400, 'invalid_json'],
      [{ ids: ['ghost:x'] }, 404, 'not_found'],
      [{ ids: ['quar:nope'] }, 404, 'not_found'],
      [{ server: 'ghost', all_pending: true }, 404, 'not_found'],
    ];
    for (const [body, status, code] of bad) {
      const answer = await api.call('POST', '/api/v1/tools/approve', { body });
      expect([answer.status, answer.body.code], JSON.stringify(body)).toEqual([status, code]);
    }
    expect((await agent.call('POST', '/api/v1/tools/approve', { body: { ids: ['alpha:echo'] } })).status).toBe(403);
    expect((await api.call('POST', '/api/v1/servers/quar/quarantine')).status).toBe(200);
  });
});

describe('activity', () => {
  it('GET filters by type, request id and time, newest first, and pages with a cursor or an offset', async () => {
    const since = new Date().toISOString();
    for (let i = 0; i < 5; i++) await api.preflight({ tools: [{ id: 'alpha:echo' }] }, { headers: { 'x-request-id': `page-${i}` } });
    const until = new Date().toISOString();
    const first = await api.call('GET', `/api/v1/activity?type=preflight&since=${since}&limit=2`);
    expect(first.body.records.map((r: { request_id: string }) => r.request_id)).toEqual(['page-4', 'page-3']);
    // A record written between pages does not shift them.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await api.preflight({ tools: [{ id: 'alpha:echo' }] }, { headers: { 'x-request-id': 'page-late' } });
    const second = await api.call('GET', `/api/v1/activity?type=preflight&since=${since}&limit=2&cursor=${first.body.next_cursor as string}`);
    expect(second.body.records.map((r: { request_id: string }) => r.request_id)).toEqual(['page-2', 'page-1']);
    const third = await api.call('GET', `/api/v1/activity?type=preflight&since=${since}&limit=2&cursor=${second.body.next_cursor as string}`);
    expect(third.body.records.map((r: { request_id: string }) => r.request_id)).toEqual(['page-0']);
    expect(third.body.next_cursor).toBeUndefined();
    const byOffset = await api.call('GET', `/api/v1/activity?type=preflight&since=${since}&until=${until}&limit=2&offset=1`);
    expect(byOffset.body.records.map((r: { request_id: string }) => r.request_id)).toEqual(['page-3', 'page-2']);
    for (const record of first.body.records) expect(checkValue(strictValidators.ActivityRecord, record).ok).toBe(true);
  });

  it('400 for bad parameters, 403 for an agent token', async () => {
    for (const [query, path] of [
      ['type=other', 'type'],
      ['limit=0', 'limit'],
      ['limit=1001', 'limit'],
      ['since=yesterday', 'since'],
      ['until=2026-13-45', 'until'],
      ['cursor=garbage', 'cursor'],
      ['offset=-1', 'offset'],
      ['cursor=x&offset=1', 'cursor'],
      ['request_id=a%20b', 'request_id'],
      ['bogus=1', 'bogus'],
    ]) {
      const answer = await api.call('GET', `/api/v1/activity?${query}`);
      expect([answer.status, answer.body.code, answer.body.path], query).toEqual([400, 'invalid_body', path]);
    }
    expect((await agent.call('GET', '/api/v1/activity')).status).toBe(403);
  });
});

describe('tokens', () => {
  it('POST creates a token whose secret is shown once and works at once; the store keeps only its SHA-256', async () => {
    const created = await api.call('POST', '/api/v1/tokens', { body: { name: 'ci-beta', allowed_servers: ['beta'], profile: 'p-beta' } });
    expect(created.status).toBe(201);
    const secret = created.body.token as string;
    expect(created.body).toMatchObject({ name: 'ci-beta', source: 'store', allowed_servers: ['beta'], profile: 'p-beta', revoked: false });
    const asToken = restClient(gw.gateway.origin!, { bearer: secret });
    const answer = await asToken.preflight({ tools: [{ id: 'beta:echo' }, { id: 'alpha:echo' }] });
    expect(answer.body.tools.map((t: { reason?: string; status: string }) => t.reason ?? t.status)).toEqual(['ready', 'not_found']);
    const listed = await api.call('GET', '/api/v1/tokens');
    expect(listed.body.tokens.map((t: { name: string; source: string }) => [t.name, t.source])).toEqual([
      ['agent-alpha', 'config'],
      ['ci-beta', 'store'],
    ]);
    expect(listed.text).not.toContain(secret);
    const sha = createHash('sha256').update(secret).digest('hex');
    expect(listed.text).not.toContain(sha);
    const dataDir = join(dir.path, 'data');
    // Every file that holds bytes (the local socket, gateway.sock, holds none).
    const files = readdirSync(dataDir).filter((file) => statSync(join(dataDir, file)).isFile());
    const bytes = files.map((file) => readFileSync(join(dataDir, file)).toString('latin1')).join('');
    expect(bytes).not.toContain(secret);
    expect(bytes).toContain(sha);
  });

  it('DELETE revokes a run-time token (it stops working at once); config tokens and unknown names are refused', async () => {
    const created = await api.call('POST', '/api/v1/tokens', { body: { name: 'short-lived', allowed_servers: ['*'] } });
    const asToken = restClient(gw.gateway.origin!, { bearer: created.body.token as string });
    expect((await asToken.call('GET', '/api/v1/servers')).status).toBe(200);
    const revoked = await api.call('DELETE', '/api/v1/tokens/short-lived');
    expect(revoked.body).toMatchObject({ name: 'short-lived', revoked: true, source: 'store' });
    expect((await asToken.call('GET', '/api/v1/servers')).status).toBe(401);
    expect((await api.call('DELETE', '/api/v1/tokens/short-lived')).status).toBe(200);
    expect((await api.call('DELETE', '/api/v1/tokens/agent-alpha')).status).toBe(409);
    expect((await api.call('DELETE', '/api/v1/tokens/ghost')).status).toBe(404);
  });

  it('refuses bad, duplicate and out-of-configuration tokens, and every token call from an agent', async () => {
    const cases: [unknown, number, string, string][] = [
      [{ name: 'x y', allowed_servers: ['alpha'] }, 400, 'invalid_body', '/name'],
      [{ name: 'x', allowed_servers: [] }, 400, 'invalid_body', '/allowed_servers'],
      [{ name: 'x', allowed_servers: ['ghost'] }, 400, 'invalid_body', '/allowed_servers/0'],
      [{ name: 'x', allowed_servers: ['*', 'alpha'] }, 400, 'invalid_body', '/allowed_servers/0'],
      [{ name: 'x', allowed_servers: ['alpha'], profile: 'nope' }, 400, 'unknown_profile', '/profile'],
      [{ name: 'x', allowed_servers: ['alpha'], secret: 's' }, 400, 'invalid_body', '/secret'],
      [{ name: 'agent-alpha', allowed_servers: ['alpha'] }, 409, 'conflict', '/name'],
      [{ name: 'ci-beta', allowed_servers: ['alpha'] }, 409, 'conflict', '/name'],
    ];
    for (const [body, status, code, path] of cases) {
      const answer = await api.call('POST', '/api/v1/tokens', { body });
      expect([answer.status, answer.body.code, answer.body.path], JSON.stringify(body)).toEqual([status, code, path]);
    }
    expect((await agent.call('POST', '/api/v1/tokens', { body: { name: 'mine', allowed_servers: ['alpha'] } })).status).toBe(403);
    expect((await agent.call('GET', '/api/v1/tokens')).status).toBe(403);
    expect((await agent.call('DELETE', '/api/v1/tokens/ci-beta')).status).toBe(403);
  });
});

describe('the operator UI\'s endpoints', () => {
  it('GET tools/{id}/review answers a ToolReview to the operator, 403 to an agent, 404 for an unknown tool', async () => {
    const review = await api.call('GET', '/api/v1/tools/alpha%3Aecho/review');
    expect(review.status).toBe(200);
    expect(review.body.current).toEqual(review.body.approved);
    expect((await agent.call('GET', '/api/v1/tools/alpha%3Aecho/review')).status).toBe(403);
    expect((await api.call('GET', '/api/v1/tools/alpha%3Anope/review')).status).toBe(404);
  });

  it('GET events is a text/event-stream that starts with hello; 403 to an agent', async () => {
    const controller = new AbortController();
    const response = await fetch(`${gw.gateway.origin!}/api/v1/events`, { headers: { 'x-api-key': ADMIN_KEY }, signal: controller.signal });
    expect([response.status, response.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
    const first = await response.body!.getReader().read();
    expect(new TextDecoder().decode(first.value)).toMatch(/^event: hello\ndata: \{"type":"hello","version":\d+\}\n\n/);
    controller.abort();
    SEEN.add('streamEvents 200');
    expect((await agent.call('GET', '/api/v1/events')).status).toBe(403);
  });

  it('GET activity takes server and verdict filters; preflight takes as_token', async () => {
    const scoped = await api.call('POST', '/api/v1/preflight?as_token=agent-alpha', { body: { tools: [{ id: 'beta:echo' }] } });
    expect(scoped.body.tools[0]).toMatchObject({ reason: 'not_found' });
    expect((await api.call('POST', '/api/v1/preflight?as_token=nobody', { body: { tools: [{ id: 'beta:echo' }] } })).status).toBe(404);
    expect((await agent.call('POST', '/api/v1/preflight?as_token=agent-alpha', { body: { tools: [{ id: 'beta:echo' }] } })).status).toBe(403);
    const ready = await api.call('GET', '/api/v1/activity?type=preflight&server=alpha&verdict=ready');
    expect(ready.status).toBe(200);
    expect(ready.body.records.every((record: { metadata: { verdict: string } }) => record.metadata.verdict === 'ready')).toBe(true);
    expect((await api.call('GET', '/api/v1/activity?verdict=maybe')).body).toMatchObject({ code: 'invalid_body', path: 'verdict' });
  });
});

describe('documents, health and routing', () => {
  /** Every /api/v1 operation with the query parameters its OpenAPI operation names. */
  function operationsWithQueries(): { method: string; url: string; operationId: string; query: string[] }[] {
    interface Parameter {
      readonly $ref?: string;
      readonly in?: string;
      readonly name?: string;
    }
    const document = JSON.parse(OPENAPI_TEXT) as {
      paths: Record<string, Record<string, { operationId: string; parameters?: Parameter[] }>>;
      components: { parameters: Record<string, Parameter> };
    };
    const resolved = (p: Parameter): Parameter => (p.$ref === undefined ? p : document.components.parameters[p.$ref.split('/').pop()!]!);
    const examples: Record<string, string> = { name: 'alpha', id: 'alpha:echo' };
    return Object.entries(document.paths)
      .filter(([template]) => template.startsWith('/api/v1/'))
      .flatMap(([template, methods]) =>
        Object.entries(methods).map(([method, operation]) => ({
          method: method.toUpperCase(),
          url: template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(examples[name]!)),
          operationId: operation.operationId,
          query: (operation.parameters ?? []).map(resolved).filter((p) => p.in === 'query').map((p) => p.name!),
        })),
      );
  }

  it('every operation refuses a query parameter it does not take, and one it takes given twice, naming it, before it runs', async () => {
    const operations = operationsWithQueries();
    expect(operations.length).toBeGreaterThan(20);
    for (const { method, url, operationId, query } of operations) {
      const unknown = await api.call(method, `${url}?not_a_parameter=1`);
      expect([operationId, unknown.status, unknown.body]).toEqual([operationId, 400, expect.objectContaining({ code: 'invalid_body', path: 'not_a_parameter', message: 'Query parameter not_a_parameter: unknown parameter' })]);
      for (const name of query) {
        const twice = await api.call(method, `${url}?${name}=a&${name}=b`);
        expect([operationId, twice.status, twice.body.message]).toEqual([operationId, 400, `Query parameter ${name}: given 2 times; give it once`]);
        const once = await api.call(method, `${url}?${name}=a`);
        expect([operationId, once.body?.message]).not.toEqual([operationId, `Query parameter ${name}: unknown parameter`]);
      }
    }
    // Refused before it ran: the server is still enabled and not quarantined, the token list unchanged.
    const alpha = (await api.call('GET', '/api/v1/servers')).body.servers.find((s: { name: string }) => s.name === 'alpha');
    expect([alpha.enabled, alpha.quarantined]).toEqual([true, false]);
  });

  it('GET /api/v1/openapi.json serves the generated document byte for byte', async () => {
    const answer = await agent.call('GET', '/api/v1/openapi.json');
    expect(answer.text).toBe(OPENAPI_TEXT);
    expect((await anonymous.call('GET', '/api/v1/openapi.json')).status).toBe(401);
  });

  it('GET /healthz needs no credential; another method is a 405 ApiError', async () => {
    expect((await anonymous.call('GET', '/healthz')).body).toEqual({ status: 'ok' });
    const wrong = await anonymous.call('POST', '/healthz');
    expect([wrong.status, wrong.body.code, wrong.headers.get('allow')]).toEqual([405, 'method_not_allowed', 'GET, HEAD']);
  });

  it('unknown routes are 404 and wrong methods 405 (with Allow), both ApiErrors', async () => {
    const missing = await api.call('GET', '/api/v1/nothing-here');
    expect([missing.status, missing.body.code]).toEqual([404, 'not_found']);
    const elsewhere = await anonymous.call('GET', '/not-an-endpoint');
    expect([elsewhere.status, elsewhere.body.code]).toEqual([404, 'not_found']);
    const wrong = await api.call('PUT', '/api/v1/preflight', { body: {} });
    expect([wrong.status, wrong.body.code, wrong.headers.get('allow')]).toEqual([405, 'method_not_allowed', 'POST']);
    const wrongGet = await api.call('GET', '/api/v1/tools/approve');
    expect([wrongGet.status, wrongGet.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('POST /api/v1/servers/{name}/login: a stdio server is a 409 (the full contract: rest-server-login.test.ts)', async () => {
    const answer = await api.call('POST', '/api/v1/servers/alpha/login', { body: { token: 'upstream-token' } });
    expect([answer.status, answer.body.code]).toEqual([409, 'conflict']);
  });

  it('OAuth logins (the full flow: oauth-*.test.ts): status 200 for every server, 400 / 404 / 409 / 403 as documented, a callback without a credential', async () => {
    const status = await api.call('GET', '/api/v1/auth');
    expect(status.status).toBe(200);
    expect(checkValue(strictValidators.AuthStatusList, status.body).ok).toBe(true);
    expect((status.body.servers as { name: string; login: string }[]).map((s) => [s.name, s.login])).toEqual([
      ['alpha', 'not_needed'],
      ['beta', 'not_needed'],
      ['off', 'not_needed'],
      ['quar', 'not_needed'],
    ]);
    expect((await agent.call('GET', '/api/v1/auth')).status).toBe(403);
    const start = await api.call('POST', '/api/v1/servers/alpha/oauth/login');
    expect([start.status, start.body.code]).toEqual([409, 'conflict']);
    expect((await api.call('POST', '/api/v1/servers/ghost/oauth/login')).status).toBe(404);
    const receiver = await api.call('POST', '/api/v1/servers/alpha/oauth/login?callback=browser');
    expect([receiver.status, receiver.body.code, receiver.body.path]).toEqual([400, 'invalid_body', 'callback']);
    expect((await agent.call('POST', '/api/v1/servers/alpha/oauth/login')).status).toBe(403);
    const logout = await api.call('POST', '/api/v1/servers/alpha/logout');
    expect([logout.status, logout.body.code]).toEqual([409, 'conflict']);
    expect((await api.call('POST', '/api/v1/servers/ghost/logout')).status).toBe(404);
    const callback = await anonymous.call('POST', '/api/v1/oauth/callback', { body: { state: 'no-such-state', code: 'c' } });
    expect([callback.status, callback.body.code, callback.body.path]).toEqual([400, 'invalid_state', '/state']);
  });

  it('a foreign Origin (DNS rebinding) is refused with a 403 ApiError before any route', async () => {
    const response = await fetch(`${gw.gateway.origin!}/api/v1/preflight`, {
      method: 'POST',
      headers: { origin: 'http://attacker.example', 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ tools: [{ id: 'alpha:echo' }] }),
    });
    const body: unknown = await response.json();
    expect(response.status).toBe(403);
    expect(schemaErrors(API_ERROR_SCHEMA, body)).toEqual([]);
    expect(body).toMatchObject({ code: 'forbidden', path: 'Host' });
  });

  it('every documented operation was exercised', () => {
    const operations = Object.values(OPENAPI.paths).flatMap((methods) => Object.values(methods).map((op) => op.operationId));
    const seen = new Set([...SEEN].map((entry) => entry.split(' ')[0]));
    expect(operations.filter((op) => !seen.has(op))).toEqual([]);
  });
});
