import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dependencyRangeProblems } from '../src/dependency-ranges.js';
import { PINNED_RANGES } from '../src/pinned-ranges.js';
import type { PackageManifest, WorkspacePackage } from '../src/workspace-packages.js';

const workspace: WorkspacePackage[] = [
  { name: '@x/schema', version: '0.2.0', dir: '/nowhere', manifest: { name: '@x/schema', version: '0.2.0' } },
];

function manifest(dependencies: Record<string, string>, field = 'dependencies'): PackageManifest {
  return { name: '@x/app', version: '1.0.0', [field]: dependencies };
}

const codes = (m: PackageManifest): string[] => dependencyRangeProblems(m, workspace, PINNED_RANGES).map((p) => p.code);

describe('dependencyRangeProblems', () => {
  it('accepts real ranges that take the internal versions released alongside', () => {
    expect(codes(manifest({ '@x/schema': '^0.2.0', ajv: '8.20.0' }))).toEqual([]);
  });

  it('rejects workspace, link and file ranges in every runtime field', () => {
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
      expect(codes(manifest({ '@x/schema': 'workspace:^' }, field))).toEqual(['workspace_range']);
      expect(codes(manifest({ other: 'file:../other' }, field))).toEqual(['workspace_range']);
    }
    expect(codes(manifest({ '@x/schema': 'workspace:^' }, 'devDependencies'))).toEqual([]);
  });

  it('rejects an internal range that does not accept the version released with it', () => {
    expect(codes(manifest({ '@x/schema': '^0.1.0' }))).toEqual(['internal_range_stale']);
  });

  it('keeps better-sqlite3 inside major 12 (exact, tilde and caret of 12 pass; anything reaching 13 fails)', () => {
    for (const ok of ['12.6.2', '~12', '~12.6.2', '^12.0.0', '12.x']) expect(codes(manifest({ 'better-sqlite3': ok })), ok).toEqual([]);
    for (const bad of ['*', '>=12', '^11 || ^12 || ^13', '13.0.0', 'latest', '']) {
      expect(codes(manifest({ 'better-sqlite3': bad })), bad).toEqual(['range_floats']);
    }
  });

  it('flags every range of better-sqlite3 that admits a version outside 12.x', () => {
    fc.assert(
      fc.property(fc.nat(20), fc.nat(20), fc.nat(20), fc.constantFrom('', '^', '~', '>='), (major, minor, patch, op) => {
        const range = `${op}${major}.${minor}.${patch}`;
        const floats = major !== 12 || op === '>=';
        expect(codes(manifest({ 'better-sqlite3': range })).includes('range_floats')).toBe(floats);
      }),
    );
  });
});
