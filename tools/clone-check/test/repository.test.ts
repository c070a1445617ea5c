// The repository itself: a clone with nothing beside it has everything its build, run and tests read.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cloneProblems } from '../src/clone-problems.js';

const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
const F = ['sha', 'red'].join('');

describe('tracked files', () => {
  it('none reaches for a folder beside the clone', () => {
    expect(cloneProblems(ROOT).map((p) => `${p.file}:${p.line}:${p.column}: ${p.message}`)).toEqual([]);
  });

  it('a tracked file that does is reported with its place and what to do; an untracked one is not what a clone holds', () => {
    const repo = mkdtempSync(join(tmpdir(), 'clone-check-'));
    try {
      execFileSync('git', ['init', '-q'], { cwd: repo });
      writeFileSync(join(repo, 'conformance.test.ts'), `const G = resolve(REPO_ROOT, '..', '${F}', 'tools', 'x.mjs');\n`);
      writeFileSync(join(repo, 'scratch.ts'), `import '../${F}/x.mjs';\n`);
      execFileSync('git', ['add', 'conformance.test.ts'], { cwd: repo });
      expect(cloneProblems(repo)).toEqual([
        {
          file: 'conformance.test.ts',
          line: 1,
          column: 30,
          message: `'..', '${F}' reaches for ../${F}, which a user's clone does not have: copy what it needs into the repository, or cite the document by its title`,
        },
      ]);
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
