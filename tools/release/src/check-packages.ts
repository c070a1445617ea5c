// Packs every package and checks the tarball a consumer would get: contents, manifest fields,
// dependency ranges, publint and attw. Problems of all packages are collected, not the first.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attwProblems } from './attw-check.js';
import { dependencyRangeProblems } from './dependency-ranges.js';
import { packPackage } from './pack-package.js';
import { PINNED_RANGES } from './pinned-ranges.js';
import { publintProblems } from './publint-check.js';
import type { ReleaseProblem } from './release-problem.js';
import { tarballEntries, tarballManifest } from './tarball-entries.js';
import { tarballProblems } from './tarball-rules.js';
import type { PackageManifest, WorkspacePackage } from './workspace-packages.js';

export async function checkPackage(root: string, pkg: WorkspacePackage, workspace: readonly WorkspacePackage[], workDir: string): Promise<ReleaseProblem[]> {
  const packed = packPackage(root, pkg, workDir);
  if (!packed.ok) return [{ code: 'pack_failed', subject: pkg.name, message: packed.message }];
  const entries = tarballEntries(packed.tarball);
  const manifest = tarballManifest(entries) as PackageManifest;
  return [
    ...tarballProblems(manifest, [...entries.keys()]),
    ...dependencyRangeProblems(manifest, workspace, PINNED_RANGES),
    ...(await publintProblems(pkg.name, packed.tarball)),
    ...attwProblems(pkg.name, packed.tarball, workDir),
  ];
}

export async function checkPackages(root: string, packages: readonly WorkspacePackage[]): Promise<ReleaseProblem[]> {
  const workDir = mkdtempSync(join(tmpdir(), 'mcpproxy-release-check-'));
  try {
    const problems: ReleaseProblem[] = [];
    for (const pkg of packages) problems.push(...(await checkPackage(root, pkg, packages, workDir)));
    return problems;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
