// The stderr tail of an upstream process: the same lines however the output is chunked, no line
// longer than STDERR_LINE_MAX, and bounded memory for an upstream that never writes a newline.
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { STDERR_LINE_MAX, StderrTail } from '../src/upstream/stderr-tail.js';

function tailOf(chunks: readonly string[], keep = 5): StderrTail {
  const stream = new PassThrough();
  const tail = new StderrTail(keep);
  tail.attach(stream);
  for (const chunk of chunks) stream.write(chunk);
  return tail;
}

describe('stderr tail', () => {
  it('keeps the same lines whatever the chunking, each at most STDERR_LINE_MAX long', () => {
    const text = fc.array(fc.oneof(fc.constant('\n'), fc.constant(' '), fc.string({ minLength: 1, maxLength: 8 }), fc.constant('y'.repeat(STDERR_LINE_MAX + 3))), { maxLength: 30 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, fc.array(fc.nat(), { maxLength: 6 }), (whole, cuts) => {
        const at = [...new Set(cuts.map((cut) => cut % (whole.length + 1)))].sort((a, b) => a - b);
        const chunks = [0, ...at].map((start, i) => whole.slice(start, at[i] ?? whole.length)).filter((chunk) => chunk !== '');
        const chunked = tailOf(chunks);
        expect(chunked.all()).toEqual(tailOf([whole]).all());
        for (const line of chunked.all()) expect(line.length).toBeLessThanOrEqual(STDERR_LINE_MAX);
      }),
      { numRuns: 300 },
    );
  });

  it('drops what a line without end writes past the limit, and reports its start', () => {
    const tail = tailOf(Array.from({ length: 64 }, () => 'z'.repeat(16 * 1024)));
    expect(tail.last()).toBe('z'.repeat(STDERR_LINE_MAX));
    expect(tail.all()).toEqual(['z'.repeat(STDERR_LINE_MAX)]);
  });
});
