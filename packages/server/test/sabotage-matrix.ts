// The sabotage matrix as data (sabotage-matrix.json) and its runner, shared by the server's matrix
// test and the CLI's: load the rows, start the world they describe, run one row on one surface
// through a driver, and compare the observed cell with the hand-written one.
import { readFileSync } from 'node:fs';
import type { Policy } from '@mcpproxy/schema';
import { startSabotageWorld, type InduceStep, type SabotageWorld, type UntilCondition, type WorldSpec } from './sabotage-world.js';
import type { MatrixCall, MatrixCaller, ObservedCell, SurfaceDriver } from './sabotage-surfaces.js';

export type ExpectedCell =
  | { readonly status: 'ready' | 'unavailable'; readonly reason?: string; readonly retryable?: boolean; readonly action?: string; readonly verdict?: string; readonly exit_code?: number }
  | { readonly error: number }
  | { readonly tool_error: true }
  | { readonly http: number }
  | { readonly skip: string };

export interface MatrixRow {
  readonly id: string;
  /** How the state came about, in words. */
  readonly state: string;
  readonly induce?: readonly InduceStep[];
  readonly until?: UntilCondition;
  readonly tool: string;
  readonly policy?: Policy;
  /** A pin; `$current` = the tool's current hash as the operator tier reports it. */
  readonly pin?: string;
  readonly caller?: MatrixCaller;
  /** By surface name; the CLI's tests add `cli` and `cli_in_band`. */
  readonly expect: Readonly<Record<string, ExpectedCell>>;
}

export interface SabotageMatrix {
  readonly surfaces: readonly string[];
  readonly world: WorldSpec;
  readonly rows: readonly MatrixRow[];
}

export const MATRIX_FILE = new URL('./sabotage-matrix.json', import.meta.url);

export function loadMatrix(): SabotageMatrix {
  return JSON.parse(readFileSync(MATRIX_FILE, 'utf8')) as SabotageMatrix;
}

/** The world every row of the matrix runs in, with every row's state induced. */
export function startMatrixWorld(matrix: SabotageMatrix): Promise<SabotageWorld> {
  const steps = matrix.rows.flatMap((row) => row.induce ?? []);
  const conditions = matrix.rows.flatMap((row) => (row.until === undefined ? [] : [row.until]));
  return startSabotageWorld(matrix.world, steps, conditions);
}

/** The call a row makes on any surface (a `$current` pin is read from the operator tier first). */
export async function rowCall(world: SabotageWorld, row: MatrixRow): Promise<MatrixCall> {
  const pin = row.pin === '$current' ? await currentHash(world, row.tool) : row.pin;
  return {
    tool: row.tool,
    caller: row.caller ?? {},
    ...(row.policy === undefined ? {} : { policy: row.policy }),
    ...(pin === undefined ? {} : { pin }),
  };
}

export interface RowOutcome {
  readonly expected: ExpectedCell;
  readonly observed?: ObservedCell;
  /** Empty when the cell holds (or is skipped). */
  readonly problems: readonly string[];
}

/** Runs one row on one surface and compares. A row without a cell for the surface is a problem, not a pass. */
export async function runRow(world: SabotageWorld, row: MatrixRow, surface: string, driver: SurfaceDriver): Promise<RowOutcome> {
  const expected = row.expect[surface];
  if (expected === undefined) return { expected: { skip: 'no cell' }, problems: [`row ${row.id} has no cell for ${surface}`] };
  if ('skip' in expected) return { expected, problems: [] };
  const observed = await driver(world, await rowCall(world, row));
  return { expected, observed, problems: cellProblems(expected, observed) };
}

const VERDICT_KEYS = ['status', 'reason', 'retryable', 'action', 'verdict', 'exit_code'] as const;

/** What differs between an expected and an observed cell (an absent expected key must be absent). */
export function cellProblems(expected: ExpectedCell, observed: ObservedCell): string[] {
  const said = JSON.stringify(observed);
  if ('skip' in expected) return [];
  if ('error' in expected) return 'error' in observed && observed.error === expected.error ? [] : [`expected JSON-RPC error ${expected.error}, got ${said}`];
  if ('tool_error' in expected) return 'tool_error' in observed ? [] : [`expected a tool error saying no verdict was computed, got ${said}`];
  if ('http' in expected) return 'http' in observed && observed.http === expected.http ? [] : [`expected HTTP ${expected.http}, got ${said}`];
  if (!('status' in observed)) return [`expected a verdict, got ${said}`];
  const problems: string[] = [];
  for (const key of VERDICT_KEYS) {
    const want = (expected as Record<string, unknown>)[key];
    const got = (observed as unknown as Record<string, unknown>)[key];
    if (want !== got) problems.push(`${key}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  }
  return problems;
}

/**
 * The coverage rule: every emittable registry code has at least one row on every matrix surface
 * whose registry flag lets it appear there. `flags` maps a matrix surface to the registry surface
 * (rider_2025 and rider_2026 are both the registry's `rider`). Returns what is missing.
 */
export function missingCoverage(
  matrix: SabotageMatrix,
  registry: Readonly<Record<string, { readonly status: string; readonly surfaces: Readonly<Record<string, boolean>> }>>,
  flags: Readonly<Record<string, string>>,
): string[] {
  const missing: string[] = [];
  for (const [code, entry] of Object.entries(registry)) {
    if (entry.status === 'reserved') continue;
    for (const [surface, flag] of Object.entries(flags)) {
      if (entry.surfaces[flag] !== true) continue;
      const covered = matrix.rows.some((row) => {
        const cell = row.expect[surface];
        return cell !== undefined && 'status' in cell && cell.reason === code;
      });
      if (!covered) missing.push(`${code} on ${surface}`);
    }
  }
  return missing;
}

async function currentHash(world: SabotageWorld, tool: string): Promise<string> {
  const response = await fetch(`${world.origin}/api/v1/preflight`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': world.adminKey },
    body: JSON.stringify({ tools: [{ id: tool }] }),
  });
  const body = (await response.json()) as { tools?: { hash?: string }[] };
  const hash = body.tools?.[0]?.hash;
  if (hash === undefined) throw new Error(`no current hash for ${tool}: ${JSON.stringify(body)}`);
  return hash;
}
