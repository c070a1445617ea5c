// What the registry serves for one published version: its packument entry and the package.json
// inside the tarball a consumer downloads.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tarballEntries, tarballManifest } from '../../src/tarball-entries.js';
import type { PackageManifest } from '../../src/workspace-packages.js';

export async function publishedVersions(registry: string, name: string): Promise<string[]> {
  const response = await fetch(`${registry}/${name.replace('/', '%2f')}`);
  if (response.status === 404) return [];
  const packument = (await response.json()) as { versions?: Record<string, unknown> };
  return Object.keys(packument.versions ?? {});
}

export async function publishedManifest(registry: string, name: string, version: string, workDir: string): Promise<PackageManifest> {
  const response = await fetch(`${registry}/${name.replace('/', '%2f')}/${version}`);
  if (!response.ok) throw new Error(`${name}@${version} is not in the registry (${response.status})`);
  const entry = (await response.json()) as { dist: { tarball: string } };
  const tarball = await fetch(entry.dist.tarball);
  const file = join(mkdtempSync(join(workDir, 'download-')), 'package.tgz');
  writeFileSync(file, Buffer.from(await tarball.arrayBuffer()));
  return tarballManifest(tarballEntries(file)) as PackageManifest;
}
