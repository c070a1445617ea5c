// The done-when on the gateway: an HTTP upstream that answers 429 (Retry-After 30) is met
// by one tools/call through /mcp, which reads exactly like the refusals after it; from then on the
// upstream gets no calls and every surface (REST operator and agent, the rider on both revisions,
// check mode, the resolve facet) says server_saturated with the Retry-After in the detail, until
// the injected clock passes the 30 s and the recovered upstream is ready and called again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitForState } from './gateway-harness.js';
import { IN_PROCESS_SURFACES, type InProcessSurface } from './sabotage-surfaces.js';
import type { SabotageWorld } from './sabotage-world.js';
import { startSaturationWorld, type SaturationWorld } from './saturation-world.js';

const ADMIN_KEY = 'saturation-admin-key-0123456789';
const AGENT_TOKEN = 'saturation-agent-token-0123456789';
const SURFACES = Object.keys(IN_PROCESS_SURFACES) as InProcessSurface[];
const REFUSAL = [
  'Tool call refused: server_saturated (retryable)',
  'Server busy says it is overloaded (HTTP 429): retry after 30 s.',
  'Remediation: Retry later, or wait for it: mcpproxy tools preflight busy:work --wait 10s',
].join('\n');

let sat: SaturationWorld;
/** The same gateway as the sabotage matrix's surface drivers see a world. */
let world: SabotageWorld;

beforeAll(async () => {
  sat = await startSaturationWorld({ api_key: ADMIN_KEY, agent_tokens: [{ name: 'agent-all', token: AGENT_TOKEN, allowed_servers: ['*'] }] });
  const gateway = sat.gateway;
  world = { gateway, origin: gateway.gateway.origin ?? '', mcpUrl: gateway.url, adminKey: ADMIN_KEY, tokens: { 'agent-all': AGENT_TOKEN }, close: () => sat.close() };
}, 60_000);

afterAll(async () => {
  await sat?.close();
});

describe('an HTTP upstream that answers tools/call 429 with Retry-After', () => {
  it('the call that meets the 429 reads like every refusal after it, and the next ones never reach the upstream', async () => {
    expect(await sat.callWork()).toBe('{"n":1}');
    sat.overload({ status: 429, retry_after: '30' });
    // The fixture reads its switch on SIGHUP, asynchronously: calls are answered until it has.
    const answers: string[] = [];
    while (answers.at(-1) !== REFUSAL) {
      answers.push(await sat.callWork());
      if (answers.length > 500) throw new Error(`never refused: ${answers.slice(-3).join(' | ')}`);
    }
    expect(answers.filter((text) => text !== '{"n":1}' && text !== REFUSAL)).toEqual([]);
    expect(sat.gateway.gateway.runtime.current().snapshot.servers.get('busy')?.connection.saturation).toEqual({ signal: 'HTTP 429', retry_after_s: 30 });

    const sent = sat.gateway.gateway.runtime.upstreamMessageCount();
    expect(await sat.callWork()).toBe(REFUSAL);
    expect(sat.gateway.gateway.runtime.upstreamMessageCount()).toBe(sent);
  });

  it.each(SURFACES)('%s says server_saturated (retryable, degraded_retryable, exit 10, no action)', async (surface) => {
    const observed = await IN_PROCESS_SURFACES[surface](world, { tool: 'busy:work', caller: {} });
    const cell = { status: 'unavailable', reason: 'server_saturated', retryable: true };
    expect(observed).toEqual(surface === 'resolve' ? cell : { ...cell, verdict: 'degraded_retryable', exit_code: 10 });
  });

  it('REST gives the Retry-After only in the detail, at both tiers', async () => {
    for (const headers of [{ 'x-api-key': ADMIN_KEY }, { authorization: `Bearer ${AGENT_TOKEN}` }]) {
      const response = await fetch(`${world.origin}/api/v1/preflight`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ tools: [{ id: 'busy:work' }] }),
      });
      const body = (await response.json()) as { verdict: string; tools: Record<string, unknown>[] };
      expect(body.verdict).toBe('degraded_retryable');
      expect(body.tools).toEqual([
        {
          id: 'busy:work',
          status: 'unavailable',
          reason: 'server_saturated',
          retryable: true,
          detail: 'Server busy says it is overloaded (HTTP 429): retry after 30 s.',
          remediation: 'Retry later, or wait for it: mcpproxy tools preflight busy:work --wait 10s',
        },
      ]);
    }
  });

  it('is ready again once the Retry-After has passed, with no probe in between, and is called again', async () => {
    sat.overload({});
    const sent = sat.gateway.gateway.runtime.upstreamMessageCount();
    await sat.clock.advance(29_999);
    expect(sat.gateway.gateway.runtime.current().snapshot.servers.get('busy')?.connection.saturation).toBeDefined();
    await sat.clock.advance(1);
    await waitForState(sat.gateway.gateway, (state) => state.snapshot.servers.get('busy')?.connection.saturation === undefined);
    // Nothing probed the upstream to end the window: the clock did.
    expect(sat.gateway.gateway.runtime.upstreamMessageCount()).toBe(sent);
    for (const surface of SURFACES) {
      const observed = await IN_PROCESS_SURFACES[surface](world, { tool: 'busy:work', caller: {} });
      expect(observed, surface).toEqual(surface === 'resolve' ? { status: 'ready' } : { status: 'ready', verdict: 'ready', exit_code: 0 });
    }
    expect(await sat.callWork()).toBe('{"n":1}');
  });
});
