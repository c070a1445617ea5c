// The registry has no uplinks, so the third-party packages our packages depend on (ajv and
// friends) must be in it before a consumer can install anything. They are taken from this
// workspace's own install, at exactly the versions the lockfile resolved, packed again and
// published with the registry's publish API (PUT /<name>), as a mirror would.
import { createHash } from 'node:crypto';
import { existsSync, realpathSync } from 'node:fs';
import { request } from 'node:http';
import { basename, dirname, join } from 'node:path';
import { dependencyRanges, readManifest, type PackageManifest } from '../../src/workspace-packages.js';
import { packInstalledPackage } from './installed-tarball.js';

export interface InstalledPackage {
  readonly name: string;
  readonly version: string;
  readonly dir: string;
}

/** Node's lookup: <ancestor>/node_modules/<name> for every ancestor that is not itself a node_modules. */
function locate(name: string, fromDir: string): string | undefined {
  let dir = fromDir;
  for (;;) {
    if (basename(dir) !== 'node_modules') {
      const candidate = join(dir, 'node_modules', name);
      if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function requiredDependencies(manifest: PackageManifest): Map<string, { range: string; optional: boolean }> {
  const optionalPeers = new Set(Object.entries((manifest['peerDependenciesMeta'] ?? {}) as Record<string, { optional?: boolean }>)
    .filter(([, meta]) => meta.optional === true)
    .map(([name]) => name));
  const deps = new Map<string, { range: string; optional: boolean }>();
  for (const [name, range] of dependencyRanges(manifest, ['dependencies'])) deps.set(name, { range, optional: false });
  for (const [name, range] of dependencyRanges(manifest, ['optionalDependencies'])) deps.set(name, { range, optional: true });
  for (const [name, range] of dependencyRanges(manifest, ['peerDependencies'])) {
    if (!deps.has(name)) deps.set(name, { range, optional: optionalPeers.has(name) });
  }
  return deps;
}

/**
 * The installed third-party packages a set of our packages needs at run time, transitively.
 * `ours` are skipped: they come from the release itself.
 */
export function runtimeClosure(roots: readonly { readonly dir: string; readonly manifest: PackageManifest }[], ours: ReadonlySet<string>): InstalledPackage[] {
  const found = new Map<string, InstalledPackage>();
  const queue = roots.map((r) => ({ dir: r.dir, manifest: r.manifest }));
  while (queue.length > 0) {
    const next = queue.shift()!;
    for (const [name, { optional }] of requiredDependencies(next.manifest)) {
      if (ours.has(name)) continue;
      const dir = locate(name, next.dir);
      if (dir === undefined) {
        if (optional) continue;
        throw new Error(`${next.manifest.name} needs ${name}, which is not installed in the workspace: run pnpm install`);
      }
      const manifest = readManifest(join(dir, 'package.json'));
      const key = `${manifest.name}@${manifest.version}`;
      if (found.has(key)) continue;
      found.set(key, { name: manifest.name, version: manifest.version, dir });
      queue.push({ dir, manifest });
    }
  }
  return [...found.values()].sort((a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version, undefined, { numeric: true }));
}

/** The registry's publish call for one tarball, as npm makes it. */
export async function putTarball(registry: string, data: Buffer, manifest: PackageManifest): Promise<void> {
  const { name, version } = manifest;
  const file = `${name.replace(/^@[^/]+\//, '')}-${version}.tgz`;
  const body = {
    _id: name,
    name,
    'dist-tags': { latest: version },
    versions: {
      [version]: {
        ...manifest,
        _id: `${name}@${version}`,
        dist: {
          shasum: createHash('sha1').update(data).digest('hex'),
          integrity: `sha512-${createHash('sha512').update(data).digest('base64')}`,
          tarball: `${registry}/${name}/-/${file}`,
        },
      },
    },
    _attachments: { [`${name}-${version}.tgz`]: { content_type: 'application/octet-stream', data: data.toString('base64'), length: data.length } },
  };
  const answer = await putOnFreshConnection(`${registry}/${name.replace('/', '%2f')}`, JSON.stringify(body));
  if (answer.status < 200 || answer.status > 299) throw new Error(`PUT ${name}@${version} answered ${answer.status}: ${answer.text}`);
}

/**
 * One PUT on a connection of its own. Packing a large package blocks this process for seconds on a
 * loaded machine, longer than the registry keeps an idle connection: fetch then wrote the next
 * publish onto a socket the registry had already closed ("other side closed").
 */
function putOnFreshConnection(url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const put = request(url, { method: 'PUT', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
    put.on('error', reject);
    put.end(body);
  });
}

export async function seedRegistry(registry: string, packages: readonly InstalledPackage[]): Promise<void> {
  for (const pkg of packages) {
    const manifest = readManifest(join(pkg.dir, 'package.json'));
    await putTarball(registry, packInstalledPackage(pkg.dir, manifest), manifest);
  }
}
