// The sabotage matrix (sabotage-matrix.json) against the real gateway and real fixture upstreams:
// every row on every in-process surface, every payload strictly valid, and a coverage rule that
// fails when a registry code lacks a row on a surface that may carry it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REASONS } from '@mcpproxy/schema';
import { cellProblems, loadMatrix, missingCoverage, runRow, startMatrixWorld, type SabotageMatrix } from './sabotage-matrix.js';
import { IN_PROCESS_SURFACES, type InProcessSurface } from './sabotage-surfaces.js';
import type { SabotageWorld } from './sabotage-world.js';

const matrix = loadMatrix();
const SURFACES = Object.keys(IN_PROCESS_SURFACES) as InProcessSurface[];
/** Matrix surface -> the registry's surface flag (the coverage check is the one use of the registry here). */
const REGISTRY_FLAGS: Record<InProcessSurface, string> = {
  rest_operator: 'rest_operator',
  rest_agent: 'rest_agent',
  rider_2025: 'rider',
  rider_2026: 'rider',
  check: 'check',
  resolve: 'resolve',
};

describe('the matrix data', () => {
  it('names every in-process surface (and the CLI columns) and has a cell for each in every row', () => {
    expect(matrix.surfaces).toEqual([...SURFACES, 'cli', 'cli_in_band']);
    expect(new Set(matrix.rows.map((r) => r.id)).size).toBe(matrix.rows.length);
    for (const row of matrix.rows) {
      for (const surface of SURFACES) expect(row.expect[surface], `${row.id}: ${surface}`).toBeDefined();
      // The CLI's columns may be filled in by its own tests; no other column may appear.
      for (const surface of Object.keys(row.expect)) expect(matrix.surfaces, `${row.id}: ${surface}`).toContain(surface);
    }
  });

  it('has a row for every registry code on every surface that may carry it', () => {
    expect(missingCoverage(matrix, REASONS, REGISTRY_FLAGS)).toEqual([]);
  });

  it('the coverage rule fails when a code loses its only row', () => {
    const without: SabotageMatrix = { ...matrix, rows: matrix.rows.filter((r) => r.id !== 'answers-401-after-ready') };
    // Relative to the full matrix, so a code the matrix does not cover yet fails only the test above.
    const before = missingCoverage(matrix, REASONS, REGISTRY_FLAGS);
    expect(missingCoverage(without, REASONS, REGISTRY_FLAGS).filter((gap) => !before.includes(gap))).toEqual(['oauth_required on resolve']);
  });

  it('the comparison is strict: a missing, extra or different key is a problem', () => {
    const want = { status: 'unavailable', reason: 'tool_changed', retryable: false, action: 'approve', verdict: 'blocked', exit_code: 11 } as const;
    expect(cellProblems(want, { ...want })).toEqual([]);
    expect(cellProblems(want, { ...want, action: 'enable' })).toEqual(['action: expected "approve", got "enable"']);
    const { action: _action, ...withoutAction } = want;
    expect(cellProblems(withoutAction, want)).toEqual(['action: expected undefined, got "approve"']);
    expect(cellProblems({ error: -32602 }, want)).toHaveLength(1);
    expect(cellProblems(want, { error: -32602 })).toHaveLength(1);
  });
});

describe('against the real gateway', () => {
  let world: SabotageWorld;
  beforeAll(async () => {
    world = await startMatrixWorld(matrix);
  }, 90_000);
  afterAll(async () => {
    await world?.close();
  });

  describe.each(matrix.rows.map((row) => [row.id, row] as const))('%s', (_id, row) => {
    it.each(SURFACES)(`${row.state}: %s`, async (surface) => {
      const outcome = await runRow(world, row, surface, IN_PROCESS_SURFACES[surface]);
      expect(outcome.problems, JSON.stringify(outcome.observed)).toEqual([]);
    });
  });

  it('asked no upstream anything while answering (zero upstream I/O)', async () => {
    const before = world.gateway.gateway.runtime.upstreamMessageCount();
    for (const row of matrix.rows.slice(0, 6)) for (const surface of SURFACES) await runRow(world, row, surface, IN_PROCESS_SURFACES[surface]);
    expect(world.gateway.gateway.runtime.upstreamMessageCount()).toBe(before);
  });
});
