// `mcpproxy tools preflight --in-band`: the same check through MCP (the extension rider), with the
// same output and exit codes as over REST, on both protocol revisions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { fixtureServer, freePort, isOneLineError, runCli, Scratch, serveGateway, waitForServer, type ServedGateway } from './cli-harness.js';

const AGENT_SECRET = 'cli-in-band-agent-0123';
let scratch: Scratch;
let gw: ServedGateway;
const inBand = (args: readonly string[], extra: readonly string[] = []) => runCli(['tools', 'preflight', ...args, '--in-band', '--url', gw.origin, ...extra]);

beforeAll(async () => {
  scratch = new Scratch();
  const tools = [{ name: 'echo', annotations: { readOnlyHint: true }, echo: true as const }, { name: 'bare' }];
  // 'slow' never answers while this file runs: its start delay and the gateway's upstream timeout are both an hour,
  // longer than any test file takes on a loaded machine (a 30 s timeout turned it into server_unhealthy there).
  gw = await serveGateway(scratch, {
    upstream_timeout_ms: 3_600_000,
    servers: [fixtureServer(scratch, 'alpha', tools), fixtureServer(scratch, 'off', tools, { enabled: false }), fixtureServer(scratch, 'slow', tools, {}, ['--start-delay-ms', '3600000'])],
    profiles: [{ name: 'only-alpha', servers: ['alpha'] }],
    agent_tokens: [{ name: 'agent', token: AGENT_SECRET, allowed_servers: ['alpha'] }],
  });
  await waitForServer(gw, 'alpha', ['ready']);
});
afterAll(async () => {
  await gw?.stop();
  scratch?.remove();
});

describe('--in-band', () => {
  it.each([['2025-11-25'], ['2026-07-28'], ['auto']])('--protocol-version %s: the rider answers with the REST output and exit codes', async (version) => {
    const run = await inBand(['alpha:echo', 'off:echo', 'slow:echo', 'alpha:nope', '-o', 'json'], ['--protocol-version', version]);
    expect(run.code).toBe(12);
    const doc = JSON.parse(run.stdout) as { verdict: string; exit_code: number; carriage: string; tools: { id: string; reason?: string }[] };
    expect([doc.verdict, doc.exit_code, doc.carriage]).toEqual(['unknown_ids', 12, 'rider']);
    expect(doc.tools.map((t) => t.reason ?? 'ready')).toEqual(['ready', 'server_disabled', 'server_initializing', 'not_found']);
  });

  it('the table and yaml forms are the same as over REST', async () => {
    const table = await inBand(['alpha:echo', 'slow:echo']);
    expect(table.code).toBe(10);
    expect(table.stdout).toMatch(/^VERDICT: degraded_retryable \(exit 10\)\nCHECKED: \S+\n\nID +STATUS +REASON +RETRYABLE +ACTION +DETAIL\n/);
    expect(table.stdout).toContain('1 of 2 tools unavailable: server_initializing\n');
    const yaml = parseYaml((await inBand(['alpha:echo', '-o', 'yaml'])).stdout) as Record<string, unknown>;
    expect(yaml).toMatchObject({ verdict: 'ready', exit_code: 0, carriage: 'rider', tools: [{ id: 'alpha:echo', status: 'ready' }] });
  });

  it('evaluates at the agent tier: no hashes, an unconfigured server reads not_found', async () => {
    const run = await inBand(['alpha:echo', 'ghost:x', '-o', 'json'], ['--api-key', 'ignored-for-mcp']);
    const doc = JSON.parse(run.stdout) as { tools: Record<string, unknown>[] };
    expect(doc.tools[0]).toEqual({ id: 'alpha:echo', status: 'ready' });
    expect(doc.tools[1]!['reason']).toBe('not_found');
  });

  it('an agent token scopes the session; --profile selects /mcp/p/<profile>; policy flags ride the rider', async () => {
    expect(JSON.parse((await inBand(['off:echo', '-o', 'json'], ['--token', AGENT_SECRET])).stdout).tools[0].reason).toBe('not_found');
    expect(JSON.parse((await inBand(['off:echo', '-o', 'json', '--profile', 'only-alpha'])).stdout).tools[0].reason).toBe('not_found');
    const policy = await inBand(['alpha:bare', '--read-only-only', '-o', 'json']);
    expect([policy.code, JSON.parse(policy.stdout).tools[0].reason]).toEqual([11, 'missing_annotation']);
  });

  it('failures are one line with exit 1: too many ids for any in-band carriage, an unreachable gateway, a bad flag', async () => {
    const many = await inBand(Array.from({ length: 51 }, (_, i) => `alpha:t${i}`));
    expect([many.code, isOneLineError(many.stderr)]).toEqual([1, true]);
    expect(many.stderr).toContain('rider failed: the rider carries at most 50 ids (51 given)');
    const port = await freePort();
    const down = await runCli(['tools', 'preflight', 'alpha:echo', '--in-band', '--url', `http://127.0.0.1:${port}`]);
    expect([down.code, isOneLineError(down.stderr)]).toEqual([1, true]);
    expect(down.stderr).toContain(`cannot open an MCP session at http://127.0.0.1:${port}/mcp`);
    const bad = await inBand(['alpha:echo'], ['--protocol-version', '2024-01-01']);
    expect(bad.stderr).toBe('mcpproxy: --protocol-version: expected auto, 2025-11-25, 2026-07-28, got "2024-01-01"\n');
    const restOnly = await runCli(['tools', 'preflight', 'alpha:echo', '--protocol-version', '2025-11-25', '--url', gw.origin]);
    expect(restOnly.stderr).toBe('mcpproxy: --protocol-version goes with --in-band\n');
  });
});
