// The side-by-side diff the rug-pull review shows: properties over any two line lists (fast-check),
// plus the pairing a reader relies on (a reworded line sits next to its old form).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineDiff, type DiffRow } from '../src/diff/line-diff.js';
import { definitionSections } from '../src/diff/definition-sections.js';

const left = (rows: readonly DiffRow[]) => rows.flatMap((row) => (row.kind === 'added' ? [] : [row.left]));
const right = (rows: readonly DiffRow[]) => rows.flatMap((row) => (row.kind === 'removed' ? [] : [row.right]));
// Few distinct lines, so that the two sides share many.
const lines = fc.array(fc.constantFrom('{', '}', '"a": 1,', '"b": 2', '  "type": "string"', '', '__proto__', 'constructor'), { maxLength: 40 });

describe('lineDiff', () => {
  it('reads back both sides exactly, in order', () => {
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const rows = lineDiff(a, b);
        expect(left(rows)).toEqual(a);
        expect(right(rows)).toEqual(b);
      }),
    );
  });

  it('shows identical sides as unchanged rows only, and any difference as at least one other row', () => {
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const rows = lineDiff(a, b);
        const same = rows.every((row) => row.kind === 'same');
        expect(same).toBe(JSON.stringify(a) === JSON.stringify(b));
      }),
    );
  });

  it('keeps a longest common subsequence unchanged (as many same rows as the LCS is long)', () => {
    const lcsLength = (a: readonly string[], b: readonly string[]): number => {
      const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
      for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) table[i]![j] = a[i - 1] === b[j - 1] ? table[i - 1]![j - 1]! + 1 : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
      return table[a.length]![b.length]!;
    };
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        expect(lineDiff(a, b).filter((row) => row.kind === 'same')).toHaveLength(lcsLength(a, b));
      }),
    );
  });

  it('pairs a reworded line with its old form', () => {
    expect(lineDiff(['a', 'old', 'c'], ['a', 'new', 'c'])).toEqual([
      { kind: 'same', left: 'a', right: 'a' },
      { kind: 'changed', left: 'old', right: 'new' },
      { kind: 'same', left: 'c', right: 'c' },
    ]);
  });
});

describe('definitionSections', () => {
  it('compares JSON with sorted keys, so reordered keys are no change, and marks the parts that changed', () => {
    const sections = definitionSections(
      { description: 'v1', inputSchema: { type: 'object', properties: { b: {}, a: {} } }, annotations: { readOnlyHint: true } },
      { description: 'v2', inputSchema: { properties: { a: {}, b: {} }, type: 'object' }, annotations: { readOnlyHint: true } },
    );
    expect(sections.map((section) => [section.title, section.changed])).toEqual([
      ['Description', true],
      ['Input schema', false],
      ['Annotations', false],
    ]);
  });

  it('keeps caller-chosen keys such as __proto__ as plain keys', () => {
    const withProto = JSON.parse('{"type":"object","properties":{"__proto__":{"type":"string"}}}') as Record<string, unknown>;
    const [, schema] = definitionSections({ inputSchema: withProto }, { inputSchema: { type: 'object', properties: {} } });
    expect(schema!.changed).toBe(true);
    expect(left(schema!.rows).join('\n')).toContain('"__proto__"');
  });
});
