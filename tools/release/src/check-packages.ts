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
  const packed = await packPackage(root, pkg, workDir);
  if (!packed.ok) return [{ code: 'pack_failed', subject: pkg.name, message: packed.message }];
  const entries = tarballEntries(packed.tarball);
  const manifest = tarballManifest(entries) as PackageManifest;
  return [
    ...tarballProblems(manifest, [...entries.keys()]),
    ...dependencyRangeProblems(manifest, workspace, PINNED_RANGES),
    ...(await publintProblems(pkg.name, packed.tarball)),
    ...(await attwProblems(pkg.name, packed.tarball, workDir)),
  ];
}

export async function checkPackages(root: string, packages: readonly WorkspacePackage[]): Promise<ReleaseProblem[]> {
  const workDir = mkdtempSync(join(tmpdir(), 'mcpproxy-release-check-'));
  try {
    // Two at a time (these machines have two cores); problems keep the packages' order.
    const results: ReleaseProblem[][] = new Array<ReleaseProblem[]>(packages.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < packages.length; i = next++) results[i] = await checkPackage(root, packages[i]!, packages, workDir);
    };
    await Promise.all([worker(), worker()]);
    return results.flat();
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
