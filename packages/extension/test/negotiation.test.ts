// The negotiation rule on its own: a mirror of any settings version from 1 up to ours is served
// (a later version only adds or deprecates codes, which earlier clients read leniently); a
// version above ours, or anything that is not a positive integer, is not.
import { SETTINGS_VERSION } from '@mcpproxy/schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isNegotiated } from '../src/negotiation.js';

describe('isNegotiated', () => {
  it('serves a mirror without a version, or with 1..SETTINGS_VERSION', () => {
    expect(isNegotiated({})).toBe(true);
    for (let v = 1; v <= SETTINGS_VERSION; v += 1) expect(isNegotiated({ version: v })).toBe(true);
  });

  it('refuses a version above ours, below 1, not an integer, or no object at all', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: SETTINGS_VERSION + 1 }), fc.integer({ max: 0 }), fc.double({ noInteger: true }), fc.string(), fc.constant(null), fc.boolean()),
        (version) => !isNegotiated({ version }),
      ),
    );
    for (const declaration of [undefined, null, 'app.mcpproxy/required-tools', 1, []]) expect(isNegotiated(declaration)).toBe(false);
  });
});
