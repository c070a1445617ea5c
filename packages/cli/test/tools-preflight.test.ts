// `mcpproxy tools preflight` over REST: the built binary against `mcpproxy serve` with fixture
// upstreams. Every exit code, every output format, pins, policy flags, --wait, profiles, tiers.
import { readFileSync } from 'node:fs';
import { lenientValidators } from '@mcpproxy/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { fixtureServer, isOneLineError, runCli, Scratch, serveGateway, waitForServer, type ServedGateway } from './cli-harness.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
const AGENT_SECRET = 'cli-agent-secret-0123';

let scratch: Scratch;
let gw: ServedGateway;
const preflight = (args: readonly string[], env: Record<string, string> = {}) => runCli(['tools', 'preflight', ...args, ...gw.flags], { env });

beforeAll(async () => {
  scratch = new Scratch();
  const tools = [{ name: 'echo', annotations: READ_ONLY, echo: true as const }, { name: 'write', annotations: { readOnlyHint: false, destructiveHint: true } }, { name: 'bare' }, { name: 'denied' }];
  // 'slow' never answers while this file runs: its start delay and the gateway's upstream timeout are both an hour,
  // longer than any test file takes on a loaded machine (a 30 s timeout turned it into server_unhealthy there).
  gw = await serveGateway(scratch, {
    upstream_timeout_ms: 3_600_000,
    servers: [
      fixtureServer(scratch, 'alpha', tools, { disabled_tools: ['denied'] }),
      fixtureServer(scratch, 'slow', tools, {}, ['--start-delay-ms', '3600000']),
      fixtureServer(scratch, 'off', tools, { enabled: false }),
      fixtureServer(scratch, 'quar', tools, { quarantined: true }),
    ],
    profiles: [{ name: 'p-alpha', servers: ['alpha'] }],
    agent_tokens: [{ name: 'agent', token: AGENT_SECRET, allowed_servers: ['alpha'] }],
  });
  await waitForServer(gw, 'alpha', ['ready']);
  await waitForServer(gw, 'quar', ['ready']);
});
afterAll(async () => {
  await gw?.stop();
  scratch?.remove();
});

