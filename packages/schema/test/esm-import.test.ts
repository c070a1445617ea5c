// The built package loads in a plain Node ES module: ajv's standalone code had its require()
// calls rewritten into imports, and the exports map reaches every published file.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lenientValidators, REASON_CODES, strictValidators } from '../src/index.js';
import { PACKAGE_ROOT } from './repo-files.js';

describe('the built package as a plain ES module', () => {
  it('imports and runs every validator from a .mjs file under node', () => {
    const out = execFileSync(process.execPath, [join(PACKAGE_ROOT, 'test', 'import-every-validator.mjs')], {
      cwd: PACKAGE_ROOT,
      encoding: 'utf8',
    });
    const summary = JSON.parse(out) as { called: string[]; codes: number; dateTimeRule: string; openapi: string; schemaIds: string[]; fixtures: number };
    expect(summary.called.sort()).toEqual(
      [...Object.keys(strictValidators).map((n) => `strict.${n}`), ...Object.keys(lenientValidators).map((n) => `lenient.${n}`)].sort(),
    );
    expect(summary.codes).toBe(REASON_CODES.length);
    expect(summary.dateTimeRule).toBe('format');
    expect(summary.openapi).toBe('3.1.0');
    expect(summary.schemaIds).toEqual([
      'https://mcpproxy.app/schemas/required-tools.strict.json',
      'https://mcpproxy.app/schemas/required-tools.lenient.json',
    ]);
    expect(summary.fixtures).toBeGreaterThan(100);
  });
});
