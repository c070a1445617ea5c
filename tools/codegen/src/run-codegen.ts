// One run: load spec/, run the guards, then check or write the generated files.
import { changesetProblems } from './changeset-check.js';
import { CodegenError, type CodegenProblem } from './codegen-error.js';
import { compatProblems, releasedChainProblems } from './compat-check.js';
import { driftProblems, findDrift, writeGenerated } from './drift-check.js';
import { generate } from './generate.js';
import { loadSpec } from './load-spec.js';
import { registryConsistency } from './registry-consistency.js';
import { repoPaths } from './repo-paths.js';
import { schemaConsistency } from './schema-consistency.js';

export interface CodegenOutcome {
  readonly problems: readonly CodegenProblem[];
  readonly written: readonly string[];
}

/**
 * Guards report problems but never stop generation: with --write the files are still brought
 * in line with spec/, and the run fails until the guards pass too.
 */
export async function runCodegen(root: string, write: boolean): Promise<CodegenOutcome> {
  const paths = repoPaths(root);
  try {
    const spec = loadSpec(paths);
    const guards = [
      ...registryConsistency(spec.registry),
      ...spec.released.flatMap((r) => registryConsistency(r.registry, `spec/released/v${r.version}.json`)),
      ...schemaConsistency(spec.payloadSchema),
      ...releasedChainProblems(spec.released),
      ...compatProblems(spec.registry, spec.released),
      ...changesetProblems(paths, spec.registry, spec.released),
    ];
    const files = await generate(spec);
    if (write) return { problems: guards, written: writeGenerated(paths.root, files).map((d) => d.path) };
    return { problems: [...guards, ...driftProblems(findDrift(paths.root, files))], written: [] };
  } catch (error) {
    if (error instanceof CodegenError) return { problems: [{ code: error.code, message: error.message }], written: [] };
    throw error;
  }
}
