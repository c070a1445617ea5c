// The acceptance scenario on a temporary copy: a new code without anything else fails
// the check; bumping, freezing, announcing and regenerating makes it pass, and the code is then
// everywhere the registry reaches.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCodegen } from '../src/run-codegen.js';
import { addChangeset, bumpAndFreeze, editRegistry, NEW_CODE, newCodeEntry } from './registry-edits.js';
import { createTempRepo, REAL_ROOT, type TempRepo } from './temp-repo.js';

const TSC = join(REAL_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

describe('adding a reason code end to end', () => {
  let repo: TempRepo;
  beforeAll(() => {
    repo = createTempRepo();
  });
  afterAll(() => repo.dispose());

  it('fails the check when only reasons.json changes, with a message that says to bump', async () => {
    editRegistry(repo, (r) => {
      r.reasons[NEW_CODE] = newCodeEntry(2);
    });
    const outcome = await runCodegen(repo.root, false);
    expect(outcome.problems.map((p) => p.code)).toEqual(expect.arrayContaining(['version_bump_needed', 'drift']));
    expect(outcome.problems.find((p) => p.code === 'version_bump_needed')?.message).toContain('bump settings_version to 2');
  });

  it('passes after the bump, the frozen copy, a changeset and --write', async () => {
    bumpAndFreeze(repo, 2);
    addChangeset(repo, 'registry-v2', 'minor', `Reason registry settings version 2: adds ${NEW_CODE}.`);
    expect((await runCodegen(repo.root, true)).problems).toEqual([]);
    expect((await runCodegen(repo.root, false)).problems).toEqual([]);
  });

  it('puts the code in the constants', () => {
    const registry = repo.read('packages/schema/src/generated/registry.ts');
    expect(registry).toContain('export const SETTINGS_VERSION = 2 as const;');
    expect(registry).toMatch(new RegExp(`RIDER_REASON_CODES = \\[[^\\]]*'${NEW_CODE}'`));
  });

  it('puts the code in the types (checked by the compiler)', () => {
    repo.write(
      'packages/schema/src/new-code-probe.ts',
      [
        `import type { ReasonCode, RiderReasonCode, ResolveFacet, ToolVerdict } from './index.js';`,
        `export const code: ReasonCode = '${NEW_CODE}';`,
        `export const rider: RiderReasonCode = '${NEW_CODE}';`,
        `export const verdict: ToolVerdict = { id: 'a:b', status: 'unavailable', reason: '${NEW_CODE}', retryable: true };`,
        `export const facet: ResolveFacet = { status: 'unavailable', reason: '${NEW_CODE}', retryable: true };`,
        `// @ts-expect-error the registry says ${NEW_CODE} is retryable`,
        `export const wrong: ToolVerdict = { id: 'a:b', status: 'unavailable', reason: '${NEW_CODE}', retryable: false };`,
        '',
      ].join('\n'),
    );
    const project = join(repo.root, 'packages', 'schema', 'tsconfig.build.json');
    expect(() => execFileSync(process.execPath, [TSC, '-p', project, '--noEmit'], { encoding: 'utf8' })).not.toThrow();
  });

  it('puts the code in the strict validators', async () => {
    const url = pathToFileURL(join(repo.root, 'packages', 'schema', 'src', 'generated', 'validators.js')).href;
    const { strictValidators } = (await import(url)) as {
      strictValidators: Record<string, ((v: unknown) => boolean) & { errors?: unknown }>;
    };
    expect(strictValidators['ToolVerdict']!({ id: 'a:b', status: 'unavailable', reason: NEW_CODE, retryable: true })).toBe(true);
    expect(strictValidators['ToolVerdict']!({ id: 'a:b', status: 'unavailable', reason: NEW_CODE, retryable: false })).toBe(false);
  });

  it('puts the code in the OpenAPI document and the fixtures', () => {
    expect(repo.read('packages/schema/openapi.json')).toContain(`"${NEW_CODE}"`);
    const index = repo.readJson<{ valid: { file: string; reason?: string }[] }>('packages/schema/fixtures/index.json');
    expect(index.valid.filter((f) => f.reason === NEW_CODE).length).toBeGreaterThan(0);
  });
});
