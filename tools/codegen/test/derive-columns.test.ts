// spec/reasons.json leaves retryable and exit_code out; spec/released/v1.json spells them. Both load.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { deriveColumns, type FileRegistry } from '../src/derive-columns.js';
import { loadSpec } from '../src/load-spec.js';
import { repoPaths } from '../src/repo-paths.js';

const spec = loadSpec(repoPaths());

describe('derived columns', () => {
  it('spec/reasons.json spells neither retryable nor exit_code: both are derived', () => {
    const raw = JSON.parse(readFileSync(repoPaths().reasons, 'utf8')) as { reasons: Record<string, object> };
    for (const [code, entry] of Object.entries(raw.reasons)) {
      expect(Object.hasOwn(entry, 'retryable'), code).toBe(false);
      expect(Object.hasOwn(entry, 'exit_code'), code).toBe(false);
    }
  });

  it('derives for every code of v1 what the frozen v1 copy spells out', () => {
    const v1 = spec.released.find((r) => r.version === 1);
    expect(v1).toBeDefined();
    for (const [code, frozen] of Object.entries(v1?.registry.reasons ?? {})) {
      const current = spec.registry.reasons[code];
      expect([current?.retryable, current?.exit_code], code).toEqual([frozen.retryable, frozen.exit_code]);
    }
  });

  it('keeps an explicit value as written, so the consistency check can name a wrong one', () => {
    const file = structuredClone(spec.registry) as unknown as { reasons: Record<string, Record<string, unknown>> };
    delete file.reasons['tool_changed']!['retryable'];
    delete file.reasons['tool_changed']!['exit_code'];
    file.reasons['not_found']!['exit_code'] = 11;
    const derived = deriveColumns(file as unknown as FileRegistry);
    expect(derived.reasons['tool_changed']).toMatchObject({ retryable: false, exit_code: 11 });
    expect(derived.reasons['not_found']?.exit_code).toBe(11);
  });
});
