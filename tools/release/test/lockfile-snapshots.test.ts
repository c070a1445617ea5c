// The rule that lets a copy of an older commit reuse this install: exact packages, and snapshots
// served by the same package with at least the peers the commit resolved (pnpm 11+ adds optional
// peers found anywhere in the workspace).
import { describe, expect, it } from 'vitest';
import { covers, splitSnapshot, unservedKeys } from './e2e/lockfile-snapshots.js';

const VITE = 'vite@8.3.8(@types/node@20.19.25)(esbuild@0.28.2)';
const lockfile = (packages: readonly string[], snapshots: readonly string[]): string =>
  ['lockfileVersion: 9.0', '', 'packages:', ...packages.map((p) => `  '${p}':\n    resolution: {}`), '', 'snapshots:', ...snapshots.map((s) => `  '${s}':\n    dependencies: {}`), ''].join('\n');

describe('lockfile snapshots', () => {
  it('splits a key into its package and its top-level peers, scoped names and nested peers included', () => {
    expect(splitSnapshot(`vitest@4.1.12(@types/node@20.19.25)(${VITE})`)).toEqual({ pkg: 'vitest@4.1.12', peers: ['@types/node@20.19.25', VITE] });
    expect(splitSnapshot('@modelcontextprotocol/sdk@1.32.2(zod@4.2.1)')).toEqual({ pkg: '@modelcontextprotocol/sdk@1.32.2', peers: ['zod@4.2.1'] });
    expect(splitSnapshot('@scope/plain@1.0.0')).toEqual({ pkg: '@scope/plain@1.0.0', peers: [] });
  });

  it('an installed snapshot with an extra optional peer serves the older one; a missing or different peer does not', () => {
    expect(covers(`vitest@4.1.12(@opentelemetry/api@1.10.0)(@types/node@20.19.25)(${VITE})`, `vitest@4.1.12(@types/node@20.19.25)(${VITE})`)).toBe(true);
    expect(covers('vitest@4.1.12(@types/node@20.19.25)', `vitest@4.1.12(@types/node@20.19.25)(${VITE})`)).toBe(false);
    expect(covers('sdk@1.32.2(zod@4.6.7)', 'sdk@1.32.2(zod@4.2.1)')).toBe(false);
    expect(covers('sdk@1.32.3(zod@4.2.1)', 'sdk@1.32.2(zod@4.2.1)')).toBe(false);
    // A nested peer that itself gained an optional peer still serves.
    expect(covers('vitest@4.1.12(vite@8.3.8(@types/node@20.19.25)(esbuild@0.28.2)(jiti@2.0.0))', `vitest@4.1.12(${VITE})`)).toBe(true);
  });

  it('lists what the commit resolves and the install does not serve', () => {
    const commit = lockfile(['zod@4.2.1', 'sdk@1.32.2', 'left-pad@1.3.0'], ['sdk@1.32.2(zod@4.2.1)', 'left-pad@1.3.0', 'other@1.0.0(zod@4.2.1)']);
    const installed = lockfile(['zod@4.2.1', 'sdk@1.32.2', '@cfworker/json-schema@4.1.6'], ['sdk@1.32.2(@cfworker/json-schema@4.1.6)(zod@4.2.1)', 'other@1.0.0(zod@4.6.7)']);
    expect(unservedKeys(commit, installed)).toEqual(['packages: left-pad@1.3.0', 'snapshots: left-pad@1.3.0', 'snapshots: other@1.0.0(zod@4.2.1)']);
  });
});
