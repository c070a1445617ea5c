/**
 * JSON values as YAML 1.2 block style. Strings are always double-quoted JSON strings (valid YAML
 * flow scalars), so no value can be misread as a number, a boolean, null or a document marker.
 */
export function yamlText(value: unknown): string {
  return `${lines(value, 0).join('\n')}\n`;
}

function lines(value: unknown, indent: number): string[] {
  const pad = ' '.repeat(indent);
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${pad}[]`];
    return value.flatMap((item) => {
      const inner = lines(item, indent + 2);
      const first = inner[0] ?? '';
      return isBlock(item) ? [`${pad}- ${first.slice(indent + 2)}`, ...inner.slice(1)] : [`${pad}- ${first.trimStart()}`];
    });
  }
  if (isRecord(value)) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (entries.length === 0) return [`${pad}{}`];
    return entries.flatMap(([key, item]) => {
      const name = `${pad}${yamlKey(key)}:`;
      if (isBlock(item)) return [name, ...lines(item, indent + 2)];
      return [`${name} ${scalar(item)}`];
    });
  }
  return [`${pad}${scalar(value)}`];
}

// Words YAML 1.1 readers still take for booleans or null: such keys stay quoted.
const RESERVED_WORDS = new Set(['y', 'n', 'yes', 'no', 'on', 'off', 'true', 'false', 'null']);

function yamlKey(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(key) && !RESERVED_WORDS.has(key.toLowerCase()) ? key : JSON.stringify(key);
}

function isBlock(value: unknown): boolean {
  return (Array.isArray(value) && value.length > 0) || (isRecord(value) && Object.values(value).some((v) => v !== undefined));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return '[]';
  return '{}';
}
