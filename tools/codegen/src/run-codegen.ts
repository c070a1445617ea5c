// One run: load spec/, run the guards, then check or write the generated files.
import { changesetProblems } from './changeset-check.js';
import { CodegenError, type CodegenProblem } from './codegen-error.js';
import { compatProblems, releasedChainProblems } from './compat-check.js';
import { driftProblems, findDrift, writeGenerated } from './drift-check.js';
import { generate } from './generate.js';
import type { GeneratedFile } from './generated-file.js';
import { loadSpec, type Spec } from './load-spec.js';
import { releasedBaselineCheck, type BaselineCheck } from './released-baseline.js';
import { registryConsistency } from './registry-consistency.js';
import { repoPaths, type RepoPaths } from './repo-paths.js';
import { schemaConsistency } from './schema-consistency.js';

export interface CodegenOutcome {
  readonly problems: readonly CodegenProblem[];
  /** What a guard could not verify here (a shallow clone's history); printed, never a failure. */
  readonly notes: readonly CodegenProblem[];
  readonly written: readonly string[];
}

/**
 * Every guard, in one list. When the registry changes codes without a new settings version,
 * the version-bound checks (since/deprecated_in/activated_in within settings_version, the
 * changeset that announces the version) are judged as if the bump were done: the bump hint
 * already says to make it, and a hint it makes moot would only contradict it.
 */
function guardProblems(paths: RepoPaths, spec: Spec, baseline: BaselineCheck): CodegenProblem[] {
  const compat = compatProblems(spec.registry, spec.released);
  const bumpNeeded = compat.some((p) => p.code === 'version_bump_needed');
  const asBumped = bumpNeeded ? { ...spec.registry, settings_version: spec.registry.settings_version + 1 } : spec.registry;
  return [
    ...registryConsistency(asBumped),
    ...spec.released.flatMap((r) => registryConsistency(r.registry, `spec/released/v${r.version}.json`)),
    ...schemaConsistency(spec.payloadSchema),
    ...releasedChainProblems(spec.released),
    ...baseline.problems,
    ...compat,
    ...changesetProblems(paths, asBumped, spec.released),
  ];
}

async function generateOrProblem(spec: Spec): Promise<GeneratedFile[] | CodegenProblem> {
  try {
    return await generate(spec);
  } catch (error) {
    if (error instanceof CodegenError) return { code: error.code, message: error.message };
    throw error;
  }
}

/**
 * Guards report problems but never stop generation: with --write the files are still brought
 * in line with spec/, and the run fails until the guards pass too. A generation that fails
 * adds its error to the guards' problems instead of replacing them: the guard usually says
 * the cause more plainly than the emitter does.
 */
export async function runCodegen(root: string, write: boolean): Promise<CodegenOutcome> {
  const paths = repoPaths(root);
  let spec: Spec;
  try {
    spec = loadSpec(paths);
  } catch (error) {
    if (error instanceof CodegenError) return { problems: [{ code: error.code, message: error.message }], notes: [], written: [] };
    throw error;
  }
  const baseline = releasedBaselineCheck(paths, spec.released);
  const notes = baseline.notes;
  const guards = guardProblems(paths, spec, baseline);
  const files = await generateOrProblem(spec);
  if (!Array.isArray(files)) return { problems: [...guards, files], notes, written: [] };
  if (write) return { problems: guards, notes, written: writeGenerated(paths.root, files).map((d) => d.path) };
  return { problems: [...guards, ...driftProblems(findDrift(paths.root, files))], notes, written: [] };
}
