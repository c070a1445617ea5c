// Canonical JSON: the one serialisation a tool hash is computed over, so that two upstreams
// (or two runs) that list the same schema with keys in a different order hash the same.
//
// Rules (the same as RFC 8785 / JCS for every value JSON.parse can produce):
// - object keys sorted by UTF-16 code units (plain `<` on JS strings), recursively;
// - no whitespace; arrays keep their order;
// - strings and numbers exactly as JSON.stringify writes them (ECMAScript number formatting);
// - object members whose value is undefined are left out (they cannot come from JSON).

export type JsonValue = null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') {
    return JSON.stringify(value);
  }
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) {
      throw new TypeError('canonicalJson: non-finite numbers are not JSON');
    }
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) {
    return `[${value.map((item: unknown) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  throw new TypeError(`canonicalJson: a ${typeof value} is not JSON`);
}
