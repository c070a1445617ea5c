// `pnpm release:check`: everything that must hold before anything is published.
import { pendingChangesetWordingProblems } from './changeset-wording.js';
import { checkPackages } from './check-packages.js';
import { registryRuleProblems } from './registry-rule.js';
import type { ReleaseProblem } from './release-problem.js';
import type { WorkspacePackage } from './workspace-packages.js';

export async function releaseCheck(root: string, packages: readonly WorkspacePackage[]): Promise<ReleaseProblem[]> {
  return [
    ...(await registryRuleProblems(root, packages)),
    ...pendingChangesetWordingProblems(root),
    ...(await checkPackages(root, packages)),
  ];
}
