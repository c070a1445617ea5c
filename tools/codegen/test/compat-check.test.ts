import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compatProblems, diffRegistries } from '../src/compat-check.js';
import type { ReleasedRegistry } from '../src/load-spec.js';
import type { Registry } from '../src/registry-model.js';
import { runCodegen } from '../src/run-codegen.js';
import { addChangeset, bumpAndFreeze, editRegistry, NEW_CODE, newCodeEntry } from './registry-edits.js';
import { createTempRepo, REAL_ROOT, type TempRepo } from './temp-repo.js';

const v1 = JSON.parse(readFileSync(join(REAL_ROOT, 'spec', 'released', 'v1.json'), 'utf8')) as Registry;
const released: ReleasedRegistry[] = [{ version: 1, file: 'v1.json', registry: v1 }];
const clone = (): Registry => structuredClone(v1) as Registry;
type Mutable = { reasons: Record<string, Record<string, unknown>> };

describe('compatibility against spec/released', () => {
  let repo: TempRepo;
  beforeEach(() => {
    repo = createTempRepo();
  });
  afterEach(() => repo.dispose());

  const codes = async (): Promise<string[]> => (await runCodegen(repo.root, false)).problems.map((p) => p.code);
  const messages = async (): Promise<string> => (await runCodegen(repo.root, false)).problems.map((p) => p.message).join('\n');

  it('fails on a removed code, saying to deprecate instead', async () => {
    editRegistry(repo, (r) => {
      delete r.reasons['tool_changed'];
    });
    expect(await codes()).toContain('compat_broken');
    expect(await messages()).toMatch(/code tool_changed was removed or renamed: .*deprecate it instead/);
  });

  it('fails on a renamed code', async () => {
    editRegistry(repo, (r) => {
      r.reasons['tool_modified'] = { ...r.reasons['tool_changed'] };
      delete r.reasons['tool_changed'];
    });
    expect(await messages()).toContain('code tool_changed was removed or renamed');
  });

  it.each([
    ['class', 'permanent'],
    ['retryable', true],
    ['action', 'enable'],
    ['diagnostic_actions', ['approve', 'restart']],
    ['verdict', 'unknown_ids'],
    ['exit_code', 12],
    ['surfaces', { rest_operator: true, rest_agent: true, rider: true, check: true, resolve: true }],
    ['since', 2],
  ])('fails when a released code changes %s', async (field, value) => {
    editRegistry(repo, (r) => {
      r.reasons['tool_changed']![field] = value;
    });
    expect(await messages()).toContain(`code tool_changed: ${field} changed from`);
  });

  it('fails on an added code without a bump, saying to bump to 2 and add spec/released/v2.json', async () => {
    editRegistry(repo, (r) => {
      r.reasons[NEW_CODE] = newCodeEntry(2);
    });
    const problems = (await runCodegen(repo.root, false)).problems;
    const bump = problems.find((p) => p.code === 'version_bump_needed');
    expect(bump?.message).toContain(`added ${NEW_CODE}`);
    expect(bump?.message).toContain('bump settings_version to 2 and add spec/released/v2.json');
  });

  it('fails on a deprecated code without a bump', async () => {
    editRegistry(repo, (r) => {
      r.reasons['tool_changed']!['status'] = 'deprecated';
      r.reasons['tool_changed']!['deprecated_in'] = 2;
    });
    expect(await messages()).toContain('status of tool_changed changed');
    expect(await codes()).toContain('version_bump_needed');
  });

  it('fails on a bump without its frozen copy, saying to add it', async () => {
    editRegistry(repo, (r) => {
      r.settings_version = 2;
      r.reasons[NEW_CODE] = newCodeEntry(2);
    });
    expect(await messages()).toContain('settings_version 2 has no frozen copy: add spec/released/v2.json');
  });

  it('passes a bumped version with its frozen copy and changeset, and checks the new code is stamped since 2', async () => {
    editRegistry(repo, (r) => {
      r.reasons[NEW_CODE] = newCodeEntry(2);
    });
    bumpAndFreeze(repo, 2);
    addChangeset(repo, 'registry-v2', 'minor', `Reason registry settings version 2 adds ${NEW_CODE}.`);
    await runCodegen(repo.root, true);
    expect(await codes()).toEqual([]);
    editRegistry(repo, (r) => {
      r.reasons[NEW_CODE]!['since'] = 1;
    }, 'spec/released/v2.json');
    expect(await messages()).toContain(`spec/released/v2.json: new code ${NEW_CODE} must have since 2, not 1`);
  });

  it('passes a rewording of detail and remediation without a bump', async () => {
    editRegistry(repo, (r) => {
      const wording = r.reasons['tool_changed']!['wording'] as Record<string, string>;
      wording['detail'] = 'Tool {id} is not the tool that was approved.';
      wording['remediation'] = 'Look at it again, then: mcpproxy tools approve {id}';
    });
    await runCodegen(repo.root, true);
    expect(await codes()).toEqual([]);
  });

  it('checks the released chain: a later frozen file that drops a code fails', async () => {
    repo.write('spec/released/v2.json', repo.read('spec/reasons.json'));
    editRegistry(repo, (r) => {
      r.settings_version = 2;
      delete r.reasons['not_found'];
    }, 'spec/released/v2.json');
    expect(await messages()).toContain('spec/released/v2.json against v1: code not_found was removed or renamed');
  });

  it('checks a frozen file against its own name', async () => {
    repo.write('spec/released/v3.json', repo.read('spec/reasons.json'));
    expect(await messages()).toContain('spec/released/v3.json holds settings_version 1');
  });

  it('property: any rewording of any code passes without a bump', () => {
    const codesOf = Object.keys(v1.reasons);
    const text = fc.string({ minLength: 1, maxLength: 80 }).filter((s) => !s.includes('{'));
    fc.assert(
      fc.property(fc.constantFrom(...codesOf), text, text, (code, detail, remediation) => {
        const next = clone();
        (next as unknown as Mutable).reasons[code]!['wording'] = { detail, remediation };
        expect(compatProblems(next, released)).toEqual([]);
      }),
    );
  });

  it('property: a code is added, then removed, by its own name, including names every object inherits', () => {
    const codeName = fc.oneof(fc.stringMatching(/^[a-z][a-z0-9_]{0,20}$/), fc.constantFrom('constructor', 'to_string', 'hasOwnProperty', 'valueOf', '__proto__'));
    fc.assert(
      fc.property(codeName.filter((code) => !Object.hasOwn(v1.reasons, code)), (code) => {
        const withCode = clone();
        // defineProperty: a plain assignment to `__proto__` would set the prototype, not add an entry.
        Object.defineProperty((withCode as unknown as Mutable).reasons, code, { value: { ...v1.reasons['tool_changed'] }, enumerable: true, writable: true, configurable: true });
        expect(diffRegistries(v1, withCode).added).toEqual([code]);
        expect(diffRegistries(withCode, v1).breaks).toContain(`code ${code} was removed or renamed: codes are never removed or renamed; deprecate it instead (status "deprecated", deprecated_in)`);
      }),
    );
  });

  it('property: changing any immutable column of any code is a break', () => {
    const codesOf = Object.keys(v1.reasons);
    const change = fc.constantFrom<[string, (old: unknown) => unknown]>(
      ['class', (old) => (old === 'permanent' ? 'fix_state' : 'permanent')],
      ['retryable', (old) => !old],
      ['action', (old) => (old === 'login' ? 'restart' : 'login')],
      ['verdict', (old) => (old === 'blocked' ? 'unknown_ids' : 'blocked')],
      ['exit_code', (old) => (old as number) + 1],
      ['since', (old) => (old as number) + 1],
      ['surfaces', (old) => ({ ...(old as object), rider: !(old as Record<string, boolean>)['rider'] })],
    );
    fc.assert(
      fc.property(fc.constantFrom(...codesOf), change, (code, [field, mutate]) => {
        const next = clone();
        const reasons = (next as unknown as Mutable).reasons;
        reasons[code]![field] = mutate(reasons[code]![field]);
        expect(diffRegistries(v1, next).breaks.some((b) => b.includes(`code ${code}: ${field} changed`))).toBe(true);
      }),
    );
  });
});
