// The dependency ranges of a packed manifest, as a consumer's installer will read them:
// workspace links resolved to real ranges, internal ranges that accept the versions being
// released alongside, and the ranges that must not float kept inside their major.
import semver from 'semver';
import type { ReleaseProblem } from './release-problem.js';
import { dependencyRanges, type PackageManifest, type WorkspacePackage } from './workspace-packages.js';

const LOCAL_PROTOCOL = /^(workspace|link|file|portal|catalog):/;

export function dependencyRangeProblems(
  manifest: PackageManifest,
  workspace: readonly WorkspacePackage[],
  pinned: Readonly<Record<string, string>>,
): ReleaseProblem[] {
  const subject = manifest.name;
  const versions = new Map(workspace.map((p) => [p.name, p.version]));
  const problems: ReleaseProblem[] = [];
  for (const [name, range] of dependencyRanges(manifest)) {
    if (LOCAL_PROTOCOL.test(range)) {
      problems.push({ code: 'workspace_range', subject, message: `dependency ${name} is published as "${range}", which no registry can resolve` });
      continue;
    }
    const internal = versions.get(name);
    if (internal !== undefined && !semver.satisfies(internal, range)) {
      problems.push({
        code: 'internal_range_stale',
        subject,
        message: `dependency ${name} is published as "${range}", which does not accept ${name}@${internal} released with it`,
      });
    }
    const limit = pinned[name];
    if (limit !== undefined && (semver.validRange(range) === null || !semver.subset(range, limit))) {
      problems.push({ code: 'range_floats', subject, message: `dependency ${name} is published as "${range}"; it must stay within "${limit}"` });
    }
  }
  return problems;
}
