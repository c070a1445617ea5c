// The registry rule at release time. Codegen's own check already covers @mcpproxy/schema
// (drift, compatibility, and a pending minor changeset that names the added or deprecated
// codes); this adds the rest of the rule: every other published package that holds generated
// content needs at least a minor changeset for a settings version that has not shipped.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { changesetProblems, readChangesets, SCHEMA_PACKAGE } from '@mcpproxy/codegen/src/changeset-check.js';
import { packagesWithGeneratedContent } from '@mcpproxy/codegen/src/generated-content.js';
import { loadSpec } from '@mcpproxy/codegen/src/load-spec.js';
import { repoPaths } from '@mcpproxy/codegen/src/repo-paths.js';
import { runCodegen } from '@mcpproxy/codegen/src/run-codegen.js';
import type { ReleaseProblem } from './release-problem.js';
import type { WorkspacePackage } from './workspace-packages.js';

export { packagesWithGeneratedContent };

/**
 * Whether the current settings version still awaits its first release. Codegen decides that
 * from the files (the schema CHANGELOG); asking its check with no pending changesets at all
 * tells exactly that without restating its rule here.
 */
export function settingsVersionUnshipped(root: string): boolean {
  const paths = repoPaths(root);
  const spec = loadSpec(paths);
  const withoutChangesets = { ...paths, changesets: join(paths.root, '.changeset', '.none') };
  return changesetProblems(withoutChangesets, spec.registry, spec.released).length > 0;
}

export async function registryRuleProblems(root: string, packages: readonly WorkspacePackage[]): Promise<ReleaseProblem[]> {
  const codegen = await runCodegen(root, false);
  const problems: ReleaseProblem[] = codegen.problems.map((p) => ({ code: 'codegen', subject: `codegen ${p.code}`, message: p.message }));
  if (codegen.problems.some((p) => p.code.startsWith('spec_'))) return problems;
  if (!settingsVersionUnshipped(root)) return problems;
  const version = loadSpec(repoPaths(root)).registry.settings_version;
  const changesets = readChangesets(join(root, '.changeset'));
  for (const [name, file] of packagesWithGeneratedContent(packages)) {
    if (name === SCHEMA_PACKAGE) continue;
    const covered = changesets.some((c) => {
      const bump = c.releases.get(name);
      return bump === 'minor' || bump === 'major';
    });
    if (!covered) {
      problems.push({
        code: 'generated_changeset_missing',
        subject: name,
        message:
          `settings version ${version} has not shipped and ${name} holds generated content (${file}): ` +
          `add "${name}": minor to the changeset that announces settings version ${version}`,
      });
    }
  }
  return problems;
}

export function pendingChangesets(root: string): string[] {
  const dir = join(root, '.changeset');
  return existsSync(dir) ? readChangesets(dir).map((c) => c.file) : [];
}
