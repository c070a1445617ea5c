// The probe oracle: an agent token must not learn whether a server exists outside its scope. The same
// request is answered by two real gateways, one where server srv2 is configured (and out of the
// token's scope, by allowed_servers, by the token's profile pin, or by the requested profile; or in
// scope but without the tool) and one where srv2 is not configured at all. The answers must be
// byte-identical apart from request_id and checked_at, did_you_mean included.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { restClient, withoutVolatile, type RestClient } from './rest-client.js';

const dir = new TempDir();
let withSrv2: TestGateway;
let withoutSrv2: TestGateway;

const token = (name: string) => `${name}-secret-0123456789`;

beforeAll(async () => {
  const srv1Tools = dir.tools('srv1', [{ name: 'echo', annotations: { readOnlyHint: true } }, { name: 'list' }]);
  const srv2Tools = dir.tools('srv2', [{ name: 'other' }]);
  withSrv2 = await startTestGateway(dir, {
    data_dir: `${dir.path}/data-with`,
    servers: [fixtureServer('srv1', srv1Tools), fixtureServer('srv2', srv2Tools)],
    profiles: [{ name: 'p1', servers: ['srv1'] }],
    agent_tokens: [
      { name: 'in-scope', token: token('in-scope'), allowed_servers: ['srv1', 'srv2'] },
      { name: 'allowed-srv1', token: token('allowed-srv1'), allowed_servers: ['srv1'] },
      { name: 'pinned-p1', token: token('pinned-p1'), allowed_servers: ['*'], profile: 'p1' },
      { name: 'star', token: token('star'), allowed_servers: ['*'] },
    ],
  });
  withoutSrv2 = await startTestGateway(dir, {
    data_dir: `${dir.path}/data-without`,
    servers: [fixtureServer('srv1', srv1Tools)],
    profiles: [{ name: 'p1', servers: ['srv1'] }],
    agent_tokens: [
      { name: 'allowed-srv1', token: token('allowed-srv1'), allowed_servers: ['srv1'] },
      { name: 'star', token: token('star'), allowed_servers: ['*'] },
    ],
  });
  await waitForState(withSrv2.gateway, (s) => serverReady('srv1')(s) && serverReady('srv2')(s));
  await waitForState(withoutSrv2.gateway, serverReady('srv1'));
});
afterAll(async () => {
  await withSrv2?.close();
  await withoutSrv2?.close();
  dir.remove();
});

const as = (gateway: TestGateway, name: string): RestClient => restClient(gateway.gateway.origin!, { bearer: token(name) });

interface Probe {
  readonly label: string;
  readonly client: () => RestClient;
  readonly profile?: string;
}

/** Callers for whom srv2 is out of scope (configured), or does not exist (unconfigured). */
const hidden: Probe[] = [
  { label: 'configured, not in allowed_servers', client: () => as(withSrv2, 'allowed-srv1') },
  { label: "configured, outside the token's profile pin", client: () => as(withSrv2, 'pinned-p1') },
  { label: 'configured, outside the requested profile', client: () => as(withSrv2, 'star'), profile: 'p1' },
  { label: 'unconfigured, narrow token', client: () => as(withoutSrv2, 'allowed-srv1') },
  { label: 'unconfigured, * token', client: () => as(withoutSrv2, 'star') },
  { label: 'unconfigured, * token with the profile', client: () => as(withoutSrv2, 'star'), profile: 'p1' },
];

async function answerText(probe: Probe, tools: readonly Record<string, unknown>[], extra: Record<string, unknown> = {}): Promise<string> {
  const answer = await probe.client().preflight({ tools, ...extra, ...(probe.profile === undefined ? {} : { profile: probe.profile }) });
  expect(answer.status).toBe(200);
  return withoutVolatile(answer.text);
}

describe('probe oracle at the agent tier', () => {
  const requests: [string, Record<string, unknown>[], Record<string, unknown>?][] = [
    ['a tool srv2 lists', [{ id: 'srv2:other' }]],
    ['a tool srv2 does not list (did_you_mean from srv1)', [{ id: 'srv2:echo' }]],
    ['a pinned ID (the pin is never reached)', [{ id: 'srv2:other', pin_hash: 'sha256/v1:00' }]],
    ['with a policy', [{ id: 'srv2:other' }], { policy: { read_only_only: true } }],
    ['a mixed batch', [{ id: 'srv1:echo' }, { id: ' srv2 : other ' }, { id: 'srv2:ech' }, { id: 'srv1:nope' }, { id: 'srv2:other' }]],
  ];
  for (const [label, tools, extra] of requests) {
    it(`${label}: byte-identical for every hidden case`, async () => {
      const texts = await Promise.all(hidden.map((probe) => answerText(probe, tools, extra)));
      for (const [i, text] of texts.entries()) expect(text, hidden[i]!.label).toBe(texts[0]);
      expect(texts[0]).toContain('"reason":"not_found"');
    });
  }

  it('an unknown tool on an in-scope server reads exactly like an out-of-scope or unconfigured server', async () => {
    const inScope = await answerText({ label: 'in scope', client: () => as(withSrv2, 'in-scope') }, [{ id: 'srv2:echo' }]);
    for (const probe of hidden) expect(await answerText(probe, [{ id: 'srv2:echo' }]), probe.label).toBe(inScope);
    expect(inScope).toContain('"did_you_mean":["srv1:echo"]');
  });

  it('the listings of a hidden server are the same empty answer', async () => {
    const texts = await Promise.all(
      [as(withSrv2, 'allowed-srv1'), as(withSrv2, 'pinned-p1'), as(withoutSrv2, 'allowed-srv1'), as(withoutSrv2, 'star')].map(async (client) => {
        const tools = await client.call('GET', '/api/v1/tools?server=srv2');
        return tools.text;
      }),
    );
    expect(new Set(texts)).toEqual(new Set(['{"tools":[]}']));
  });

  it('is not vacuous: the operator tier does tell the cases apart', async () => {
    const operatorWith = restClient(withSrv2.gateway.origin!);
    const operatorWithout = restClient(withoutSrv2.gateway.origin!);
    const scoped = await operatorWith.preflight({ tools: [{ id: 'srv2:other' }], profile: 'p1' });
    const missing = await operatorWithout.preflight({ tools: [{ id: 'srv2:other' }] });
    expect(scoped.body.tools[0].reason).toBe('server_not_in_scope');
    expect(missing.body.tools[0].reason).toBe('server_not_configured');
    const inScope = await as(withSrv2, 'in-scope').preflight({ tools: [{ id: 'srv2:other' }] });
    expect(inScope.body.tools[0].status).toBe('ready');
  });
});
