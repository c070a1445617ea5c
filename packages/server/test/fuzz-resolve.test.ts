// Fuzzing tools/resolve (fast-check) against the real gateway on both revisions. Oracle: every
// request gets either a result whose envelope is a strict ShapeBResponse naming a served tool with
// a strictly valid facet, or -32602; a well-formed resolve of a served name without a rider always
// resolves. The gateway keeps serving throughout.
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

function paramsArbitrary(served: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const rider = fc.oneof(
    { weight: 4, arbitrary: fc.record({ policy: policyArbitrary }, { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.record({ policy: policyArbitrary, pin_hash: fc.string(), tools: fc.anything() }, { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.anything() },
  );
  return fc.record(
    {
      name: toolIdArbitrary(served),
      arguments: fc.oneof({ weight: 4, arbitrary: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue()) }, { weight: 1, arbitrary: fc.anything() }),
      rider,
    },
    { requiredKeys: ['name'] },
  );
}

it('every resolve gets a valid result or -32602, on both revisions', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('legacy' as const, 'modern' as const), paramsArbitrary(world.served), async (era, generated) => {
      const { rider, ...rest } = generated;
      const params: Record<string, unknown> = overTheWire<Record<string, unknown>>({ ...rest, ...(rider === undefined ? {} : { _meta: { [EXTENSION_ID]: rider } }) }) ?? {};
      const answer = await world.sessions[era].request('tools/resolve', params);
      if (answer.error !== undefined) {
        expect(answer.error.code, answer.text).toBe(-32602);
        const wellFormed = typeof params['name'] === 'string' && (params['arguments'] === undefined || isPlainObject(params['arguments']));
        const untouched = params['_meta'] === undefined || (params['_meta'] as Record<string, unknown>)[EXTENSION_ID] === undefined;
        expect(wellFormed && untouched && world.served.includes(params['name'] as string), `a served name must resolve: ${answer.text}`).toBe(false);
        return;
      }
      const envelope = checkValue(strictValidators.ShapeBResponse, JSON.parse(answer.text));
      expect(envelope.ok, answer.text).toBe(true);
      expect(world.served).toContain(answer.result.tool.name);
      expect(checkValue(strictValidators.ResolveFacet, answer.result.tool._meta[EXTENSION_ID]).ok, answer.text).toBe(true);
    }),
    { numRuns: FUZZ_RUNS },
  );
  await world.assertStillServing();
});

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
