// spec/examples/<Def>/*.json validate with the strict validator of <Def>; each
// spec/examples/<Def>/invalid/*.json is rejected with the ajv keyword at the path it states.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lenientValidators, MAX_TOOLS, SETTINGS_VERSION, strictValidators, type DefName } from '../src/index.js';
import { EXAMPLES, listFiles, readJson } from './repo-files.js';

interface InvalidExample {
  readonly description: string;
  readonly error: { readonly keyword: string; readonly instancePath: string };
  readonly instance: unknown;
}

const files = listFiles(EXAMPLES);
const valid = files.filter((f) => !f.includes('/invalid/'));
const invalid = files.filter((f) => f.includes('/invalid/'));
const defOf = (file: string): DefName => file.split('/')[0] as DefName;

describe('spec/examples', () => {
  it('are filed under $defs names', () => {
    for (const file of files) expect(Object.keys(strictValidators)).toContain(defOf(file));
  });

  it.each([
    ['ShapeARequest/seed-tools-list-with-rider.json'],
    ['ShapeAResponse/seed-tools-list-with-facet.json'],
    ['ShapeBResponse/seed-tools-resolve-with-facet.json'],
  ])('the seed example %s validates strictly', (file) => {
    const validate = strictValidators[defOf(file)];
    expect(validate(readJson(join(EXAMPLES, file))), JSON.stringify(validate.errors)).toBe(true);
  });

  it.each(valid.map((f) => [f]))('%s validates strictly and leniently', (file) => {
    const value = readJson(join(EXAMPLES, file));
    const strict = strictValidators[defOf(file)];
    expect(strict(value), JSON.stringify(strict.errors)).toBe(true);
    expect(lenientValidators[defOf(file)](value)).toBe(true);
  });

  it.each(invalid.map((f) => [f]))('%s is rejected for the reason it states', (file) => {
    const example = readJson<InvalidExample>(join(EXAMPLES, file));
    expect(example.description.length).toBeGreaterThan(0);
    const validate = strictValidators[defOf(file)];
    expect(validate(example.instance)).toBe(false);
    const errors = (validate.errors ?? []).map((e) => ({ keyword: e.keyword, instancePath: e.instancePath }));
    expect(errors).toContainEqual(example.error);
  });

  // Settings name the settings version, which moves with the registry: the cases are built from it
  // rather than written down for one version.
  it('Settings: the registry\'s own version validates strictly (with or without max_tools), the next one only leniently', () => {
    for (const value of [{ version: SETTINGS_VERSION }, { version: SETTINGS_VERSION, max_tools: MAX_TOOLS }]) {
      expect(strictValidators.Settings(value), JSON.stringify(value)).toBe(true);
      expect(lenientValidators.Settings(value), JSON.stringify(value)).toBe(true);
    }
    const next = { version: SETTINGS_VERSION + 1 };
    expect(strictValidators.Settings(next)).toBe(false);
    expect((strictValidators.Settings.errors ?? []).map((e) => ({ keyword: e.keyword, instancePath: e.instancePath }))).toContainEqual({ keyword: 'const', instancePath: '/version' });
    expect(lenientValidators.Settings(next)).toBe(true);
  });

  it('cover at least one valid and one invalid case for the main shapes', () => {
    const defsWithValid = new Set(valid.map(defOf));
    for (const def of ['RequestRider', 'ToolVerdict', 'ResponseFacet', 'ResolveFacet', 'RestPreflightRequest', 'RestPreflightResponse', 'RestAgentPreflightResponse', 'CheckModeArguments', 'CheckModeResult', 'ActivityRecord', 'ApiError']) {
      expect(defsWithValid).toContain(def);
    }
    expect(invalid.length).toBeGreaterThanOrEqual(25);
  });
});
