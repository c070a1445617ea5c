// The generated OpenAPI document passes a real linter (Redocly's recommended rules, see
// tools/codegen/redocly.yaml) with no errors and no warnings. Telemetry and update checks are
// off, so the lint never reaches the network.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REAL_ROOT } from './temp-repo.js';

const CODEGEN = join(REAL_ROOT, 'tools', 'codegen');
const REDOCLY = join(CODEGEN, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');
const DOCUMENT = join(REAL_ROOT, 'packages', 'schema', 'openapi.json');

interface LintReport {
  readonly totals: { readonly errors: number; readonly warnings: number };
  readonly problems: readonly { readonly ruleId: string; readonly message: string }[];
}

function lint(file: string): LintReport {
  const result = spawnSync(process.execPath, [REDOCLY, 'lint', file, '--config', join(CODEGEN, 'redocly.yaml'), '--format', 'json'], {
    cwd: CODEGEN,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
  });
  return JSON.parse(result.stdout) as LintReport;
}

describe('openapi.json', () => {
  it('passes redocly lint with no errors and no warnings', () => {
    const report = lint(DOCUMENT);
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });

  it('describes POST /api/v1/preflight with its bodies and error responses', () => {
    const doc = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as {
      openapi: string;
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths['/api/v1/preflight']!['post']!.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '415', '503']);
    expect(doc.components.schemas).toHaveProperty('RestPreflightRequest');
    expect(JSON.stringify(doc.components.schemas)).not.toContain('#/$defs/');
  });
});
