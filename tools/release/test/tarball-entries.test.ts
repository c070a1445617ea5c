// The tarball reader against pnpm's own writer (what the release inspects) and against the
// e2e test's writer (what the registry seed publishes), long paths included.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packPackage } from '../src/pack-package.js';
import { defaultRoot } from '../src/release-options.js';
import { tarballEntries, tarballManifest } from '../src/tarball-entries.js';
import type { PackageManifest } from '../src/workspace-packages.js';
import { packInstalledPackage, publishedPath } from './e2e/installed-tarball.js';
import { createFixtureRoot, goodManifest, GOOD_FILES, type FixtureRoot } from './package-fixtures.js';

const LONG_DIR = `dist/${'nested-directory/'.repeat(8)}`;
const VERY_LONG = `dist/${'a-rather-long-directory-name-for-pax/'.repeat(9)}leaf.js`;

describe('tarballEntries', () => {
  let fixture: FixtureRoot | undefined;
  afterEach(() => fixture?.dispose());

  it('reads what pnpm pack wrote: the files "files" allows, package/ stripped, manifest with real ranges', async () => {
    fixture = createFixtureRoot();
    const pkg = fixture.writePackage('pkg', goodManifest('@fixture/read', { dependencies: { ajv: '8.20.0' } }), {
      ...GOOD_FILES,
      [`${LONG_DIR}deep.js`]: 'export {};\n',
      'test/ignored.test.js': 'not published\n',
    });
    const packed = await packPackage(defaultRoot(), pkg, mkdtempSync(join(fixture.root, 'out-')));
    expect(packed.ok).toBe(true);
    if (!packed.ok) return;
    const entries = tarballEntries(packed.tarball);
    expect([...entries.keys()].sort()).toEqual(['LICENSE', 'README.md', 'dist/index.d.ts', 'dist/index.js', `${LONG_DIR}deep.js`, 'package.json'].sort());
    expect(entries.get('dist/index.js')?.toString()).toBe(GOOD_FILES['dist/index.js']);
    expect(tarballManifest(entries)).toMatchObject({ name: '@fixture/read', dependencies: { ajv: '8.20.0' } });
  });

  it('round-trips the seed writer, ustar prefixes and pax paths included, leaving out what "files" does not list', () => {
    fixture = createFixtureRoot();
    const manifest = goodManifest('@fixture/seed') as PackageManifest;
    fixture.writePackage('installed', manifest, { ...GOOD_FILES, [`${LONG_DIR}deep.js`]: 'deep\n', [VERY_LONG]: 'very\n', 'build/Release/addon.node': 'built here\n' });
    const file = join(fixture.root, 'seed.tgz');
    writeFileSync(file, packInstalledPackage(join(fixture.root, 'installed'), manifest));
    const entries = tarballEntries(file);
    expect(entries.get(`${LONG_DIR}deep.js`)?.toString()).toBe('deep\n');
    expect(entries.get(VERY_LONG)?.toString()).toBe('very\n');
    expect(entries.has('build/Release/addon.node')).toBe(false);
    expect(tarballManifest(entries)).toEqual(manifest);
  });

  it('publishes everything but node_modules when there is no "files" list', () => {
    const manifest = { name: 'x', version: '1.0.0' };
    expect(publishedPath(manifest, 'build/Release/addon.node')).toBe(true);
    expect(publishedPath(manifest, 'node_modules/dep/index.js')).toBe(false);
    expect(publishedPath({ ...manifest, files: ['lib/**', 'src/*.[ch]', '*.gyp'] }, 'src/x.c')).toBe(true);
    expect(publishedPath({ ...manifest, files: ['lib/**', '*.gyp'] }, 'binding.gyp')).toBe(true);
    expect(publishedPath({ ...manifest, files: ['lib/**'] }, 'build/x.node')).toBe(false);
    expect(publishedPath({ ...manifest, files: ['lib/**'] }, 'LICENSE')).toBe(true);
    // npm packs `main` and `bin` targets even when "files" leaves them out (cross-spawn: files ["lib"], main index.js).
    expect(publishedPath({ ...manifest, files: ['lib'], main: 'index.js' }, 'index.js')).toBe(true);
    expect(publishedPath({ ...manifest, files: ['lib'], main: './index.js' }, 'index.js')).toBe(true);
    expect(publishedPath({ ...manifest, files: ['lib'], bin: { tool: './cli.js' } }, 'cli.js')).toBe(true);
    expect(publishedPath({ ...manifest, files: ['lib'], main: 'index.js' }, 'other.js')).toBe(false);
  });
});
