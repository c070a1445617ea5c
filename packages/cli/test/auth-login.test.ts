// `mcpproxy auth login` against an HTTP fixture upstream that answers 401 without the right token:
// the oauth_required verdict, then the login (flag and stdin), and the verdict clearing.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_MAIN, fixtureServer, isOneLineError, runCli, Scratch, serveGateway, waitForServer, type ServedGateway } from './cli-harness.js';

const UPSTREAM_TOKEN = 'upstream-token-for-cli-0123';
let scratch: Scratch;
let gw: ServedGateway;
let stopFixture: () => void;
const cli = (args: readonly string[], input?: string) => runCli([...args, ...gw.flags], input === undefined ? {} : { input });

beforeAll(async () => {
  scratch = new Scratch();
  const fixture = spawn(process.execPath, [FIXTURE_MAIN, '--http', '0', '--require-token', UPSTREAM_TOKEN, '--demo'], { stdio: ['ignore', 'pipe', 'inherit'] });
  stopFixture = () => fixture.kill('SIGKILL');
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    fixture.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((candidate) => candidate.startsWith('{'));
      if (line !== undefined) resolve((JSON.parse(line) as { url: string }).url);
    });
    fixture.on('exit', (code) => reject(new Error(`fixture exited ${code}`)));
  });
  gw = await serveGateway(scratch, {
    // A 401 upstream is retried with backoff (pending_auth -> connecting -> pending_auth): keep the
    // retries out of this test's window so the verdict stays oauth_required until the login.
    reconnect_initial_delay_ms: 120_000,
    reconnect_max_delay_ms: 120_000,
    servers: [{ name: 'web', url, quarantined: false }, { name: 'web2', url, quarantined: false }, fixtureServer(scratch, 'local', [{ name: 'echo' }])],
  });
  await waitForServer(gw, 'web', ['pending_auth']);
  await waitForServer(gw, 'web2', ['pending_auth']);
});
afterAll(async () => {
  await gw?.stop();
  stopFixture?.();
  scratch?.remove();
});

describe('mcpproxy auth login', () => {
  it('before: oauth_required, whose remediation names this command', async () => {
    const run = await cli(['tools', 'preflight', 'web:echo', '-o', 'json']);
    expect(run.code).toBe(11);
    const tool = (JSON.parse(run.stdout) as { tools: { reason: string; action: string; remediation: string }[] }).tools[0]!;
    expect([tool.reason, tool.action]).toEqual(['oauth_required', 'login']);
    expect(tool.remediation).toMatch(/: mcpproxy auth login web$/);
  });

  it('without --token, an upstream that names no authorization server: exit 1, pointing at --token-stdin', async () => {
    const run = await cli(['auth', 'login', 'web', '--no-browser']);
    expect([run.code, isOneLineError(run.stderr)]).toEqual([1, true]);
    expect(run.stderr).toContain('oauth_failed');
    expect(run.stderr).toContain('mcpproxy auth login web --token-stdin');
  });

  it('a wrong token: exit 1, the upstream still answers 401', async () => {
    const run = await cli(['auth', 'login', 'web', '--token', 'wrong-token']);
    expect(run.code).toBe(1);
    expect(isOneLineError(run.stderr)).toBe(true);
    expect(run.stderr).toContain('still answers 401');
    expect((await cli(['tools', 'preflight', 'web:echo'])).code).toBe(11);
  });

  it('--token-stdin: ready, and the verdict clears', async () => {
    const run = await cli(['auth', 'login', 'web', '--token-stdin'], `${UPSTREAM_TOKEN}\n`);
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout).toMatch(/^Logged in: web is ready\.\nNAME +STATE/);
    expect(run.stdout).not.toContain(UPSTREAM_TOKEN);
    expect((await cli(['tools', 'preflight', 'web:echo'])).code).toBe(0);
  });

  it('--token T with -o json prints the server', async () => {
    const run = await cli(['auth', 'login', 'web2', '--token', UPSTREAM_TOKEN, '-o', 'json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ name: 'web2', state: 'ready', transport: 'http' });
  });

  it('empty stdin, a stdio server, an unknown server: exit 1 with one line', async () => {
    for (const [args, input, message] of [
      [['auth', 'login', 'web', '--token-stdin'], '  \n', 'standard input held no token'],
      [['auth', 'login', 'local', '--token', 'x'], undefined, 'is a stdio server'],
      [['auth', 'login', 'ghost', '--token', 'x'], undefined, 'No server named ghost'],
    ] as const) {
      const run = await cli(args, input);
      expect(run.code).toBe(1);
      expect(isOneLineError(run.stderr)).toBe(true);
      expect(run.stderr).toContain(message);
    }
  });
});
