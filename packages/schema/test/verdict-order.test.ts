import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VERDICTS, verdictRank, worstVerdict, type Verdict } from '../src/index.js';

describe('worstVerdict', () => {
  it('is ready for no verdicts', () => {
    expect(worstVerdict([])).toBe('ready');
  });

  it('orders unknown_ids > blocked > degraded_retryable > ready', () => {
    expect(worstVerdict(['ready', 'blocked', 'degraded_retryable'])).toBe('blocked');
    expect(worstVerdict(new Set<Verdict>(['unknown_ids', 'blocked']))).toBe('unknown_ids');
    expect(VERDICTS.map(verdictRank)).toEqual([0, 1, 2, 3]);
  });

  it('property: the worst is a member with the highest rank, whatever the order', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...VERDICTS), { minLength: 1 }), (verdicts) => {
        const worst = worstVerdict(verdicts);
        expect(verdicts).toContain(worst);
        for (const v of verdicts) expect(verdictRank(v)).toBeLessThanOrEqual(verdictRank(worst));
        expect(worstVerdict([...verdicts].reverse())).toBe(worst);
      }),
    );
  });
});
