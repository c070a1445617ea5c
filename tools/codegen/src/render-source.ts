// Deterministic text for generated files: the drift check compares bytes, so every emitter
// prints through these instead of relying on a formatter's version.

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const INLINE_WIDTH = 100;

export function tsString(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;
}

function tsKey(key: string): string {
  return IDENTIFIER.test(key) ? key : tsString(key);
}

/** A JSON value as a TypeScript literal with single quotes, two-space indent and trailing commas. */
export function tsLiteral(value: unknown, indent = 0): string {
  const pad = '  '.repeat(indent + 1);
  const end = '  '.repeat(indent);
  if (value === null || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return tsString(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item) => tsLiteral(item, indent + 1));
    const inline = `[${items.join(', ')}]`;
    if (!inline.includes('\n') && inline.length + indent * 2 <= INLINE_WIDTH) return inline;
    return `[\n${items.map((item) => `${pad}${item},\n`).join('')}${end}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, v]) => `${pad}${tsKey(k)}: ${tsLiteral(v, indent + 1)},\n`).join('')}${end}}`;
  }
  throw new TypeError(`cannot print ${typeof value} as a literal`);
}

export function tsUnion(values: readonly string[]): string {
  return values.length === 0 ? 'never' : values.map(tsString).join(' | ');
}

/** Two-space JSON with a final newline; key order is the order the emitter built. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
