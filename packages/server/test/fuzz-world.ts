// The small real world the fuzz tests hammer: a gateway with two fixture upstreams, a raw session
// per revision with the extension negotiated, and the check that it still serves afterwards.
import { expect } from 'vitest';
import fc from 'fast-check';
import { fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { negotiating, openRawSession, type RawEra, type RawSession } from './raw-mcp-session.js';

/** Runs per property: enough to reach the odd corners, bounded so the suite stays quick. */
export const FUZZ_RUNS = Number(process.env['FUZZ_RUNS'] ?? 120);

export interface FuzzWorld {
  readonly gateway: TestGateway;
  /** A raw session per revision, extension negotiated. */
  readonly sessions: Readonly<Record<RawEra, RawSession>>;
  /** The listing tools/list answers without a rider (built-ins first). */
  readonly listing: readonly { name: string }[];
  /** Served upstream tool names. */
  readonly served: readonly string[];
  /** /healthz answers and the listing is what it was. */
  assertStillServing(): Promise<void>;
  close(): Promise<void>;
}

export async function startFuzzWorld(): Promise<FuzzWorld> {
  const dir = new TempDir();
  const alpha = dir.tools('alpha', [
    { name: 'read', annotations: { readOnlyHint: true, openWorldHint: false } },
    { name: 'write', annotations: { readOnlyHint: false, destructiveHint: true } },
    { name: 'plain' },
  ]);
  const beta = dir.tools('beta', [{ name: 'x', annotations: { readOnlyHint: true } }, { name: 'hidden' }]);
  const gateway = await startTestGateway(dir, { servers: [fixtureServer('alpha', alpha), fixtureServer('beta', beta, { disabled_tools: ['hidden'] })] });
  await waitForState(gateway.gateway, (s) => serverReady('alpha')(s) && serverReady('beta')(s));
  const sessions = {
    legacy: await openRawSession(gateway.url, 'legacy', { capabilities: negotiating('legacy') }),
    modern: await openRawSession(gateway.url, 'modern', { capabilities: negotiating('modern') }),
  };
  const listing = (await sessions.modern.request('tools/list')).result.tools as { name: string }[];
  const served = listing.map((t) => t.name).filter((name) => name.includes(':'));
  return {
    gateway,
    sessions,
    listing,
    served,
    async assertStillServing() {
      const health = await fetch(`${gateway.gateway.origin}/healthz`);
      expect(health.status).toBe(200);
      for (const session of Object.values(sessions)) expect((await session.request('tools/list')).result.tools).toEqual(listing);
    },
    async close() {
      await Promise.all(Object.values(sessions).map((s) => s.close()));
      await gateway.close();
      dir.remove();
    },
  };
}

/** What a value looks like after the trip through JSON (undefined members vanish, -0 is 0, NaN is null). */
export function overTheWire<T>(value: T): T | undefined {
  const text = JSON.stringify({ value });
  return (JSON.parse(text) as { value?: T }).value;
}

/** Tool ids that hit every branch: served, unknown, out of the world, malformed, padded, too long, not strings. */
export function toolIdArbitrary(served: readonly string[]): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...served, ...served.map((s) => ` ${s} `), 'alpha:nope', 'ghost:read', 'beta:hidden', 'nocolon', ':', 'alpha:', '') },
    { weight: 2, arbitrary: fc.string({ maxLength: 24 }) },
    { weight: 1, arbitrary: fc.string({ minLength: 513, maxLength: 540 }) },
    { weight: 1, arbitrary: fc.oneof(fc.integer(), fc.constant(null), fc.boolean(), fc.object()) },
  );
}

/** Policies: mostly well-formed, sometimes with wrong types or unknown members, sometimes not an object. */
export const policyArbitrary: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ read_only_only: fc.boolean(), exclude_destructive: fc.boolean(), exclude_open_world: fc.boolean() }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.record({ read_only_only: fc.anything(), extra: fc.boolean() }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.anything() },
);
