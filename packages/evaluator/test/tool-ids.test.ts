import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dedupeToolIds, parseToolId, toolIdKey } from '../src/index.js';

describe('parseToolId', () => {
  it.each([
    ['github:get_issue', { ok: true, server: 'github', tool: 'get_issue' }],
    [' github : get_issue ', { ok: true, server: 'github', tool: 'get_issue' }],
    ['a:b:c', { ok: true, server: 'a', tool: 'b:c' }],
    ['a: b :c ', { ok: true, server: 'a', tool: 'b :c' }],
    ['github', { ok: false }],
    ['', { ok: false }],
    [':tool', { ok: false }],
    ['  :tool', { ok: false }],
    ['server:', { ok: false }],
    ['server: \t', { ok: false }],
  ] as const)('%j', (raw, expected) => {
    expect(parseToolId(raw)).toEqual(expected);
  });

  it('splits on the first colon and trims both halves, for any input', () => {
    fc.assert(
      fc.property(fc.string(), (raw) => {
        const parsed = parseToolId(raw);
        const colon = raw.indexOf(':');
        if (!parsed.ok) {
          expect(colon < 0 || raw.slice(0, colon).trim() === '' || raw.slice(colon + 1).trim() === '').toBe(true);
          return;
        }
        expect(parsed.server).toBe(raw.slice(0, colon).trim());
        expect(parsed.tool).toBe(raw.slice(colon + 1).trim());
        expect(parsed.server.includes(':')).toBe(false);
      }),
      { numRuns: 10_000 },
    );
  });
});

describe('dedupeToolIds', () => {
  it('keeps the first occurrence by trimmed form, in order, with its raw id and fields', () => {
    const entries = [
      { id: ' a : b', pin: 'first' },
      { id: 'c:d' },
      { id: 'a:b', pin: 'second' },
      { id: 'nocolon ' },
      { id: ' nocolon' },
      { id: 'c : d ' },
    ];
    expect(dedupeToolIds(entries)).toEqual([{ id: ' a : b', pin: 'first' }, { id: 'c:d' }, { id: 'nocolon ' }]);
  });

  it('never returns two entries with one trimmed form, and keeps every distinct one', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ id: fc.string({ maxLength: 6 }) }), { maxLength: 12 }), (entries) => {
        const kept = dedupeToolIds(entries);
        const keys = kept.map((entry) => toolIdKey(entry.id));
        expect(new Set(keys).size).toBe(keys.length);
        expect(new Set(entries.map((entry) => toolIdKey(entry.id)))).toEqual(new Set(keys));
        for (const entry of kept) expect(entries.find((other) => toolIdKey(other.id) === toolIdKey(entry.id))).toBe(entry);
      }),
      { numRuns: 10_000 },
    );
  });
});
