// The done-when on the CLI: the BUILT binary, asked about a tool of an HTTP upstream that answers
// tools/call 429 (Retry-After 30), exits 10 with server_saturated over REST and in band, and exits
// 0 once the gateway's clock (a hand-moved one, in this process) has passed the 30 s and the
// upstream has recovered.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForState } from '../../server/test/gateway-harness.js';
import { startSaturationWorld, type SaturationWorld } from '../../server/test/saturation-world.js';
import { runCli } from './cli-harness.js';

const ADMIN_KEY = 'saturated-cli-admin-key-0123456789';
let sat: SaturationWorld;
const preflight = (...extra: string[]) => runCli(['tools', 'preflight', 'busy:work', '-o', 'json', '--url', sat.gateway.gateway.origin ?? '', '--api-key', ADMIN_KEY, ...extra]);

beforeAll(async () => {
  sat = await startSaturationWorld({ api_key: ADMIN_KEY });
  sat.overload({ status: 429, retry_after: '30' });
  // The fixture reads its switch on SIGHUP, asynchronously; the first tools/call it answers 429 saturates the server.
  for (let calls = 0; !sat.saturated(); calls += 1) {
    if (calls > 500) throw new Error('the gateway never met the 429');
    await sat.callWork();
  }
}, 60_000);

afterAll(async () => {
  await sat?.close();
});

describe('mcpproxy tools preflight on a saturated upstream', () => {
  it.each([[[]], [['--in-band']]])('exits 10 with server_saturated %j', async (flags) => {
    const run = await preflight(...flags);
    expect(run.code, run.stderr).toBe(10);
    const doc = JSON.parse(run.stdout) as { verdict: string; exit_code: number; tools: Record<string, unknown>[] };
    expect(doc).toMatchObject({ verdict: 'degraded_retryable', exit_code: 10 });
    expect(doc.tools[0]).toMatchObject({
      status: 'unavailable',
      reason: 'server_saturated',
      retryable: true,
      detail: 'Server busy says it is overloaded (HTTP 429): retry after 30 s.',
    });
    expect(doc.tools[0]).not.toHaveProperty('action');
  });

  it('exits 0 once the Retry-After has passed and the upstream answers again', async () => {
    sat.overload({});
    await sat.clock.advance(30_000);
    await waitForState(sat.gateway.gateway, () => !sat.saturated());
    const run = await preflight();
    expect(run.code, run.stderr).toBe(0);
    expect(await sat.callWork({ n: 3 })).toBe('{"n":3}');
  });
});
