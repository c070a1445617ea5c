// Everything codegen derives from spec/, as a list of files; writing and drift checking both
// start from this one list.
import type { GeneratedFile } from './generated-file.js';
import { emitFixtures } from './emit-fixtures.js';
import { emitOpenApi } from './emit-openapi.js';
import { emitRegistry } from './emit-registry.js';
import { emitResolvedSchema } from './emit-resolved-schema.js';
import { emitTypes } from './emit-types.js';
import { emitValidatorsDts, emitValidatorsJs } from './emit-validators.js';
import type { Spec } from './load-spec.js';
import { buildSchemaSet } from './schema-set.js';

const GENERATED = 'packages/schema/src/generated';

export async function generate(spec: Spec): Promise<GeneratedFile[]> {
  const set = buildSchemaSet(spec);
  return [
    { path: `${GENERATED}/registry.ts`, content: emitRegistry(spec) },
    { path: `${GENERATED}/types.ts`, content: await emitTypes(spec, set) },
    { path: `${GENERATED}/validators.js`, content: emitValidatorsJs(set) },
    { path: `${GENERATED}/validators.d.ts`, content: emitValidatorsDts(set) },
    { path: `${GENERATED}/schema.strict.json`, content: emitResolvedSchema(set, 'strict') },
    { path: `${GENERATED}/schema.lenient.json`, content: emitResolvedSchema(set, 'lenient') },
    { path: 'packages/schema/openapi.json', content: emitOpenApi(spec, set) },
    ...emitFixtures(spec, set),
  ];
}
