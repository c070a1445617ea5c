// Everything codegen derives from spec/, as a list of files; writing and drift checking both
// start from this one list.
import type { GeneratedFile } from './generated-file.js';
import { emitRegistry } from './emit-registry.js';
import type { Spec } from './load-spec.js';

const GENERATED = 'packages/schema/src/generated';

export function generate(spec: Spec): GeneratedFile[] {
  return [{ path: `${GENERATED}/registry.ts`, content: emitRegistry(spec) }];
}
