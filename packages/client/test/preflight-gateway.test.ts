// preflight / requireTools / resolve against the real gateway on both protocol revisions: the
// rider when the session mirrors the extension, check mode when a 2025-11-25 session did not,
// REST as the last resort, a typed error listing every carriage when none can answer.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkValue, strictValidators } from '@mcpproxy/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggregateResolved, PreflightError, preflight, requiredToolsCapabilities, RequiredToolsUnavailableError, requireTools, resolve, ResolveError } from '../src/index.js';
import { ADMIN_KEY, connect, ERAS, fixtureServer, Scratch, startGateway, waitForServer, type Gateway } from './client-harness.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
const AGENT = 'client-agent-token-0123';
let scratch: Scratch;
let gw: Gateway;

beforeAll(async () => {
  scratch = new Scratch();
  const tools = [{ name: 'echo', annotations: READ_ONLY, echo: true as const }, { name: 'bare' }];
  // 'slow' never answers while this file runs: its start delay and the gateway's upstream timeout are both an hour,
  // longer than any test file takes on a loaded machine (a 30 s timeout turned it into server_unhealthy there).
  gw = await startGateway(scratch, {
    upstream_timeout_ms: 3_600_000,
    reconnect_initial_delay_ms: 100,
    servers: [
      fixtureServer(scratch, 'alpha', tools),
      fixtureServer(scratch, 'off', tools, { enabled: false }),
      fixtureServer(scratch, 'slow', tools, {}, ['--start-delay-ms', '3600000']),
      // Holds every start for an hour until the test sends SIGUSR1 (its pid file names the newest start).
      fixtureServer(scratch, 'late', tools, {}, ['--start-delay-ms', '3600000', '--pid-file', join(scratch.dir, 'late.pid')]),
    ],
    agent_tokens: [{ name: 'agent', token: AGENT, allowed_servers: ['alpha', 'late'] }],
  });
  await waitForServer(gw, 'alpha', ['ready']);
});
afterAll(async () => {
  await gw?.stop();
  scratch?.remove();
});

