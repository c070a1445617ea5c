// The schemas codegen compiles: the payload schema resolved in each strength, and the gateway
// config schema when spec/config.schema.json exists. Each def is addressed by its $defs name.
import { CodegenError } from './codegen-error.js';
import type { JsonSchema, Spec } from './load-spec.js';
import { resolvePlaceholders, STRENGTHS, type Strength } from './resolve-placeholders.js';

export interface SchemaSet {
  readonly resolved: Readonly<Record<Strength, JsonSchema>>;
  readonly config: JsonSchema | undefined;
  /** Names of the payload $defs, in schema order. */
  readonly payloadDefs: readonly string[];
  /** Names of the config $defs, in schema order (empty without a config schema). */
  readonly configDefs: readonly string[];
}

export function defNames(schema: JsonSchema | undefined): string[] {
  const defs = schema?.['$defs'];
  return typeof defs === 'object' && defs !== null ? Object.keys(defs) : [];
}

export function schemaIdOf(schema: JsonSchema, file: string): string {
  const id = schema['$id'];
  if (typeof id !== 'string') throw new CodegenError('spec_invalid', `${file} needs an $id`);
  return id;
}

export function buildSchemaSet(spec: Spec): SchemaSet {
  const resolved = Object.fromEntries(
    STRENGTHS.map((s) => [s, resolvePlaceholders(spec.payloadSchema, spec.registry, s)]),
  ) as Record<Strength, JsonSchema>;
  const payloadDefs = defNames(spec.payloadSchema);
  const configDefs = defNames(spec.configSchema);
  const clash = configDefs.filter((name) => payloadDefs.includes(name));
  if (clash.length > 0) {
    throw new CodegenError('spec_invalid', `spec/config.schema.json reuses $defs names of the payload schema: ${clash.join(', ')}`);
  }
  return { resolved, config: spec.configSchema, payloadDefs, configDefs };
}
