import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tarballProblems } from '../src/tarball-rules.js';
import type { PackageManifest } from '../src/workspace-packages.js';
import { goodManifest, GOOD_FILES } from './package-fixtures.js';

const GOOD = goodManifest() as PackageManifest;
const GOOD_PATHS = ['package.json', ...Object.keys(GOOD_FILES)];

describe('tarballProblems', () => {
  it('accepts a complete package', () => {
    expect(tarballProblems(GOOD, GOOD_PATHS)).toEqual([]);
  });

  it('requires a README and a LICENSE at the top of the tarball', () => {
    expect(tarballProblems(GOOD, GOOD_PATHS.filter((p) => p !== 'README.md')).map((p) => p.code)).toEqual(['readme_missing']);
    expect(tarballProblems(GOOD, GOOD_PATHS.filter((p) => p !== 'LICENSE')).map((p) => p.code)).toEqual(['license_missing']);
    expect(tarballProblems(GOOD, ['package.json', 'dist/README.md', 'dist/LICENSE']).map((p) => p.code)).toEqual(['readme_missing', 'license_missing']);
  });

  it.each([
    'test/index.test.js',
    'dist/index.test.js',
    'dist/types.test-d.ts',
    'src/index.ts',
    'dist/cli.mts',
    'tsconfig.json',
    'tsconfig.build.json',
    'vitest.config.ts',
    'bench/run.js',
    'scratch-c2/notes.js',
    'dist/tsconfig.build.tsbuildinfo',
    '.npmrc',
  ])('flags %s as a development leftover', (path) => {
    expect(tarballProblems(GOOD, [...GOOD_PATHS, path]).map((p) => p.code)).toEqual(['leftover_file']);
  });

  it('never flags compiled output, declarations, maps or JSON data', () => {
    const segment = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/).filter((s) => !/^(test|tests|bench|benchmarks|coverage|scratch)/.test(s));
    fc.assert(
      fc.property(fc.array(segment, { minLength: 0, maxLength: 3 }), segment, fc.constantFrom('.js', '.d.ts', '.js.map', '.d.ts.map', '.json', '.mjs', '.d.mts'), (dirs, base, ext) => {
        const path = ['dist', ...dirs, `${base}${ext}`].join('/');
        expect(tarballProblems(GOOD, [...GOOD_PATHS, path])).toEqual([]);
      }),
    );
  });

  it.each(['description', 'keywords', 'license', 'type', 'exports', 'files', 'engines', 'publishConfig'])('requires "%s" in the manifest', (field) => {
    const manifest = { ...GOOD } as Record<string, unknown>;
    delete manifest[field];
    const problems = tarballProblems(manifest as PackageManifest, GOOD_PATHS);
    expect(problems.map((p) => p.code)).toEqual(['manifest_field']);
    expect(problems[0]?.message).toContain(`"${field === 'engines' ? 'engines.node' : field}`);
  });

  it('requires ESM and public access for a scoped package', () => {
    expect(tarballProblems({ ...GOOD, type: 'commonjs' }, GOOD_PATHS).map((p) => p.message)).toEqual([expect.stringContaining('"type": "module"')]);
    expect(tarballProblems({ ...GOOD, publishConfig: { access: 'restricted' } }, GOOD_PATHS).map((p) => p.code)).toEqual(['manifest_field']);
    expect(tarballProblems({ ...GOOD, name: 'unscoped', publishConfig: undefined }, GOOD_PATHS)).toEqual([]);
  });
});
