// Fills the {"x-registry": ...} placeholders of the payload schema from the registry, in two
// strengths: strict for producers (this settings version's codes, per surface) and lenient for
// consumers (any well-formed code; known codes still bound to their registry values).
import { CodegenError } from './codegen-error.js';
import type { JsonSchema } from './load-spec.js';
import { SURFACE_NAMES, surfaceCodes, type Registry, type SurfaceName } from './registry-model.js';

export type Strength = 'strict' | 'lenient';
export const STRENGTHS: readonly Strength[] = ['strict', 'lenient'];

/** A well-formed code: an optional vendor prefix (reverse-DNS, then '/') and a snake_case name. */
export const CODE_PATTERN = '^([a-z0-9]+(\\.[a-z0-9-]+)*/)?[a-z][a-z0-9_]{0,63}$';
export const ACTION_PATTERN = '^[a-z][a-z0-9_]{0,63}$';

const PLACEHOLDER_KEY = 'x-registry';
/** Keys that may sit beside a placeholder: they annotate, they do not constrain. */
const ANNOTATION_KEYS = new Set(['description', 'title', '$comment']);

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Per code: retryable equals the registry's, and action is the default or a diagnostic one (absent when none). */
function retryableRules(registry: Registry): JsonSchema {
  return {
    allOf: Object.entries(registry.reasons).map(([code, reason]) => {
      const actions = [...(reason.action === undefined ? [] : [reason.action]), ...(reason.diagnostic_actions ?? [])];
      const unique = [...new Set(actions)];
      const then: JsonSchema = {
        properties: {
          retryable: { const: reason.retryable },
          action: unique.length === 0 ? false : unique.length === 1 ? { const: unique[0] } : { enum: unique },
        },
      };
      return { if: { required: ['reason'], properties: { reason: { const: code } } }, then };
    }),
  };
}

function isSurface(value: unknown): value is SurfaceName {
  return typeof value === 'string' && (SURFACE_NAMES as readonly string[]).includes(value);
}

function placeholderSchema(form: unknown, registry: Registry, strength: Strength, at: string): JsonSchema {
  if (form === 'extension') return { const: registry.extension };
  if (form === 'settings_version') {
    return strength === 'strict' ? { const: registry.settings_version } : { type: 'integer', minimum: 1 };
  }
  if (form === 'verdict') return { enum: registry.verdicts.map((v) => v.verdict) };
  if (form === 'action') {
    return strength === 'strict' ? { enum: [...registry.actions] } : { type: 'string', pattern: ACTION_PATTERN };
  }
  if (form === 'retryable_rules') return retryableRules(registry);
  if (isObject(form) && Object.keys(form).length === 1 && isSurface(form['reason'])) {
    if (strength === 'lenient') return { type: 'string', pattern: CODE_PATTERN };
    const codes = surfaceCodes(registry, form['reason']);
    if (codes.length === 0) return false as unknown as JsonSchema;
    return { enum: codes };
  }
  throw new CodegenError(
    'unknown_placeholder',
    `spec/required-tools.schema.json${at}: unknown placeholder {"x-registry": ${JSON.stringify(form)}}; known forms: "extension", "settings_version", "verdict", "action", "retryable_rules", {"reason": one of ${SURFACE_NAMES.join(', ')}}`,
  );
}

function resolveNode(node: unknown, registry: Registry, strength: Strength, at: string): unknown {
  if (Array.isArray(node)) return node.map((item, i) => resolveNode(item, registry, strength, `${at}/${i}`));
  if (!isObject(node)) return node;
  if (Object.hasOwn(node, PLACEHOLDER_KEY)) {
    const extra = Object.keys(node).filter((k) => k !== PLACEHOLDER_KEY && !ANNOTATION_KEYS.has(k));
    if (extra.length > 0) {
      throw new CodegenError(
        'unknown_placeholder',
        `spec/required-tools.schema.json${at}: a placeholder may only carry annotations beside "x-registry", found ${extra.join(', ')}`,
      );
    }
    const filled = placeholderSchema(node[PLACEHOLDER_KEY], registry, strength, at);
    if (!isObject(filled)) return filled;
    const annotations = Object.fromEntries(Object.entries(node).filter(([k]) => ANNOTATION_KEYS.has(k)));
    return { ...annotations, ...filled };
  }
  return Object.fromEntries(
    Object.entries(node).map(([key, value]) => [key, resolveNode(value, registry, strength, `${at}/${key}`)]),
  );
}

export function schemaId(strength: Strength): string {
  return `https://mcpproxy.app/schemas/required-tools.${strength}.json`;
}

/** The payload schema with every placeholder filled for one strength, under its own $id. */
export function resolvePlaceholders(schema: JsonSchema, registry: Registry, strength: Strength): JsonSchema {
  const resolved = resolveNode(schema, registry, strength, '#') as JsonSchema;
  const { $schema, $id: _id, ...rest } = resolved;
  return { $schema, $id: schemaId(strength), ...rest };
}
