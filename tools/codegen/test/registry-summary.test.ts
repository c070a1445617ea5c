import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/load-spec.js';
import { repoPaths } from '../src/repo-paths.js';
import { registrySummary } from '../src/registry-summary.js';

describe('registry summary', () => {
  it('lists every emittable code with its columns, and the reserved ones apart', () => {
    const text = registrySummary(loadSpec(repoPaths()).registry);
    const lines = text.trimEnd().split('\n');
    expect(lines[0]).toBe('app.mcpproxy/required-tools, settings version 1: 15 reason codes');
    expect(lines.filter((l) => /^[a-z_]+ +(retryable|fix_state|permanent) /.test(l))).toHaveLength(15);
    expect(text).toMatch(/^server_not_in_scope +permanent +false +configure +blocked +11 +rest_operator$/m);
    expect(text).toContain('reserved (never emitted): server_saturated');
  });
});
