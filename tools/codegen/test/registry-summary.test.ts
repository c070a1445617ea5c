import { describe, expect, it } from 'vitest';
import { loadSpec } from '../src/load-spec.js';
import { emittableCodes, reservedCodes } from '../src/registry-model.js';
import { repoPaths } from '../src/repo-paths.js';
import { registrySummary } from '../src/registry-summary.js';

describe('registry summary', () => {
  it('lists every emittable code with its columns, and the reserved ones apart', () => {
    const registry = loadSpec(repoPaths()).registry;
    const text = registrySummary(registry);
    const lines = text.trimEnd().split('\n');
    const emittable = emittableCodes(registry);
    expect(lines[0]).toBe(`app.mcpproxy/required-tools, settings version ${registry.settings_version}: ${emittable.length} reason codes`);
    expect(lines.filter((l) => /^[a-z_]+ +(retryable|fix_state|permanent) /.test(l)).map((l) => l.split(' ')[0])).toEqual(emittable);
    // server_not_in_scope is a v1 code, and v1 columns never change.
    expect(text).toMatch(/^server_not_in_scope +permanent +false +configure +blocked +11 +rest_operator$/m);
    const reserved = reservedCodes(registry);
    if (reserved.length > 0) expect(text).toContain(`reserved (never emitted): ${reserved.join(', ')}`);
    else expect(text).not.toContain('reserved (never emitted)');
  });
});
