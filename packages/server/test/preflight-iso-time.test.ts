// isoTime remembers the last millisecond it formatted (preflights at full speed share each one): it must
// still give every time its own text, whatever order the times come in.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoTime } from '../src/preflight/iso-time.js';

describe('isoTime', () => {
  it('is new Date(ms).toISOString() for every time, repeated, earlier or later than the last', () => {
    const ms = fc.integer({ min: 0, max: 8_640_000_000_000 });
    // Runs of the same time, as a burst of answers in one millisecond gives, then any other.
    const times = fc.array(fc.tuple(ms, fc.integer({ min: 1, max: 4 })), { minLength: 1, maxLength: 30 }).map((runs) => runs.flatMap(([t, n]) => Array(n).fill(t) as number[]));
    fc.assert(
      fc.property(times, (sequence) => {
        expect(sequence.map(isoTime)).toEqual(sequence.map((t) => new Date(t).toISOString()));
      }),
    );
  });
});
