// The bench convention's lines as the aggregator reads them: only lines that start with the prefix,
// every field checked, and each malformed line named with its line number and fault.
import { describe, expect, it } from 'vitest';
import { parseTargetLines } from '../src/bench-target-line.js';

const good = { id: 'rider-2025', measure: 'rider, 50 IDs', figure: '1.05x (1.40 ms vs 1.33 ms median)', target: '<= 1.2x and <= +1 ms', met: true };
const line = (value: unknown) => `BENCH-TARGET ${JSON.stringify(value)}`;

describe('BENCH-TARGET lines', () => {
  it('reads every target line and ignores the rest of the output', () => {
    const output = ['# rider benchmark', '| a | b |', line(good), '  BENCH-TARGET {"indented": "ignored"}', line({ ...good, id: 'rider-2026', met: false }), ''].join('\n');
    const parsed = parseTargetLines(output);
    expect(parsed.bad).toEqual([]);
    expect(parsed.targets).toEqual([good, { ...good, id: 'rider-2026', met: false }]);
  });

  it('names each malformed line: its number and what is wrong', () => {
    const { id: _id, ...noId } = good;
    const output = [
      line(good),
      'BENCH-TARGET {"id":',
      line([good]),
      line(noId),
      line({ ...good, figure: '' }),
      line({ ...good, met: 'yes' }),
      'BENCH-TARGET {"id":"x","measure":"m","figure":"f","target":"t","met":true,"__proto__":{"met":false}}',
      line({ ...good, unit: 'ms' }),
    ].join('\r\n');
    const parsed = parseTargetLines(output);
    expect(parsed.targets).toEqual([good]);
    expect(parsed.bad.map((b) => [b.line, b.problem])).toEqual([
      [2, expect.stringMatching(/^not JSON: /)],
      [3, 'not a JSON object'],
      [4, '"id" must be a non-empty string'],
      [5, '"figure" must be a non-empty string'],
      [6, '"met" must be true or false'],
      [7, 'unknown member(s): __proto__'],
      [8, 'unknown member(s): unit'],
    ]);
  });
});
