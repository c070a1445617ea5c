// Names are compared rune-wise (by code point); a lone surrogate counts as one code point,
// as the string iterator yields it.

export interface CodePoints {
  readonly points: Int32Array;
  /** offsets[k] = UTF-16 offset of code point k; offsets[points.length] = the string's length. */
  readonly offsets: Int32Array;
}

export function codePointsOf(text: string): CodePoints {
  const points = new Int32Array(text.length);
  const offsets = new Int32Array(text.length + 1);
  let count = 0;
  let unit = 0;
  while (unit < text.length) {
    const point = text.codePointAt(unit) ?? 0;
    points[count] = point;
    offsets[count] = unit;
    count += 1;
    unit += point > 0xffff ? 2 : 1;
  }
  offsets[count] = unit;
  return { points: points.subarray(0, count), offsets: offsets.subarray(0, count + 1) };
}

export function codePointLength(text: string): number {
  let count = 0;
  for (let unit = 0; unit < text.length; unit += 1) {
    const code = text.charCodeAt(unit);
    // A high surrogate followed by a low one is one code point.
    if (code >= 0xd800 && code <= 0xdbff && unit + 1 < text.length) {
      const next = text.charCodeAt(unit + 1);
      if (next >= 0xdc00 && next <= 0xdfff) unit += 1;
    }
    count += 1;
  }
  return count;
}

/** True when `prefix` (a code-unit prefix of `text`) does not end inside a surrogate pair of `text`. */
export function endsOnCodePointBoundary(text: string, prefixLength: number): boolean {
  if (prefixLength === 0 || prefixLength >= text.length) return true;
  const before = text.charCodeAt(prefixLength - 1);
  const after = text.charCodeAt(prefixLength);
  return !(before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff);
}
