// Whether the installed tree holds what an older commit's lockfile resolved, so that a copy of that
// commit can reuse this node_modules. Packages must match exactly. Snapshots (a package with its
// resolved peers) match when the installed one is the same package at the same version with every
// peer the commit resolved, at least: pnpm 11 and later fill an optional peer from anywhere in the
// workspace, so adding a dependency (say one that brings @opentelemetry/api) adds peer suffixes to
// packages whose own resolution did not change (vitest@4.1.12(...) gains (@opentelemetry/api@1.10.0)).
// The package the commit's code loads is the same one; it only sees an optional peer it may use.

/** A snapshot key, `name@version(peer)(peer)...`, split into the package and its top-level peer keys. */
export function splitSnapshot(key: string): { readonly pkg: string; readonly peers: readonly string[] } {
  const open = key.indexOf('(', key.startsWith('@') ? 1 : 0);
  if (open < 0) return { pkg: key, peers: [] };
  const peers: string[] = [];
  let depth = 0;
  let start = open;
  for (let i = open; i < key.length; i += 1) {
    if (key[i] === '(') {
      if (depth === 0) start = i;
      depth += 1;
    } else if (key[i] === ')') {
      depth -= 1;
      if (depth === 0) peers.push(key.slice(start + 1, i));
    }
  }
  return { pkg: key.slice(0, open), peers };
}

/** `installed` serves where `wanted` was resolved: the same package, each wanted peer served in turn. */
export function covers(installed: string, wanted: string): boolean {
  if (installed === wanted) return true;
  const have = splitSnapshot(installed);
  const want = splitSnapshot(wanted);
  return have.pkg === want.pkg && want.peers.every((peer) => have.peers.some((candidate) => covers(candidate, peer)));
}

/** The `packages:` and `snapshots:` keys of a pnpm lockfile (v9 format), unquoted. */
export function lockfileKeys(lockfile: string): { readonly packages: ReadonlySet<string>; readonly snapshots: ReadonlySet<string> } {
  const packages = new Set<string>();
  const snapshots = new Set<string>();
  let section = '';
  for (const line of lockfile.split('\n')) {
    if (/^\S/.test(line)) section = line;
    else if (/^ {2}\S.*:$/.test(line) && (section === 'packages:' || section === 'snapshots:')) {
      const key = line.trim().slice(0, -1).replace(/^'(.*)'$/, '$1');
      (section === 'packages:' ? packages : snapshots).add(key);
    }
  }
  return { packages, snapshots };
}

/** What the commit's lockfile resolves that the installed one does not serve, as `section key` lines. */
export function unservedKeys(commitLockfile: string, installedLockfile: string): string[] {
  const wanted = lockfileKeys(commitLockfile);
  const have = lockfileKeys(installedLockfile);
  const byPackage = new Map<string, string[]>();
  for (const key of have.snapshots) {
    const pkg = splitSnapshot(key).pkg;
    byPackage.set(pkg, [...(byPackage.get(pkg) ?? []), key]);
  }
  return [
    ...[...wanted.packages].filter((key) => !have.packages.has(key)).map((key) => `packages: ${key}`),
    ...[...wanted.snapshots].filter((key) => !(byPackage.get(splitSnapshot(key).pkg) ?? []).some((candidate) => covers(candidate, key))).map((key) => `snapshots: ${key}`),
  ];
}
