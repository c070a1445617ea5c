// Fuzzing describe_tool check mode (fast-check) against the real gateway on both revisions.
// Oracle: arguments with check: true that the strict CheckModeArguments schema accepts get a
// strictly valid { verdict, checked_at, request_id, results } with one result per unique id; all
// other check arguments get a tool error that says no verdict was computed. The gateway keeps serving.
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkValue, strictValidators } from '@mcpproxy/schema';
import { FUZZ_RUNS, overTheWire, policyArbitrary, startFuzzWorld, toolIdArbitrary, type FuzzWorld } from './fuzz-world.js';

let world: FuzzWorld;
beforeAll(async () => {
  world = await startFuzzWorld();
});
afterAll(async () => {
  await world?.close();
});

function argumentsArbitrary(served: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const ids = fc.oneof({ weight: 8, arbitrary: fc.array(toolIdArbitrary(served), { maxLength: 8 }) }, { weight: 1, arbitrary: fc.array(toolIdArbitrary(served), { minLength: 49, maxLength: 52 }) }, { weight: 1, arbitrary: fc.anything() });
  return fc.record(
    {
      tool_ids: ids,
      // Mostly check mode; sometimes a check that is not the boolean true (still no plain describe).
      check: fc.constantFrom<unknown>(true, true, true, true, 'true', 1, null, {}),
      filters: policyArbitrary,
      expect_hashes: fc.oneof(fc.dictionary(fc.string(), fc.string()), fc.constant(null), fc.array(fc.string())),
      verbose: fc.boolean(),
    },
    { requiredKeys: ['check'] },
  );
}

it('every check-mode call gets a schema-valid result or a tool error saying no verdict was computed', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('legacy' as const, 'modern' as const), argumentsArbitrary(world.served), async (era, args) => {
      const wire = overTheWire(args) ?? {};
      const answer = await world.sessions[era].request('tools/call', { name: 'describe_tool', arguments: wire });
      expect(answer.error, answer.text).toBeUndefined();
      const text = answer.result.content[0].text as string;
      if (wire['check'] === true && checkValue(strictValidators.CheckModeArguments, wire).ok) {
        expect(answer.result.isError, text).toBeFalsy();
        const result = checkValue(strictValidators.CheckModeResult, JSON.parse(text));
        expect(result.ok, text).toBe(true);
        if (!result.ok) return;
        const ids = wire['tool_ids'] as string[];
        expect(result.value.results[0]?.id).toBe(ids[0]);
        expect(result.value.results.length).toBeLessThanOrEqual(ids.length);
        expect(text).not.toMatch(/sha256\/v/);
      } else {
        expect(answer.result.isError, text).toBe(true);
        expect(text).toMatch(/^describe_tool: .+; no verdict was computed$/);
      }
    }),
    { numRuns: FUZZ_RUNS },
  );
  await world.assertStillServing();
});
