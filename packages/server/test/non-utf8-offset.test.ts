// nonUtf8Offset against Node's own UTF-8 check (simdutf), on arbitrary bytes and on text with bad
// bytes let in: the bytes before the offset are UTF-8, and no character starts at the offset.
import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nonUtf8Offset } from '../src/json/non-utf8-offset.js';

/** Whether some complete UTF-8 character starts at `at`. */
function characterStartsAt(bytes: Uint8Array, at: number): boolean {
  for (let length = 1; length <= 4 && at + length <= bytes.length; length++) if (isUtf8(bytes.subarray(at, at + length))) return true;
  return false;
}

/** Text, its UTF-8 bytes, with arbitrary bytes put in at some places. */
const textWithBadBytes = fc
  .tuple(fc.string({ unit: 'grapheme', maxLength: 30 }), fc.array(fc.tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 4 })), { maxLength: 3 }))
  .map(([text, insertions]) => {
    let bytes = Buffer.from(text, 'utf8');
    for (const [at, inserted] of insertions) {
      const cut = bytes.length === 0 ? 0 : at % (bytes.length + 1);
      bytes = Buffer.concat([bytes.subarray(0, cut), inserted, bytes.subarray(cut)]);
    }
    return new Uint8Array(bytes);
  });

describe('nonUtf8Offset', () => {
  it('is undefined exactly for UTF-8, and otherwise names the first byte where no character starts', () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 40 }), textWithBadBytes), (bytes) => {
        const offset = nonUtf8Offset(bytes);
        expect(offset === undefined).toBe(isUtf8(bytes));
        if (offset === undefined) return;
        expect(isUtf8(bytes.subarray(0, offset))).toBe(true);
        expect(characterStartsAt(bytes, offset)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it('names the lead byte of an overlong form, a surrogate, a code point past U+10FFFF and a cut character', () => {
    const at = (...tail: number[]) => nonUtf8Offset(new Uint8Array([0x61, 0x62, ...tail]));
    expect(at(0xc0, 0xaf)).toBe(2); // "/" as two bytes
    expect(at(0xe0, 0x80, 0xaf)).toBe(2); // "/" as three bytes
    expect(at(0xed, 0xa0, 0x80)).toBe(2); // U+D800
    expect(at(0xf4, 0x90, 0x80, 0x80)).toBe(2); // U+110000
    expect(at(0xe2, 0x82)).toBe(2); // "€" without its last byte
    expect(at(0x80)).toBe(2); // a continuation byte alone
    expect(at(0xe2, 0x82, 0xac)).toBeUndefined(); // "€"
    expect(at(0xf0, 0x9f, 0x98, 0x80)).toBeUndefined(); // U+1F600
  });
});
