// The shipped fixtures behave as their index says, and cover every code on every surface.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lenientValidators, REASONS, SURFACES, strictValidators, type DefName, type RegistryCode, SETTINGS_VERSION } from '../src/index.js';
import { FIXTURES, listFiles, readJson } from './repo-files.js';

interface FixtureIndex {
  readonly settings_version: number;
  readonly valid: readonly { file: string; def: DefName; surface: string; status: string; reason?: string; variant?: string }[];
  readonly invalid: readonly { file: string; def: DefName; strength: 'strict' | 'lenient'; error: { keyword: string; instancePath: string } }[];
}

const index = readJson<FixtureIndex>(join(FIXTURES, 'index.json'));
const instanceOf = (file: string): unknown => readJson<{ instance: unknown }>(join(FIXTURES, file)).instance;

describe('fixtures', () => {
  it('index lists exactly the fixture files', () => {
    const listed = [...index.valid, ...index.invalid].map((f) => f.file).sort();
    expect(listFiles(FIXTURES).filter((f) => f !== 'index.json').sort()).toEqual(listed);
    expect(index.settings_version).toBe(SETTINGS_VERSION);
  });

  it.each(index.valid.map((f) => [f.file, f]))('%s validates strictly and leniently', (_file, fixture) => {
    const instance = instanceOf(fixture.file);
    const strict = strictValidators[fixture.def];
    expect(strict(instance), JSON.stringify(strict.errors)).toBe(true);
    expect(lenientValidators[fixture.def](instance)).toBe(true);
  });

  it.each(index.invalid.map((f) => [f.file, f]))('%s fails as stated', (_file, fixture) => {
    const validate = (fixture.strength === 'strict' ? strictValidators : lenientValidators)[fixture.def];
    expect(validate(instanceOf(fixture.file))).toBe(false);
    expect((validate.errors ?? []).map((e) => ({ keyword: e.keyword, instancePath: e.instancePath }))).toContainEqual(fixture.error);
  });

  it('has a valid verdict for every emittable code on every surface the registry allows, with its wording', () => {
    for (const [code, entry] of Object.entries(REASONS)) {
      // Widened: with no reserved code left, the registry's literal type says only "active".
      const status: string = entry.status;
      for (const surface of SURFACES) {
        const fixture = index.valid.find((f) => f.surface === surface && f.reason === code && f.variant === undefined);
        if (status !== 'reserved' && entry.surfaces[surface]) {
          expect(fixture, `${code} on ${surface}`).toBeDefined();
          const instance = instanceOf(fixture!.file) as { retryable: boolean; detail: string };
          expect(instance.retryable).toBe(REASONS[code as RegistryCode].retryable);
          expect(instance.detail).not.toMatch(/\{[a-z_]+\}/);
        } else {
          expect(fixture, `${code} must not be on ${surface}`).toBeUndefined();
        }
      }
    }
  });
});
