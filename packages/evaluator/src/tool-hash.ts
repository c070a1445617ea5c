// Tool hashes and pins: `sha256/v<N>:<64 lowercase hex>`.

export interface ParsedHash {
  /** The hash-schema version as written (digits, no leading zero); compared as text so no size limit applies. */
  readonly version: string;
  readonly hex: string;
}

export function parseToolHash(text: string): ParsedHash | undefined {
  const match = /^sha256\/v([1-9][0-9]*):([0-9a-f]{64})$/.exec(text);
  if (match === null) return undefined;
  return { version: match[1] ?? '', hex: match[2] ?? '' };
}

/** The wire's ToolHash pattern (versions of at most 9 digits): only such a hash is shown to an operator. */
export function isWireToolHash(text: string): boolean {
  return /^sha256\/v[1-9][0-9]{0,8}:[0-9a-f]{64}$/.test(text);
}