describe.each(ERAS)('on %s', (era) => {
  it('the rider answers when the session mirrors the extension; results are treated, ids echoed', async () => {
    const client = await connect(gw.mcpUrl, era, requiredToolsCapabilities());
    try {
      const result = await preflight(client, [' alpha:echo', 'alpha:echo', 'off:echo', 'alpha:nope']);
      expect(result.carriage).toBe('rider');
      expect(result.attempts).toEqual([{ carriage: 'rider', outcome: 'answered', reason: 'answered' }]);
      expect(result.verdict).toBe('unknown_ids');
      expect(result.tools.map((t) => t.id)).toEqual([' alpha:echo', 'off:echo', 'alpha:nope']);
      expect(result.tools[1]).toEqual({
        id: 'off:echo', status: 'unavailable', reason: 'server_disabled', retryable: false, class: 'fix_state', known: true, action: 'enable',
        detail: 'Server off is disabled.', remediation: 'Enable it: mcpproxy servers enable off',
      });
    } finally {
      await client.close();
    }
  });

  it('the policy travels in the rider (missing_annotation)', async () => {
    const client = await connect(gw.mcpUrl, era, requiredToolsCapabilities());
    try {
      const result = await preflight(client, ['alpha:echo', 'alpha:bare'], { policy: { read_only_only: true } });
      expect(result.tools.map((t) => (t.status === 'ready' ? 'ready' : t.reason))).toEqual(['ready', 'missing_annotation']);
      expect(result.verdict).toBe('blocked');
    } finally {
      await client.close();
    }
  });

  it('a session built without the mirror: 2025-11-25 falls back to check mode, 2026-07-28 adds the mirror per request', async () => {
    const client = await connect(gw.mcpUrl, era);
    try {
      const result = await preflight(client, ['alpha:echo', 'slow:echo']);
      expect(result.verdict).toBe('degraded_retryable');
      if (era === 'legacy') {
        expect(result.carriage).toBe('check');
        expect(result.attempts[0]).toMatchObject({ carriage: 'rider', outcome: 'skipped' });
        expect(result.attempts[0]!.reason).toContain('requiredToolsCapabilities()');
      } else {
        expect(result.carriage).toBe('rider');
      }
    } finally {
      await client.close();
    }
  });

  it('more than 50 ids: no in-band carriage can take them; REST answers when given, else a typed error names every attempt', async () => {
    const client = await connect(gw.mcpUrl, era, requiredToolsCapabilities(), AGENT);
    const ids = Array.from({ length: 51 }, (_, i) => `alpha:t${i}`);
    try {
      const viaRest = await preflight(client, ids, { rest: { url: gw.mcpUrl, token: AGENT } });
      expect([viaRest.carriage, viaRest.verdict, viaRest.tools.length]).toEqual(['rest', 'unknown_ids', 51]);
      expect(viaRest.attempts.map((a) => [a.carriage, a.outcome])).toEqual([['rider', 'failed'], ['check', 'failed'], ['rest', 'answered']]);
      const error = await preflight(client, ids).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PreflightError);
      expect((error as PreflightError).code).toBe('no_carriage');
      expect((error as PreflightError).attempts.map((a) => [a.carriage, a.outcome])).toEqual([['rider', 'failed'], ['check', 'failed'], ['rest', 'skipped']]);
      expect((error as PreflightError).message).toContain('rider failed: the rider carries at most 50 ids (51 given)');
      const refused = await preflight(client, ids, { rest: { url: gw.origin, token: 'wrong-token' } }).catch((e: unknown) => e);
      expect((refused as PreflightError).attempts[2]!.reason).toContain('answered 401 (unauthorized');
    } finally {
      await client.close();
    }
  });

  it('an agent token scopes the session: out of scope reads not_found (agent tier in band)', async () => {
    const client = await connect(gw.mcpUrl, era, requiredToolsCapabilities(), AGENT);
    try {
      const result = await preflight(client, ['off:echo']);
      expect(result.tools[0]).toMatchObject({ status: 'unavailable', reason: 'not_found' });
    } finally {
      await client.close();
    }
  });

  it('resolve: the Shape B facet, policy from the request, unknown tools as a typed error; aggregation by worst class', async () => {
    const client = await connect(gw.mcpUrl, era, requiredToolsCapabilities());
    try {
      const ready = await resolve(client, 'alpha:echo', { text: 'hi' });
      expect(ready.availability).toEqual({ status: 'ready' });
      expect(ready.tool['name']).toBe('alpha:echo');
      const filtered = await resolve(client, 'alpha:bare', {}, { policy: { read_only_only: true } });
      expect(filtered.availability).toMatchObject({ status: 'unavailable', reason: 'missing_annotation', retryable: false, class: 'permanent', known: true });
      expect(checkValue(strictValidators.ResolveFacet, (filtered.tool['_meta'] as Record<string, unknown>)['app.mcpproxy/required-tools']).ok).toBe(true);
      const unknown = await resolve(client, 'alpha:nope').catch((e: unknown) => e);
      expect(unknown).toBeInstanceOf(ResolveError);
      expect([(unknown as ResolveError).code, (unknown as ResolveError).rpcCode]).toEqual(['unknown_tool', -32602]);
      expect(aggregateResolved([ready, filtered])).toBe('blocked');
      expect(aggregateResolved([ready])).toBe('ready');
      expect(aggregateResolved([ready, { name: 'x', tool: {} }])).toBe('blocked');
    } finally {
      await client.close();
    }
  });
});

