// The new user's path, end to end with real processes: start the gateway (dist/bin/serve.js) on the
// README's config (the same upstreams and flags, an ephemeral port and this run's directories), then
// ONE curl (with the README's body, read from README.md, run by a shell when curl exists) gets a
// verdict for a mix of ready, quarantined, pending, changed and unknown tools.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_MAIN, SERVE_MAIN, TempDir } from './gateway-harness.js';

/** The request body of the README's curl (README.md, "One curl"), read from the README itself. */
const README_BODY = (() => {
  const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
  const body = /curl -s http:\/\/127\.0\.0\.1:\d+\/api\/v1\/preflight[^]*?-d '([^']+)'/.exec(readme)?.[1];
  if (body === undefined) throw new Error("README.md has no preflight curl with a -d '<body>'");
  return body;
})();

/** The README snippet, with the listen origin and the data directory of this run. */
const README_CURL = (origin: string, dataDir: string) =>
  `curl -s ${origin}/api/v1/preflight \\
  -H "X-API-Key: $(cat ${dataDir}/api-key)" \\
  -H 'Content-Type: application/json' \\
  -d '${README_BODY}'`;

const dir = new TempDir();
const dataDir = join(dir.path, 'data');
const toolsFile = join(dir.path, 'review.tools.json');
const pidFile = join(dir.path, 'review.pid');
let child: ChildProcess;
let stdout = '';
let origin = '';

function hasCurl(): boolean {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

async function api(path: string, init: RequestInit = {}): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const key = readFileSync(join(dataDir, 'api-key'), 'utf8').trim();
  const response = await fetch(`${origin}${path}`, { ...init, headers: { 'x-api-key': key, 'content-type': 'application/json' } });
  return response.json();
}

async function until<T>(read: () => Promise<T>, check: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} not reached: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

beforeAll(async () => {
  writeFileSync(toolsFile, JSON.stringify([{ name: 'stable', echo: true }, { name: 'drifting', description: 'v1', echo: true }]));
  const demo = (name: string, extra: Record<string, unknown>) => ({ name, command: process.execPath, args: [FIXTURE_MAIN, '--demo'], ...extra });
  const config = dir.file(
    'mcpproxy.json',
    JSON.stringify({
      listen: '127.0.0.1:0',
      data_dir: dataDir,
      servers: [
        demo('demo', { quarantined: false }),
        // As in the README: no quarantined flag, a new server starts quarantined (tool_quarantine is on).
        demo('vendor', {}),
        { name: 'review', command: process.execPath, args: [FIXTURE_MAIN, '--tools', toolsFile, '--pid-file', pidFile], quarantined: false },
      ],
    }),
  );
  child = spawn(process.execPath, [SERVE_MAIN, '--config', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const url = await until(async () => /serving MCP at (\S+)/.exec(stdout)?.[1], (found) => found !== undefined, 'serving');
  origin = new URL(url!).origin;
  await until(() => api('/api/v1/servers'), (body) => body.servers.every((s: { state?: string }) => s.state === 'ready'), 'all servers ready');
  // The upstream changes after its baseline: one tool appears, one is redefined (a rug-pull).
  writeFileSync(toolsFile, JSON.stringify([{ name: 'stable', echo: true }, { name: 'drifting', description: 'v2', echo: true }, { name: 'newcomer', echo: true }]));
  process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGHUP');
  await until(
    () => api('/api/v1/tools?server=review'),
    (body) => body.tools.some((t: { id: string; approval?: string }) => t.id === 'review:newcomer' && t.approval === 'pending'),
    'review changed',
  );
}, 60_000);
afterAll(async () => {
  if (child !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  dir.remove();
});

describe('the README curl', () => {
  it('prints a generated API key once and stores it in the data directory (mode 0600)', () => {
    const key = readFileSync(join(dataDir, 'api-key'), 'utf8').trim();
    expect(stdout).toContain(key);
    expect(execFileSync('stat', ['-c', '%a', join(dataDir, 'api-key')]).toString().trim()).toBe('600');
  });

  it('gets one verdict for ready, quarantined, pending, changed and unknown tools', async () => {
    const command = README_CURL(origin, dataDir);
    const text = hasCurl()
      ? execFileSync('sh', ['-c', command]).toString()
      : JSON.stringify(await api('/api/v1/preflight', { method: 'POST', body: README_BODY }));
    const body = JSON.parse(text) as { verdict: string; tools: { id: string; status: string; reason?: string; did_you_mean?: string[] }[] };
    expect(body.verdict).toBe('unknown_ids');
    expect(body.tools.map((t) => [t.id, t.reason ?? t.status])).toEqual([
      ['demo:echo', 'ready'],
      ['vendor:echo', 'server_quarantined'],
      ['review:newcomer', 'tool_pending_approval'],
      ['review:drifting', 'tool_changed'],
      ['demo:ech', 'not_found'],
      ['ghost:anything', 'server_not_configured'],
    ]);
    expect(body.tools[4]!.did_you_mean).toEqual(['demo:echo']);
  });
});
