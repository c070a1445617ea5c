import { isUtf8 } from 'node:buffer';

/**
 * Where bytes stop being UTF-8 (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF):
 * the offset of the first byte that does not start a complete character, or undefined when they are
 * all UTF-8. The check itself is Node's (simdutf); the scan for the offset runs only for bytes that
 * fail it, so that an error can say where.
 */
export function nonUtf8Offset(bytes: Uint8Array): number | undefined {
  if (isUtf8(bytes)) return undefined;
  let at = 0;
  while (at < bytes.length) {
    const length = characterLength(bytes, at);
    if (length === 0) return at;
    at += length;
  }
  // isUtf8 and this scan read the same RFC: unreachable unless they disagree.
  return bytes.length;
}

/** The length of the character that starts at `at`, or 0 when none does. */
function characterLength(bytes: Uint8Array, at: number): number {
  const lead = bytes[at]!;
  if (lead < 0x80) return 1;
  const form = LEADS.find((f) => lead >= f.from && lead <= f.to);
  if (form === undefined || at + form.length > bytes.length) return 0;
  const second = bytes[at + 1]!;
  if (second < form.secondFrom || second > form.secondTo) return 0;
  for (let i = 2; i < form.length; i++) if (!isContinuation(bytes[at + i]!)) return 0;
  return form.length;
}

function isContinuation(byte: number): boolean {
  return byte >= 0x80 && byte <= 0xbf;
}

/** RFC 3629's table: each lead byte range, its character's length, and the range its second byte must fall in. */
const LEADS: readonly { readonly from: number; readonly to: number; readonly length: number; readonly secondFrom: number; readonly secondTo: number }[] = [
  { from: 0xc2, to: 0xdf, length: 2, secondFrom: 0x80, secondTo: 0xbf },
  { from: 0xe0, to: 0xe0, length: 3, secondFrom: 0xa0, secondTo: 0xbf },
  { from: 0xe1, to: 0xec, length: 3, secondFrom: 0x80, secondTo: 0xbf },
  { from: 0xed, to: 0xed, length: 3, secondFrom: 0x80, secondTo: 0x9f },
  { from: 0xee, to: 0xef, length: 3, secondFrom: 0x80, secondTo: 0xbf },
  { from: 0xf0, to: 0xf0, length: 4, secondFrom: 0x90, secondTo: 0xbf },
  { from: 0xf1, to: 0xf3, length: 4, secondFrom: 0x80, secondTo: 0xbf },
  { from: 0xf4, to: 0xf4, length: 4, secondFrom: 0x80, secondTo: 0x8f },
];
