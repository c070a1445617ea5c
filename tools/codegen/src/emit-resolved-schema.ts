// packages/schema/src/generated/schema.<strength>.json: the payload schema with the registry
// filled in, for consumers that validate with their own JSON Schema tooling.
import { jsonBanner } from './generated-banner.js';
import type { Strength } from './resolve-placeholders.js';
import { jsonText } from './render-source.js';
import type { SchemaSet } from './schema-set.js';

export function emitResolvedSchema(set: SchemaSet, strength: Strength): string {
  const { $schema, $id, ...rest } = set.resolved[strength];
  return jsonText({ $schema, $id, $comment: jsonBanner('spec/required-tools.schema.json, spec/reasons.json'), ...rest });
}
