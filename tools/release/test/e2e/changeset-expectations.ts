// What `changeset version` must do with the pending changesets, read before it runs: each package
// a changeset names moves by the largest bump named for it and its changelog carries each of
// those changesets' summaries; a package no changeset names stays, or takes a patch when a
// dependency it pins moved (updateInternalDependencies: patch). Read from the changesets
// themselves, so the test states no version by hand.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readChangesets } from '@mcpproxy/codegen/src/changeset-check.js';
import semver from 'semver';
import { expect } from 'vitest';
import { summaryFirstLine } from '../../src/changeset-wording.js';
import { publishablePackages } from '../../src/workspace-packages.js';

const ORDER: readonly semver.ReleaseType[] = ['patch', 'minor', 'major'];

export interface PendingRelease {
  /** The version before, and the bump the changesets ask for (undefined: none names the package). */
  readonly packages: ReadonlyMap<string, { readonly before: string; readonly bump: semver.ReleaseType | undefined }>;
  /** The first line of each changeset summary, per package it names. */
  readonly summaries: ReadonlyMap<string, readonly string[]>;
}

export function pendingRelease(root: string): PendingRelease {
  const changesets = readChangesets(join(root, '.changeset'));
  const packages = new Map<string, { before: string; bump: semver.ReleaseType | undefined }>();
  const summaries = new Map<string, string[]>();
  for (const pkg of publishablePackages(root)) packages.set(pkg.name, { before: pkg.version, bump: undefined });
  for (const changeset of changesets) {
    const summary = summaryFirstLine(changeset);
    for (const [name, bump] of changeset.releases) {
      const entry = packages.get(name);
      if (entry === undefined) continue;
      const asked = bump as semver.ReleaseType;
      if (entry.bump === undefined || ORDER.indexOf(asked) > ORDER.indexOf(entry.bump)) entry.bump = asked;
      summaries.set(name, [...(summaries.get(name) ?? []), summary]);
    }
  }
  return { packages, summaries };
}

/** After `changeset version`: the versions and changelogs the pending release said; returns the versions. */
export function expectVersionedAsSaid(root: string, pending: PendingRelease): Map<string, string> {
  const versions = new Map<string, string>();
  expect([...pending.packages.values()].some((p) => p.bump !== undefined), 'some changeset was pending').toBe(true);
  for (const pkg of publishablePackages(root)) {
    const said = pending.packages.get(pkg.name)!;
    const changelog = readFileSync(join(pkg.dir, 'CHANGELOG.md'), 'utf8');
    if (said.bump === undefined) {
      expect([said.before, semver.inc(said.before, 'patch')], `${pkg.name}: no changeset names it`).toContain(pkg.version);
    } else {
      expect(pkg.version, `${pkg.name}: ${said.before} with a ${said.bump}`).toBe(semver.inc(said.before, said.bump));
      for (const summary of pending.summaries.get(pkg.name) ?? []) expect(changelog, `${pkg.name} CHANGELOG.md`).toContain(summary);
    }
    if (pkg.version !== said.before) expect(changelog, `${pkg.name} CHANGELOG.md`).toContain(`## ${pkg.version}`);
    versions.set(pkg.name, pkg.version);
  }
  return versions;
}
