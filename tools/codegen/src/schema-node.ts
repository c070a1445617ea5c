// Reading JSON Schema nodes: plain objects, $defs references and placeholders.
import type { JsonSchema } from './load-spec.js';

export const PLACEHOLDER_KEY = 'x-registry';
const DEF_REF = /^#\/\$defs\/(.+)$/;

export function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The $defs name a node references, if it is a local $defs reference. */
export function refName(node: unknown): string | undefined {
  if (!isSchemaObject(node)) return undefined;
  const ref = node['$ref'];
  return typeof ref === 'string' ? DEF_REF.exec(ref)?.[1] : undefined;
}

export function isPlaceholder(node: unknown): node is JsonSchema {
  return isSchemaObject(node) && Object.hasOwn(node, PLACEHOLDER_KEY);
}

export function defsOf(schema: JsonSchema | undefined): Record<string, unknown> {
  const defs = schema?.['$defs'];
  return isSchemaObject(defs) ? defs : {};
}

/** Every $defs name a node references, directly. */
export function directRefs(node: unknown, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => directRefs(item, into));
  else if (isSchemaObject(node)) {
    const name = refName(node);
    if (name !== undefined) into.add(name);
    Object.values(node).forEach((value) => directRefs(value, into));
  }
  return into;
}

/**
 * Merges allOf members into one object schema (properties merged key by key, required
 * united, a `false` property removing it, additionalProperties false if any says so).
 */
export function mergeSchemas(base: JsonSchema, next: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...base };
  for (const [key, value] of Object.entries(next)) {
    const current = out[key];
    if (key === 'properties' && isSchemaObject(value)) {
      const props: JsonSchema = isSchemaObject(current) ? { ...current } : {};
      for (const [name, schema] of Object.entries(value)) {
        const existing = props[name];
        props[name] =
          schema === false ? false : isSchemaObject(existing) && isSchemaObject(schema) ? mergeSchemas(existing, schema) : schema;
      }
      out[key] = props;
    } else if (key === 'required' && Array.isArray(value)) {
      const before = Array.isArray(current) ? (current as unknown[]) : [];
      out[key] = [...new Set([...before, ...(value as unknown[])])];
    } else if (key === 'additionalProperties' && current === false) {
      continue;
    } else if (key === 'allOf' && Array.isArray(value)) {
      out[key] = [...(Array.isArray(current) ? (current as unknown[]) : []), ...(value as unknown[])];
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** A def with its allOf members that are references or plain objects merged in (conditionals kept in allOf). */
export function flattenAllOf(node: unknown, defs: Record<string, unknown>): JsonSchema {
  if (!isSchemaObject(node)) return {};
  const ref = refName(node);
  if (ref !== undefined) return flattenAllOf(defs[ref], defs);
  const { allOf, ...rest } = node;
  let merged: JsonSchema = rest;
  const kept: unknown[] = [];
  for (const part of Array.isArray(allOf) ? allOf : []) {
    const isShape = refName(part) !== undefined || (isSchemaObject(part) && !('if' in part) && !isPlaceholder(part));
    if (isShape) merged = mergeSchemas(merged, flattenAllOf(part, defs));
    else kept.push(part);
  }
  return kept.length > 0 ? mergeSchemas(merged, { allOf: kept }) : merged;
}
