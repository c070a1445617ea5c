// Names are compared rune-wise (by code point); a lone surrogate counts as one code point,
// as the string iterator yields it.

/** Writes the code points of `text` into out[0..) (room for text.length needed) and returns their number. */
export function writeCodePoints(text: string, out: Int32Array): number {
  let count = 0;
  for (let unit = 0; unit < text.length; count += 1) {
    const point = text.codePointAt(unit) ?? 0;
    out[count] = point;
    unit += point > 0xffff ? 2 : 1;
  }
  return count;
}

export function codePointsOf(text: string): Int32Array {
  const points = new Int32Array(text.length);
  return points.subarray(0, writeCodePoints(text, points));
}

export function codePointLength(text: string): number {
  let count = 0;
  for (let unit = 0; unit < text.length; count += 1) unit += (text.codePointAt(unit) ?? 0) > 0xffff ? 2 : 1;
  return count;
}

/** UTF-16 offset of code point number `codePoints` of `text`. */
export function unitOffsetOf(text: string, codePoints: number): number {
  let unit = 0;
  for (let count = 0; count < codePoints && unit < text.length; count += 1) unit += (text.codePointAt(unit) ?? 0) > 0xffff ? 2 : 1;
  return unit;
}

/** True when the first `prefixLength` code units of `text` do not end inside a surrogate pair. */
export function endsOnCodePointBoundary(text: string, prefixLength: number): boolean {
  if (prefixLength === 0 || prefixLength >= text.length) return true;
  const before = text.charCodeAt(prefixLength - 1);
  const after = text.charCodeAt(prefixLength);
  return !(before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff);
}
