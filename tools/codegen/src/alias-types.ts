// Defs that are not object shapes (ids, texts, enums, arrays, placeholders) are plain aliases;
// quicktype only renders such a def when an object uses it, and then unexported, so these are
// written directly.
import type { Registry } from './registry-model.js';
import type { Strength } from './resolve-placeholders.js';
import { isPlaceholder, isSchemaObject, PLACEHOLDER_KEY, refName } from './schema-node.js';
import { tsLiteral } from './render-source.js';
import { placeholderType } from './type-placeholders.js';

const PRIMITIVES: Readonly<Record<string, string>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  null: 'null',
  object: '{ readonly [key: string]: unknown }',
};

export function aliasType(
  schema: unknown,
  registry: Registry,
  strength: Strength,
  typeName: (def: string) => string,
): string {
  if (schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (!isSchemaObject(schema)) return 'unknown';
  const ref = refName(schema);
  if (ref !== undefined) return typeName(ref);
  if (isPlaceholder(schema)) return placeholderType(schema[PLACEHOLDER_KEY], registry, strength) ?? 'unknown';
  if ('const' in schema) return tsLiteral(schema['const']);
  const values: unknown = schema['enum'];
  if (Array.isArray(values)) return values.map((v) => tsLiteral(v)).join(' | ');
  const type: unknown = schema['type'];
  if (type === 'array') {
    const item = aliasType(schema['items'] ?? true, registry, strength, typeName);
    return /^[\w$]+$/.test(item) ? `readonly ${item}[]` : `readonly (${item})[]`;
  }
  if (typeof type === 'string') return PRIMITIVES[type] ?? 'unknown';
  if (Array.isArray(type)) return type.map((t) => PRIMITIVES[String(t)] ?? 'unknown').join(' | ');
  return 'unknown';
}

export function aliasDeclaration(name: string, schema: unknown, typeText: string): string {
  const description = isSchemaObject(schema) && typeof schema['description'] === 'string' ? schema['description'] : undefined;
  return `${description === undefined ? '' : `/** ${description} */\n`}export type ${name} = ${typeText};\n`;
}