describe('exit codes and the table', () => {
  it('0 ready: VERDICT, CHECKED lines, the columns, the summary', async () => {
    const run = await preflight(['alpha:echo']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toMatch(/^VERDICT: ready \(exit 0\)\nCHECKED: \d{4}-\d\d-\d\dT[\d:.]+Z\n\nID +STATUS +REASON +RETRYABLE +ACTION +DETAIL\nalpha:echo +ready +- +- +- +-\n\n1 of 1 tool ready\n$/);
  });

  it('10 degraded_retryable: a server still starting', async () => {
    const run = await preflight(['slow:echo']);
    expect(run.code).toBe(10);
    expect(run.stdout).toMatch(/^VERDICT: degraded_retryable \(exit 10\)\n/);
    expect(run.stdout).toMatch(/slow:echo +unavailable +server_initializing +true +- +Server slow is still starting/);
    expect(run.stdout).toContain('1 of 1 tool unavailable: server_initializing\n');
  });

  it('11 blocked: disabled, quarantined, config-denied, with actions', async () => {
    const run = await preflight(['off:echo', 'quar:echo', 'alpha:denied', 'alpha:echo']);
    expect(run.code).toBe(11);
    expect(run.stdout).toMatch(/off:echo +unavailable +server_disabled +false +enable +Server off is disabled\./);
    expect(run.stdout).toMatch(/quar:echo +unavailable +server_quarantined +false +approve /);
    expect(run.stdout).toContain('3 of 4 tools unavailable: server_disabled, server_quarantined, tool_denied_by_config\n');
  });

  it('12 unknown_ids: the worst class wins over blocked and retryable', async () => {
    const run = await preflight(['alpha:nope', 'ghost:x', 'off:echo', 'slow:echo', 'no-colon']);
    expect(run.code).toBe(12);
    expect(run.stdout).toMatch(/^VERDICT: unknown_ids \(exit 12\)/);
    expect(run.stdout).toContain('Malformed tool id: expected the format <server>:<tool>.');
    expect(run.stdout).toContain('5 of 5 tools unavailable: not_found, server_not_configured, server_disabled, server_initializing\n');
  });

  it('did_you_mean rides the DETAIL column', async () => {
    const run = await preflight(['alpha:ech']);
    expect(run.stdout).toContain('(did you mean: alpha:echo)');
  });

  it('1: the gateway refuses the request (unknown profile) with one line on stderr', async () => {
    const run = await preflight(['alpha:echo', '--profile', 'nope']);
    expect([run.code, run.stdout]).toEqual([1, '']);
    expect(isOneLineError(run.stderr)).toBe(true);
    expect(run.stderr).toContain('unknown_profile, HTTP 400');
  });
});

describe('output formats', () => {
  it('-o json: the documented document, stable keys, exit code included', async () => {
    const run = await preflight(['alpha:echo', 'off:echo', '-o', 'json']);
    expect(run.code).toBe(11);
    const doc = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(['verdict', 'exit_code', 'checked_at', 'request_id', 'carriage', 'tools']);
    expect([doc['verdict'], doc['exit_code'], doc['carriage']]).toEqual(['blocked', 11, 'rest']);
    const tools = doc['tools'] as Record<string, unknown>[];
    expect(tools[0]).toEqual({ id: 'alpha:echo', status: 'ready', hash: expect.stringMatching(/^sha256\/v1:[0-9a-f]{64}$/) });
    expect(tools[1]).toEqual({ id: 'off:echo', status: 'unavailable', reason: 'server_disabled', retryable: false, action: 'enable', detail: 'Server off is disabled.', remediation: 'Enable it: mcpproxy servers enable off' });
    expect(lenientValidators.RestPreflightResponse({ verdict: doc['verdict'], checked_at: doc['checked_at'], request_id: doc['request_id'], tools })).toBe(true);
  });

  it('-o yaml parses to the same document as -o json', async () => {
    const json = await preflight(['alpha:echo', 'alpha:nope', '-o', 'json']);
    const yaml = await preflight(['alpha:echo', 'alpha:nope', '-o', 'yaml']);
    expect(yaml.code).toBe(12);
    const strip = (doc: Record<string, unknown>) => ({ ...doc, checked_at: 'x', request_id: 'x' });
    expect(strip(parseYaml(yaml.stdout) as Record<string, unknown>)).toEqual(strip(JSON.parse(json.stdout) as Record<string, unknown>));
  });

  it('-o with another value is a flag error', async () => {
    const run = await preflight(['alpha:echo', '-o', 'xml']);
    expect([run.code, run.stdout]).toEqual([1, '']);
    expect(run.stderr).toBe('mcpproxy: -o/--output: expected table, json or yaml, got "xml"\n');
  });
});

describe('pins', () => {
  const hashOf = async (id: string): Promise<string> => {
    const list = await runCli(['tools', 'list', '-o', 'json', ...gw.flags]);
    return (JSON.parse(list.stdout) as { tools: { id: string; hash: string }[] }).tools.find((tool) => tool.id === id)!.hash;
  };

  it('the current hash (from tools list) is ready; another well-formed hash is hash_mismatch with the full detail', async () => {
    const hash = await hashOf('alpha:echo');
    expect((await preflight(['alpha:echo', '--pin', `alpha:echo=${hash}`])).code).toBe(0);
    const other = `sha256/v1:${'0'.repeat(64)}`;
    const run = await preflight(['alpha:echo', '--pin', `alpha:echo=${other}`]);
    expect(run.code).toBe(11);
    expect(run.stdout).toContain(`hash_mismatch  false      configure  Pinned ${other} but the tool's current hash is ${hash}.`);
    const v2 = await preflight(['alpha:echo', '--pin', `alpha:echo=sha256/v2:${'a'.repeat(64)}`, '-o', 'json']);
    expect((JSON.parse(v2.stdout) as { tools: { detail: string }[] }).tools[0]!.detail).toContain('hash-schema v2');
  });

  it('a pin is applied to every spelling of its id (trimmed), and a duplicate pin is fine', async () => {
    const hash = await hashOf('alpha:echo');
    const run = await preflight([' alpha:echo', 'alpha:echo', '--pin', `alpha:echo=${hash}`, '--pin', `alpha:echo=${hash}`, '-o', 'json']);
    expect(run.code).toBe(0);
  });

  it.each([
    [['alpha:echo', '--pin', 'alpha:echo'], '--pin "alpha:echo": expected <server:tool>=sha256/v<N>:<hex>'],
    [['alpha:echo', '--pin', 'alpha:echo=md5:abc'], 'the hash must look like sha256/v<N>:<64 lowercase hex digits>'],
    [['alpha:echo', '--pin', `alpha:write=sha256/v1:${'1'.repeat(64)}`], 'alpha:write is not one of the requested tool ids'],
    [['alpha:echo', '--pin', `alpha:echo=sha256/v1:${'1'.repeat(64)}`, '--pin', `alpha:echo=sha256/v1:${'2'.repeat(64)}`], 'conflicting pins for alpha:echo'],
  ])('local pin validation: %j', async (args, message) => {
    const run = await preflight(args);
    expect([run.code, run.stdout]).toEqual([1, '']);
    expect(isOneLineError(run.stderr)).toBe(true);
    expect(run.stderr).toContain(message);
  });
});

describe('policy, profile, wait, tier', () => {
  it('the three policy flags give missing_annotation and policy_filtered', async () => {
    const readOnly = await preflight(['alpha:bare', 'alpha:write', 'alpha:echo', '--read-only-only', '-o', 'json']);
    expect((JSON.parse(readOnly.stdout) as { tools: { reason?: string }[] }).tools.map((t) => t.reason)).toEqual(['missing_annotation', 'policy_filtered', undefined]);
    expect(readOnly.code).toBe(11);
    const destructive = await preflight(['alpha:write', '--exclude-destructive']);
    expect(destructive.stdout).toContain('policy_filtered');
    const openWorld = await preflight(['alpha:write', '--exclude-open-world']);
    expect(openWorld.stdout).toContain('missing_annotation');
  });

  it('--profile narrows the scope (operator tier: server_not_in_scope)', async () => {
    const run = await preflight(['alpha:echo', 'off:echo', '--profile', 'p-alpha', '-o', 'json']);
    expect((JSON.parse(run.stdout) as { tools: { reason?: string }[] }).tools.map((t) => t.reason)).toEqual([undefined, 'server_not_in_scope']);
  });

  it('--wait waits while degraded_retryable and prints WAITED', async () => {
    const run = await preflight(['slow:echo', '--wait', '300ms']);
    expect(run.code).toBe(10);
    const waited = Number(/\nWAITED: (\d+)ms\n/.exec(run.stdout)?.[1]);
    expect(waited).toBeGreaterThanOrEqual(250);
  });

  it.each([['11s'], ['abc'], ['10'], ['-1s']])('--wait %s is a flag error', async (value) => {
    const run = await preflight(['alpha:echo', '--wait', value]);
    expect(run.code).toBe(1);
    expect(isOneLineError(run.stderr)).toBe(true);
  });

  it('an agent token (MCPPROXY_TOKEN) gets the agent tier: out of scope reads not_found, no hashes', async () => {
    const run = await runCli(['tools', 'preflight', 'alpha:echo', 'off:echo', '-o', 'json', '--url', gw.origin], { env: { MCPPROXY_TOKEN: AGENT_SECRET } });
    expect(run.code).toBe(12);
    const tools = (JSON.parse(run.stdout) as { tools: Record<string, unknown>[] }).tools;
    expect(tools[0]).toEqual({ id: 'alpha:echo', status: 'ready' });
    expect(tools[1]!['reason']).toBe('not_found');
  });

  it('the preflight is recorded with surface cli and its request id', async () => {
    const run = await preflight(['alpha:echo', '-o', 'json']);
    const id = (JSON.parse(run.stdout) as { request_id: string }).request_id;
    const activity = await runCli(['activity', 'list', '--request-id', id, '-o', 'json', ...gw.flags]);
    const records = (JSON.parse(activity.stdout) as { records: { surface: string; request_id: string }[] }).records;
    expect(records.map((r) => [r.surface, r.request_id])).toEqual([['cli', id]]);
  });
});

describe('the README', () => {
  it('documents the preflight JSON document with the keys, in the order, the command prints', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const documented = JSON.parse(/```json\n([\s\S]*?)```/.exec(readme)![1]!.replace('sha256/v1:…', 'x')) as Record<string, unknown>;
    const run = await preflight(['alpha:echo', 'slow:echo', '--wait', '250ms', '-o', 'json']);
    const printed = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(Object.keys(printed)).toEqual(Object.keys(documented));
    const keysOf = (tools: unknown) => (tools as Record<string, unknown>[]).map((tool) => Object.keys(tool));
    expect(keysOf(printed['tools'])[0]).toEqual(keysOf(documented['tools'])[0]);
    expect(keysOf(documented['tools'])[1]).toEqual(['id', 'status', 'reason', 'retryable', 'action', 'detail', 'remediation']);
  });
});
