// Dispatch refusals against a running gateway and real fixture upstreams: every gate refuses with
// its reason code and remediation as an MCP tool error, and the refused call never reaches the
// upstream (the fixture's own message count file and the runtime's counter stay put).
import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import {
  connectClient,
  ERAS,
  fixtureServer,
  readCount,
  serverReady,
  startTestGateway,
  TempDir,
  toolText,
  waitForState,
  type FixtureToolSpec,
  type TestGateway,
} from './gateway-harness.js';

const GATED_TOOLS: FixtureToolSpec[] = [
  { name: 'base', description: 'approved and unchanged', echo: true },
  { name: 'changing', description: 'approved, then its definition changes' },
  { name: 'blocked', description: 'an operator disables it' },
  { name: 'denied', description: 'the config denies it' },
];


describe('dispatch refusals never reach the upstream', () => {
  let dir: TempDir;
  let gw: TestGateway;
  const counts: Record<string, string> = {};
  const pids: Record<string, string> = {};
  let clients: Client[];

  beforeAll(async () => {
    dir = new TempDir();
    for (const name of ['quar', 'off', 'gated', 'down']) {
      counts[name] = `${dir.path}/${name}.count`;
      pids[name] = `${dir.path}/${name}.pid`;
    }
    const server = (name: string, tools: FixtureToolSpec[], extra: Record<string, unknown>) => {
      const entry = fixtureServer(name, dir.tools(name, tools), extra, counts[name]);
      return { ...entry, args: [...(entry.args as string[]), '--pid-file', pids[name]!] };
    };
    gw = await startTestGateway(dir, {
      tool_quarantine: true,
      // A lost upstream stays down for the length of the test.
      reconnect_initial_delay_ms: 120_000,
      reconnect_max_delay_ms: 120_000,
      servers: [
        server('quar', [{ name: 't' }], { quarantined: true }),
        server('off', [{ name: 't' }], { enabled: false }),
        server('gated', GATED_TOOLS, { quarantined: false, disabled_tools: ['denied'] }),
        server('down', [{ name: 't' }], { quarantined: false }),
      ],
    });
    await waitForState(gw.gateway, (s) => ['quar', 'gated', 'down'].every((name) => serverReady(name)(s)));

    // Operator disables one tool; the upstream rewrites its list (a new tool, a changed one) and signals.
    await gw.gateway.runtime.setToolDisabled('gated', 'blocked', true);
    const toolsFile = `${dir.path}/gated.tools.json`;
    const rewritten = (JSON.parse(readFileSync(toolsFile, 'utf8')) as FixtureToolSpec[]).map((t) =>
      t.name === 'changing' ? { ...t, description: 'a rug-pull: new behaviour' } : t,
    );
    writeFileSync(toolsFile, JSON.stringify([...rewritten, { name: 'newcomer', description: 'appeared after the baseline' }]));
    process.kill(Number(readFileSync(pids.gated!, 'utf8')), 'SIGHUP');
    await waitForState(gw.gateway, (s) => {
      const approvals = s.snapshot.servers.get('gated')?.approvals;
      return approvals?.get('newcomer')?.status === 'pending' && approvals.get('changing')?.status === 'changed';
    });

    // The upstream goes away (it was ready once, so its last-known tool stays listed).
    process.kill(Number(readFileSync(pids.down!, 'utf8')), 'SIGUSR2');
    await waitForState(gw.gateway, (s) => {
      const state = s.snapshot.servers.get('down')?.connection.state;
      return state === 'error' || state === 'disconnected';
    });
    clients = await Promise.all(ERAS.map((era) => connectClient(gw.url, era)));
  });
  afterAll(async () => {
    await Promise.all((clients ?? []).map((c) => c.close()));
    await gw?.close();
    dir?.remove();
  });

  const cases: [string, string, string][] = [
    ['quarantined server', 'quar:t', 'server_quarantined'],
    ['disabled server', 'off:t', 'server_disabled'],
    ['pending tool', 'gated:newcomer', 'tool_pending_approval'],
    ['changed tool', 'gated:changing', 'tool_changed'],
    ['user-blocked tool', 'gated:blocked', 'tool_blocked_by_user'],
    ['config-denied tool', 'gated:denied', 'tool_denied_by_config'],
    ['server whose connection is down', 'down:t', 'server_unhealthy'],
  ];

  for (const [label, id, reason] of cases) {
    it(`${label}: refused as ${reason} on both revisions, zero upstream messages`, async () => {
      const server = id.split(':')[0]!;
      const before = { runtime: gw.gateway.runtime.upstreamMessageCount(), upstream: readCount(counts[server]!) };
      for (const client of clients) {
        const result = await client.callTool({ name: id, arguments: {} });
        expect(result.isError).toBe(true);
        const lines = toolText(result).split('\n');
        expect(lines[0]).toMatch(new RegExp(`^Tool call refused: ${reason}( \\(retryable\\))?$`));
        expect(lines.some((line) => line.startsWith('Remediation: '))).toBe(true);
      }
      // The runtime counts a message when it sends it, so nothing is in flight behind this check.
      expect(gw.gateway.runtime.upstreamMessageCount()).toBe(before.runtime);
      if (server === 'gated') {
        // A fence on the same connection: once the upstream has counted this allowed call, any
        // message sent for the refused ones (before it, in order) has been counted too.
        const fence = await clients[0]!.callTool({ name: 'gated:base', arguments: {} });
        expect(fence.isError).toBeFalsy();
        expect(gw.gateway.runtime.upstreamMessageCount()).toBe(before.runtime + 1);
        await expect.poll(() => readCount(counts.gated!)).toBe(before.upstream + 1);
      } else {
        // quar: connected, refused by the gateway; off and down have no upstream process.
        expect(readCount(counts[server]!)).toBe(before.upstream);
      }
    });
  }

  it('keeps the last-known tools of a server that went down listed, and lists no refused tool', async () => {
    const names = (await clients[0]!.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(['describe_tool', 'down:t', 'gated:base']);
  });

  it('forwards an allowed call (the counters are live)', async () => {
    const before = { runtime: gw.gateway.runtime.upstreamMessageCount(), upstream: readCount(counts.gated!) };
    const result = await clients[1]!.callTool({ name: 'gated:base', arguments: { n: 1 } });
    expect(result.isError).toBeFalsy();
    expect(gw.gateway.runtime.upstreamMessageCount()).toBeGreaterThan(before.runtime);
    await expect.poll(() => readCount(counts.gated!)).toBeGreaterThan(before.upstream);
  });
});
