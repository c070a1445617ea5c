// The per-package checks on real tarballs packed by pnpm: a complete package passes publint,
// attw (ESM-only) and the tarball rules; each kind of breakage is caught by the check meant for it.
import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPackage } from '../src/check-packages.js';
import { defaultRoot } from '../src/release-options.js';
import type { ReleaseProblem } from '../src/release-problem.js';
import { createFixtureRoot, goodManifest, GOOD_FILES, type FixtureRoot } from './package-fixtures.js';

const ROOT = defaultRoot();

describe('checkPackage', () => {
  let fixture: FixtureRoot;
  let out: string;
  beforeAll(() => {
    fixture = createFixtureRoot();
    out = mkdtempSync(join(fixture.root, 'out-'));
  });
  afterAll(() => fixture.dispose());

  async function check(dir: string, manifest: Record<string, unknown>, files: Record<string, string>): Promise<ReleaseProblem[]> {
    const pkg = fixture.writePackage(dir, manifest, files);
    return checkPackage(ROOT, pkg, [pkg], out);
  }

  it('passes a complete ESM package', async () => {
    expect(await check('good', goodManifest(), { ...GOOD_FILES })).toEqual([]);
  });

  it('reports an export whose file is not in the tarball (publint)', async () => {
    const manifest = goodManifest('@fixture/missing-export', {
      exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' }, './extra': './dist/extra.js' },
    });
    const problems = await check('missing-export', manifest, { ...GOOD_FILES });
    expect(problems.map((p) => p.code)).toContain('publint');
    expect(problems.find((p) => p.code === 'publint')?.message).toMatch(/FILE_DOES_NOT_EXIST/);
  }, 60_000);

  it("reports types that Node's ESM resolution cannot follow (attw)", async () => {
    const problems = await check('wrong-types', goodManifest('@fixture/wrong-types'), {
      ...GOOD_FILES,
      // An extensionless relative import: fine for a bundler, unresolvable for Node's ESM resolution.
      'dist/index.d.ts': "export { answer } from './answer';\n",
      'dist/answer.d.ts': 'export declare const answer = 42;\n',
    });
    expect(problems.map((p) => p.code)).toEqual(['attw']);
    expect(problems[0]?.message).toMatch(/node16/i);
  }, 60_000);

  it('reports a local dependency range, a test file and a missing README in one run', async () => {
    const manifest = goodManifest('@fixture/sloppy', { dependencies: { '@fixture/other': 'link:../other' } });
    const { 'README.md': _readme, ...withoutReadme } = GOOD_FILES;
    const problems = await check('sloppy', manifest, { ...withoutReadme, 'dist/index.test.js': 'test\n' });
    // publint agrees about the link: range (LOCAL_DEPENDENCY).
    expect(problems.map((p) => p.code).sort()).toEqual(['leftover_file', 'publint', 'readme_missing', 'workspace_range']);
  }, 60_000);
});
