// What kind of TypeScript each $defs entry becomes, and which ones need a lenient twin.
import type { JsonSchema } from './load-spec.js';
import type { Strength } from './resolve-placeholders.js';
import { defsOf, directRefs, flattenAllOf, isPlaceholder, isSchemaObject, PLACEHOLDER_KEY } from './schema-node.js';

/**
 * placeholder: the whole def is a registry placeholder; alias: a primitive, enum or array;
 * constraint: only conditionals (no shape of its own); object: quicktype renders it;
 * verdict: an object carrying the registry's per-code rules, layered with an exact union.
 */
export type DefKind = 'placeholder' | 'alias' | 'constraint' | 'object' | 'verdict';

function carriesRetryableRules(flat: JsonSchema): boolean {
  const parts = flat['allOf'];
  return Array.isArray(parts) && parts.some((p) => isPlaceholder(p) && p[PLACEHOLDER_KEY] === 'retryable_rules');
}

export function defKind(def: unknown, defs: Record<string, unknown>): DefKind {
  if (!isSchemaObject(def)) return 'alias';
  if (isPlaceholder(def)) return 'placeholder';
  const flat = flattenAllOf(def, defs);
  if (carriesRetryableRules(flat)) return 'verdict';
  if (flat['type'] === 'object' || 'properties' in flat || 'oneOf' in flat || 'anyOf' in flat) return 'object';
  const shapeKeys = ['type', 'enum', 'const', 'items', '$ref'];
  if (shapeKeys.some((k) => Object.hasOwn(flat, k))) return 'alias';
  return 'constraint';
}

/** Defs whose resolved schema differs between strengths, directly or through a reference. */
export function lenientTwins(resolved: Readonly<Record<Strength, JsonSchema>>): Set<string> {
  const strict = defsOf(resolved.strict);
  const lenient = defsOf(resolved.lenient);
  const differs = new Set(Object.keys(strict).filter((name) => JSON.stringify(strict[name]) !== JSON.stringify(lenient[name])));
  let grew = true;
  while (grew) {
    grew = false;
    for (const name of Object.keys(strict)) {
      if (differs.has(name)) continue;
      if ([...directRefs(strict[name])].some((ref) => differs.has(ref))) {
        differs.add(name);
        grew = true;
      }
    }
  }
  return differs;
}
