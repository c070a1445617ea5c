// The packages a release covers: every non-private package under packages/, found on disk so a
// new package joins the release (checks, publish, end-to-end test) without being listed anywhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type DependencyField = 'dependencies' | 'peerDependencies' | 'optionalDependencies' | 'devDependencies';

export const RUNTIME_DEPENDENCY_FIELDS: readonly DependencyField[] = ['dependencies', 'peerDependencies', 'optionalDependencies'];

export interface PackageManifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly [field: string]: unknown;
}

export interface WorkspacePackage {
  readonly name: string;
  readonly version: string;
  /** Absolute directory of the package. */
  readonly dir: string;
  readonly manifest: PackageManifest;
}

export function readManifest(file: string): PackageManifest {
  return JSON.parse(readFileSync(file, 'utf8')) as PackageManifest;
}

export function dependencyRanges(manifest: PackageManifest, fields: readonly DependencyField[] = RUNTIME_DEPENDENCY_FIELDS): Map<string, string> {
  const ranges = new Map<string, string>();
  for (const field of fields) {
    const block = manifest[field];
    if (typeof block !== 'object' || block === null) continue;
    for (const [name, range] of Object.entries(block)) if (typeof range === 'string') ranges.set(name, range);
  }
  return ranges;
}

/** Dependencies first, so building and publishing in this order never meets a missing package. */
function topological(packages: readonly WorkspacePackage[]): WorkspacePackage[] {
  const byName = new Map(packages.map((p) => [p.name, p]));
  const ordered: WorkspacePackage[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (pkg: WorkspacePackage, path: readonly string[]): void => {
    const seen = state.get(pkg.name);
    if (seen === 'done') return;
    if (seen === 'visiting') throw new Error(`workspace dependency cycle: ${[...path, pkg.name].join(' -> ')}`);
    state.set(pkg.name, 'visiting');
    for (const dep of dependencyRanges(pkg.manifest).keys()) {
      const internal = byName.get(dep);
      if (internal !== undefined) visit(internal, [...path, pkg.name]);
    }
    state.set(pkg.name, 'done');
    ordered.push(pkg);
  };
  for (const pkg of [...packages].sort((a, b) => a.name.localeCompare(b.name))) visit(pkg, []);
  return ordered;
}

/** Every package under <root>/packages/*, private ones included. */
export function workspacePackages(root: string): WorkspacePackage[] {
  const base = join(root, 'packages');
  if (!existsSync(base)) return [];
  const found = readdirSync(base, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(base, entry.name, 'package.json')))
    .map((entry) => {
      const dir = join(base, entry.name);
      const manifest = readManifest(join(dir, 'package.json'));
      return { name: manifest.name, version: manifest.version, dir, manifest };
    });
  return topological(found);
}

/** The packages a release publishes, dependencies first. */
export function publishablePackages(root: string): WorkspacePackage[] {
  return workspacePackages(root).filter((pkg) => pkg.manifest.private !== true);
}
