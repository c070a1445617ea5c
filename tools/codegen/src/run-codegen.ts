// One run: load spec/, run the guards, then check or write the generated files.
import { CodegenError, type CodegenProblem } from './codegen-error.js';
import { driftProblems, findDrift, writeGenerated } from './drift-check.js';
import { generate } from './generate.js';
import { loadSpec } from './load-spec.js';
import { repoPaths } from './repo-paths.js';

export interface CodegenOutcome {
  readonly problems: readonly CodegenProblem[];
  readonly written: readonly string[];
}

export async function runCodegen(root: string, write: boolean): Promise<CodegenOutcome> {
  const paths = repoPaths(root);
  try {
    const spec = loadSpec(paths);
    const files = await generate(spec);
    if (write) return { problems: [], written: writeGenerated(paths.root, files).map((d) => d.path) };
    return { problems: driftProblems(findDrift(paths.root, files)), written: [] };
  } catch (error) {
    if (error instanceof CodegenError) return { problems: [{ code: error.code, message: error.message }], written: [] };
    throw error;
  }
}