describe('requireTools', () => {
  it('resolves with the ready result; throws a typed error listing what is unavailable, why, and what to do', async () => {
    const client = await connect(gw.mcpUrl, 'modern', requiredToolsCapabilities());
    try {
      expect((await requireTools(client, ['alpha:echo'])).verdict).toBe('ready');
      const error = await requireTools(client, ['alpha:echo', 'off:echo', 'alpha:nope']).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequiredToolsUnavailableError);
      const unavailable = error as RequiredToolsUnavailableError;
      expect([unavailable.code, unavailable.verdict, unavailable.carriage]).toEqual(['tools_unavailable', 'unknown_ids', 'rider']);
      expect(unavailable.unavailable.map((t) => t.reason)).toEqual(['server_disabled', 'not_found']);
      expect(unavailable.message).toBe(
        '2 of 3 required tools unavailable (verdict unknown_ids): off:echo (server_disabled: Server off is disabled. remediation: Enable it: mcpproxy servers enable off); ' +
          'alpha:nope (not_found: Tool alpha:nope was not found. remediation: List the tools you can use: mcpproxy tools list)',
      );
    } finally {
      await client.close();
    }
  });

  it('waits with backoff while degraded_retryable, and gives up at the deadline with the last verdict', async () => {
    const client = await connect(gw.mcpUrl, 'legacy', requiredToolsCapabilities());
    try {
      // Virtual time: each sleep moves the clock at once, so the backoff and the deadline are exact.
      let time = 0;
      const sleeps: number[] = [];
      const clock = { now: () => time, sleep: async (ms: number) => void sleeps.push(ms, (time += ms)) };
      const error = await requireTools(client, ['slow:echo'], { waitMs: 1000, initialDelayMs: 100, maxDelayMs: 400, clock }).catch((e: unknown) => e);
      expect((error as RequiredToolsUnavailableError).verdict).toBe('degraded_retryable');
      // 100, 200, 400, then what is left of the 1000 ms (300): five checks in all, none after the deadline.
      expect(sleeps.filter((_, i) => i % 2 === 0)).toEqual([100, 200, 400, 300]);
      expect(time).toBe(1000);
    } finally {
      await client.close();
    }
  });

  it('a server that finishes starting while it waits becomes ready (real clock)', async () => {
    const client = await connect(gw.mcpUrl, 'legacy', requiredToolsCapabilities());
    try {
      // Restart the upstream whose starts are held: it is initializing again, in a new process.
      const pidFile = join(scratch.dir, 'late.pid');
      const before = existsSync(pidFile) ? readFileSync(pidFile, 'utf8') : '';
      expect((await fetch(`${gw.origin}/api/v1/servers/late/restart`, { method: 'POST', headers: { 'x-api-key': ADMIN_KEY } })).status).toBe(200);
      expect((await preflight(client, ['late:echo'])).verdict).toBe('degraded_retryable');
      // The start is released on requireTools' first sleep (an event, not a guess at how long a loaded
      // machine takes): the first check saw it starting, a later one sees it ready.
      let sleeps = 0;
      const release = async (): Promise<void> => {
        for (;;) {
          const pid = existsSync(pidFile) ? readFileSync(pidFile, 'utf8') : '';
          try {
            // A pid that is gone (the start the restart ended, if it wrote its file late) is passed over.
            if (pid !== '' && pid !== before) return void process.kill(Number(pid), 'SIGUSR1');
          } catch {
            // ESRCH: wait for the newest start's pid
          }
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      };
      const real = {
        now: () => Date.now(),
        sleep: async (ms: number) => {
          if ((sleeps += 1) === 1) await release();
          await new Promise((resolve) => setTimeout(resolve, ms));
        },
      };
      const result = await requireTools(client, ['late:echo'], { waitMs: 600_000, initialDelayMs: 100, maxDelayMs: 400, clock: real });
      expect(result.verdict).toBe('ready');
      expect(sleeps).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('an empty id list is an invalid request', async () => {
    const client = await connect(gw.mcpUrl, 'modern');
    try {
      await expect(preflight(client, [])).rejects.toMatchObject({ code: 'invalid_request' });
    } finally {
      await client.close();
    }
  });
});
