// Caps that the payload schema states once (maxItems) and the registry module re-exports,
// so the number is never typed twice.
import { CodegenError } from './codegen-error.js';
import type { JsonSchema } from './load-spec.js';

function toolsMaxItems(schema: JsonSchema, def: string): number {
  const defs = schema['$defs'] as Record<string, JsonSchema> | undefined;
  const properties = defs?.[def]?.['properties'] as Record<string, JsonSchema> | undefined;
  const max = properties?.['tools']?.['maxItems'];
  if (typeof max !== 'number') {
    throw new CodegenError('spec_invalid', `spec/required-tools.schema.json: $defs.${def}.properties.tools.maxItems must be a number`);
  }
  return max;
}

export interface SchemaLimits {
  /** Rider and check-mode cap. */
  readonly maxTools: number;
  /** REST preflight cap. */
  readonly restMaxTools: number;
}

export function schemaLimits(payloadSchema: JsonSchema): SchemaLimits {
  return {
    maxTools: toolsMaxItems(payloadSchema, 'RequestRider'),
    restMaxTools: toolsMaxItems(payloadSchema, 'RestPreflightRequest'),
  };
}
