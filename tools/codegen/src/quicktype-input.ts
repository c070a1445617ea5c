// quicktype reads a subset of JSON Schema and forgets what it does not read: it rejects `false`
// schemas, ignores conditionals, widens `const: 1` to number and names nested types itself.
// Before it runs, allOf members are merged, and each $ref, const and registry placeholder
// becomes a marker (see quicktype-markers.ts), so its output keeps our names and literals.
import type { JsonSchema } from './load-spec.js';
import { markerSchema } from './quicktype-markers.js';
import type { Registry } from './registry-model.js';
import type { Strength } from './resolve-placeholders.js';
import { flattenAllOf, isPlaceholder, isSchemaObject, PLACEHOLDER_KEY, refName } from './schema-node.js';
import { tsLiteral } from './render-source.js';
import { placeholderType } from './type-placeholders.js';

const DROPPED_KEYS = new Set(['if', 'then', 'else', 'not', 'propertyNames', 'format', '$comment', 'default', 'allOf']);

export interface QuicktypeInputContext {
  readonly defs: Record<string, unknown>;
  readonly registry: Registry;
  readonly strength: Strength;
  /** The TypeScript name a reference to this def takes in this strength. */
  readonly typeName: (def: string) => string;
}

function simplify(node: unknown, ctx: QuicktypeInputContext): unknown {
  if (Array.isArray(node)) return node.map((item) => simplify(item, ctx));
  if (!isSchemaObject(node)) return node;
  const ref = refName(node);
  if (ref !== undefined) return markerSchema(ctx.typeName(ref));
  if (isPlaceholder(node)) {
    const text = placeholderType(node[PLACEHOLDER_KEY], ctx.registry, ctx.strength);
    return text === undefined ? {} : markerSchema(text);
  }
  if ('const' in node) return markerSchema(tsLiteral(node['const']));
  const flat = 'allOf' in node ? flattenAllOf(node, ctx.defs) : node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(flat)) {
    if (DROPPED_KEYS.has(key) || key.startsWith('x-')) continue;
    if (key === 'unevaluatedProperties') {
      if (value === false) out['additionalProperties'] = false;
      continue;
    }
    if (key === 'properties' && isSchemaObject(value)) {
      // A property whose schema is `false` is forbidden: the type simply does not have it.
      out[key] = Object.fromEntries(
        Object.entries(value)
          .filter(([, v]) => v !== false)
          .map(([k, v]) => [k, simplify(v, ctx)]),
      );
      continue;
    }
    out[key] = simplify(value, ctx);
  }
  return out;
}

/** The schema quicktype reads for one strength: the same $defs, simplified. */
export function quicktypeInput(ctx: QuicktypeInputContext): JsonSchema {
  return {
    $defs: Object.fromEntries(Object.entries(ctx.defs).map(([name, def]) => [name, simplify(def, ctx)])),
  };
}
