// The desktop setup: an SDK client holds `mcpproxy serve --stdio` (the built CLI, a child process)
// open, and the built CLI, as another child process, operates that gateway with no port and no --url:
// it finds it through the data directory and talks REST over the gateway's local socket, with the
// admin key the gateway stored there. `tools approve` (the remediation the gateway prints) works and
// the held client sees the approved tool; a second `mcpproxy serve --stdio` relays to the first.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { baseEnv, CLI_BIN, FIXTURE_MAIN, isOneLineError, runCli, Scratch } from './cli-harness.js';

let scratch: Scratch;
let config: string;
let toolsFile: string;
let pidFile: string;

beforeAll(() => {
  scratch = new Scratch();
  toolsFile = scratch.file('work.tools.json', JSON.stringify([{ name: 't1', echo: true }]));
  pidFile = join(scratch.dir, 'work.pid');
  // No api_key: the gateway generates one into <data_dir>/api-key, where the CLI reads it.
  config = scratch.file(
    'desktop.json',
    JSON.stringify({
      data_dir: join(scratch.dir, 'data'),
      first_listing_wait_ms: 60_000,
      servers: [{ name: 'work', command: process.execPath, args: [FIXTURE_MAIN, '--tools', toolsFile, '--pid-file', pidFile], quarantined: false }],
    }),
  );
});
afterAll(() => scratch?.remove());

async function holdStdioGateway(): Promise<{ client: Client; listChanged: () => number }> {
  let changes = 0;
  const client = new Client({ name: 'desktop-client', version: '1.0.0' });
  client.setNotificationHandler('notifications/tools/list_changed', () => void (changes += 1));
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [CLI_BIN, 'serve', '--stdio', '--config', config], env: baseEnv(scratch.dir), stderr: 'ignore' }));
  return { client, listChanged: () => changes };
}

const listed = async (client: Client) => (await client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((tool) => tool.name);

async function until<T>(check: () => Promise<T>, ok: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  let last: T = await check();
  while (!ok(last)) {
    if (Date.now() > deadline) throw new Error(`${what}: last ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await check();
  }
  return last;
}

describe('operator commands against a stdio gateway', () => {
  it('servers list and tools approve work over the local socket while a client holds the gateway open', async () => {
    const held = await holdStdioGateway();
    try {
      expect(await listed(held.client)).toEqual(['describe_tool', 'work:t1']);
      // The upstream adds a tool after its baseline: pending, until the operator approves it.
      writeFileSync(toolsFile, JSON.stringify([{ name: 't1', echo: true }, { name: 't2', echo: true }]));
      process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGHUP');
      const approval = async () => {
        const run = await runCli(['tools', 'list', '-c', config, '-o', 'json'], { cwd: scratch.dir });
        if (run.code !== 0) throw new Error(run.stderr);
        return (JSON.parse(run.stdout) as { tools: { id: string; approval: string }[] }).tools.find((t) => t.id === 'work:t2')?.approval;
      };
      await until(approval, (value) => value === 'pending', 'work:t2 never became pending');

      const servers = await runCli(['servers', 'list', '-c', config], { cwd: scratch.dir });
      expect(servers.code, servers.stderr).toBe(0);
      expect(servers.stdout).toMatch(/^work\s+ready\s+yes\s+no\s+1\/2\s+-$/m);

      const heard = held.listChanged();
      const approve = await runCli(['tools', 'approve', 'work:t2', '-c', config], { cwd: scratch.dir });
      expect(approve.code, approve.stderr).toBe(0);
      expect(await approval()).toBe('approved');
      await until(() => listed(held.client), (names) => names.includes('work:t2'), 'the held client never listed work:t2');
      expect(held.listChanged()).toBeGreaterThan(heard);

      const preflight = await runCli(['tools', 'preflight', 'work:t2', '-c', config], { cwd: scratch.dir });
      expect(preflight.code, preflight.stderr).toBe(0);
      // The same, with the data directory from the environment instead of --config.
      const fromEnv = await runCli(['servers', 'list', '-o', 'json'], { cwd: scratch.dir, env: { MCPPROXY_DATA_DIR: join(scratch.dir, 'data') } });
      expect(fromEnv.code, fromEnv.stderr).toBe(0);
      // --in-band needs /mcp over HTTP, which a stdio gateway does not have: one line saying so.
      const inBand = await runCli(['tools', 'preflight', 'work:t1', '--in-band', '-c', config], { cwd: scratch.dir });
      expect(inBand.code).toBe(1);
      expect(isOneLineError(inBand.stderr)).toBe(true);
      expect(inBand.stderr).toContain('serves MCP on stdio, with no HTTP listener for --in-band');

      // A second desktop window: its `mcpproxy serve --stdio` relays to the running gateway and sees its state.
      const second = await holdStdioGateway();
      try {
        expect(await listed(second.client)).toEqual(['describe_tool', 'work:t1', 'work:t2']);
      } finally {
        await second.client.close();
      }
    } finally {
      await held.client.close();
    }
  });

  it('says in one line when the socket a running gateway recorded cannot be reached', async () => {
    const dataDir = join(scratch.dir, 'gone-data');
    mkdirSync(dataDir);
    const socket = join(dataDir, 'gateway.sock');
    // A live pid (this test's) whose socket is not there.
    writeFileSync(join(dataDir, 'gateway.json'), JSON.stringify({ pid: process.pid, socket }));
    writeFileSync(join(dataDir, 'api-key'), 'stored-admin-key-0123456789\n');
    const run = await runCli(['servers', 'list'], { cwd: scratch.dir, env: { MCPPROXY_DATA_DIR: dataDir } });
    expect(run.code).toBe(1);
    expect(isOneLineError(run.stderr)).toBe(true);
    expect(run.stderr).toContain(`cannot reach the gateway at ${socket}: ENOENT`);
  });
});
