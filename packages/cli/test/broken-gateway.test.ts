// A peer that is not a working gateway: answers a preflight with a body the CLI cannot read, leaves a
// requested tool out, or never answers. The command fails (exit 1, one line), never passes a CI job
// and never hangs it. The peer is a bare node:http server on 127.0.0.1: no gateway answers like this.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CliError } from '../src/cli-error.js';
import { createRestClient } from '../src/rest/rest-client.js';
import { ADMIN_KEY, isOneLineError, runCli } from './cli-harness.js';

const ANSWERS: Record<string, string> = {
  '/no-tools': JSON.stringify({ verdict: 'ready', checked_at: '2026-11-30T00:00:00Z', request_id: 'r1' }),
  '/not-json': 'ready',
  '/one-missing': JSON.stringify({ verdict: 'ready', checked_at: '2026-11-30T00:00:00Z', request_id: 'r2', tools: [{ id: 'demo:echo', status: 'ready' }] }),
};

describe('a broken gateway', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const prefix = Object.keys(ANSWERS).find((path) => req.url?.startsWith(path));
      // Anything else is a gateway that accepted the request and never answers.
      if (prefix === undefined) return;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(ANSWERS[prefix]);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  // The peer answers on every path; --url carries a path prefix the CLI keeps in front of /api/v1.
  const preflight = (path: string, ids: string[]) => runCli(['tools', 'preflight', ...ids, '--url', `${origin}${path}`, '--api-key', ADMIN_KEY]);

  it.each([
    ['/no-tools', ['demo:echo'], 'the gateway answered an invalid preflight response'],
    ['/not-json', ['demo:echo'], 'without a JSON body'],
    ['/one-missing', ['demo:echo', 'demo:write'], `the gateway's answer has no result for "demo:write"`],
  ])('%s: exit 1 with one line, never a verdict', async (path, ids, said) => {
    const run = await preflight(path, ids);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(isOneLineError(run.stderr)).toBe(true);
    expect(run.stderr).toContain(said);
  });

  it('a redirect is not followed: the admin key never travels to where it points', async () => {
    let reached = 0;
    const elsewhere = createServer((req, res) => {
      reached += 1;
      res.end(JSON.stringify({ servers: [] }));
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    const redirecting = createServer((req, res) => {
      res.writeHead(307, { location: `${target}${req.url ?? '/'}` });
      res.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const run = await runCli(['servers', 'list', '--url', `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`, '--api-key', ADMIN_KEY]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('answered HTTP 307');
      expect(reached).toBe(0);
    } finally {
      redirecting.close();
      elsewhere.close();
    }
  });

  it('a gateway that never answers fails the call after its timeout, naming the gateway', async () => {
    const client = createRestClient({ origin: `${origin}/hangs`, credential: { kind: 'api-key', secret: ADMIN_KEY, source: 'test' } });
    // The event is the timeout's own error; a call that hung instead would run into the test's timeout.
    const call = client.call('preflight', { body: { tools: [{ id: 'demo:echo' }] }, timeoutMs: 300 });
    await expect(call).rejects.toThrow(CliError);
    await expect(call).rejects.toMatchObject({ code: 'connection', message: expect.stringContaining('did not answer POST /api/v1/preflight within 0.3 s') });
  });
});
