// Fuzzing the rider (fast-check) against the real gateway on both revisions. Oracle: a rider the
// strict RequestRider schema accepts gets a strictly valid facet beside the unchanged listing, with
// one result per requested id in request order; anything else gets -32602 naming the rider, never
// another error and never a facet. The gateway keeps serving throughout.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkValue, EXTENSION_ID, strictValidators } from '@mcpproxy/schema';
import { FUZZ_RUNS, overTheWire, policyArbitrary, startFuzzWorld, toolIdArbitrary, type FuzzWorld } from './fuzz-world.js';

let world: FuzzWorld;
beforeAll(async () => {
  world = await startFuzzWorld();
});
afterAll(async () => {
  await world?.close();
});

function riderArbitrary(served: readonly string[]): fc.Arbitrary<unknown> {
  const toolRef = fc.oneof(
    { weight: 10, arbitrary: fc.record({ id: toolIdArbitrary(served) }) },
    { weight: 1, arbitrary: fc.record({ id: toolIdArbitrary(served), pin_hash: fc.string() }) },
    { weight: 1, arbitrary: fc.anything() },
  );
  const tools = fc.oneof({ weight: 8, arbitrary: fc.array(toolRef, { maxLength: 8 }) }, { weight: 1, arbitrary: fc.array(toolRef, { minLength: 48, maxLength: 53 }) }, { weight: 1, arbitrary: fc.anything() });
  return fc.oneof(
    { weight: 8, arbitrary: fc.record({ tools, policy: policyArbitrary }, { requiredKeys: ['tools'] }) },
    { weight: 1, arbitrary: fc.record({ tools, reserved: fc.constantFrom('wait_ms', 'profile', 'expect_hashes', 'pin_hash', 'unknown'), value: fc.jsonValue() }).map(({ tools: t, reserved, value }) => ({ tools: t, [reserved]: value })) },
    { weight: 1, arbitrary: fc.anything() },
  );
}

/** The form ids are deduplicated on: both halves trimmed (the whole id when it has no colon). */
function trimmedForm(id: string): string {
  const at = id.indexOf(':');
  return at < 0 ? id.trim() : `${id.slice(0, at).trim()}:${id.slice(at + 1).trim()}`;
}

it('every rider gets a schema-valid facet or -32602, on both revisions', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('legacy' as const, 'modern' as const), riderArbitrary(world.served), async (era, rider) => {
      const wire = overTheWire(rider);
      const params = { _meta: wire === undefined ? {} : { [EXTENSION_ID]: wire } };
      const answer = await world.sessions[era].request('tools/list', params);
      if (wire === undefined) {
        expect(answer.result._meta?.[EXTENSION_ID]).toBeUndefined();
        return;
      }
      if (checkValue(strictValidators.RequestRider, wire).ok) {
        expect(answer.error, answer.text).toBeUndefined();
        expect(answer.result.tools).toEqual(world.listing);
        const facet = checkValue(strictValidators.ResponseFacet, answer.result._meta?.[EXTENSION_ID]);
        expect(facet.ok, answer.text).toBe(true);
        if (!facet.ok) return;
        const requested = (wire as { tools: { id: string }[] }).tools.map((t) => t.id);
        const answered = facet.value.tools.map((t) => t.id);
        // One result per unique id, the first occurrence echoed verbatim, in request order.
        expect(answered[0]).toBe(requested[0]);
        let cursor = 0;
        for (const id of answered) {
          cursor = requested.indexOf(id, cursor);
          expect(cursor, `${id} is not next in ${JSON.stringify(requested)}`).toBeGreaterThanOrEqual(0);
          cursor += 1;
        }
        expect(new Set(answered.map(trimmedForm)).size).toBe(answered.length);
      } else {
        expect(answer.result, answer.text).toBeUndefined();
        expect(answer.error?.code).toBe(-32602);
        expect(answer.error?.message).toMatch(/^Invalid app\.mcpproxy\/required-tools rider: .+; nothing was evaluated$/);
      }
    }),
    { numRuns: FUZZ_RUNS },
  );
  await world.assertStillServing();
});
