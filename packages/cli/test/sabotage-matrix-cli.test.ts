// The sabotage matrix of the in-band issue, extended to the CLI: every row of
// packages/server/test/sabotage-matrix.json, induced by the server's own runner against the real
// gateway and fixture upstreams, asked through the BUILT binary over REST (cli) and over MCP with
// --in-band (cli_in_band). The CLI's expected cells are hand-written in sabotage-matrix-cli.json.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cellProblems, loadMatrix, rowCall, startMatrixWorld, type ExpectedCell } from '../../server/test/sabotage-matrix.js';
import type { MatrixCall, ObservedCell } from '../../server/test/sabotage-surfaces.js';
import type { SabotageWorld } from '../../server/test/sabotage-world.js';
import { runCli, type CliRun } from './cli-harness.js';

type CliCell = ExpectedCell | { readonly fails: string };
const CLI_SURFACES = ['cli', 'cli_in_band'] as const;
type CliSurface = (typeof CLI_SURFACES)[number];

const matrix = loadMatrix();
const cells = (JSON.parse(readFileSync(new URL('./sabotage-matrix-cli.json', import.meta.url), 'utf8')) as { rows: Record<string, Record<CliSurface, CliCell>> }).rows;

/** The command line a row makes on a CLI surface. */
function commandLine(world: SabotageWorld, call: MatrixCall, surface: CliSurface): string[] {
  const token = call.caller.token === undefined ? undefined : world.tokens[call.caller.token];
  const credential = token !== undefined ? ['--token', token] : surface === 'cli' ? ['--api-key', world.adminKey] : [];
  const policy = call.policy ?? {};
  return [
    'tools', 'preflight', call.tool, '-o', 'json', '--url', world.origin, ...credential,
    ...(surface === 'cli_in_band' ? ['--in-band'] : []),
    ...(call.caller.profile === undefined ? [] : ['--profile', call.caller.profile]),
    ...(call.pin === undefined ? [] : ['--pin', `${call.tool}=${call.pin}`]),
    ...(policy.read_only_only === true ? ['--read-only-only'] : []),
    ...(policy.exclude_destructive === true ? ['--exclude-destructive'] : []),
    ...(policy.exclude_open_world === true ? ['--exclude-open-world'] : []),
  ];
}

/** The cell the process showed: its first tool's fields, the set verdict, and its exit code. */
function observed(run: CliRun): ObservedCell {
  const doc = JSON.parse(run.stdout) as { verdict: string; exit_code: number; tools: Record<string, unknown>[] };
  const tool = doc.tools[0]!;
  expect(doc.exit_code).toBe(run.code);
  return {
    status: tool['status'] as string,
    ...(tool['reason'] === undefined ? {} : { reason: tool['reason'] as string }),
    ...(tool['retryable'] === undefined ? {} : { retryable: tool['retryable'] as boolean }),
    ...(tool['action'] === undefined ? {} : { action: tool['action'] as string }),
    verdict: doc.verdict,
    exit_code: run.code ?? -1,
  };
}

describe('the CLI columns', () => {
  it('have a cell for every matrix row on both CLI surfaces, and no row the matrix lacks', () => {
    expect(matrix.surfaces).toEqual(expect.arrayContaining([...CLI_SURFACES]));
    expect(Object.keys(cells).sort()).toEqual(matrix.rows.map((row) => row.id).sort());
    for (const row of matrix.rows) expect(Object.keys(cells[row.id]!).sort(), row.id).toEqual([...CLI_SURFACES].sort());
  });

  it('cover every exit code: 0, 10, 11, 12 and 1 on each CLI surface', () => {
    for (const surface of CLI_SURFACES) {
      const codes = new Set(Object.values(cells).map((cell) => ('fails' in cell[surface] ? 1 : (cell[surface] as { exit_code?: number }).exit_code)));
      expect([...codes].sort(), surface).toEqual([0, 1, 10, 11, 12]);
    }
  });
});

describe('against the real gateway', () => {
  let world: SabotageWorld;
  beforeAll(async () => {
    world = await startMatrixWorld(matrix);
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  describe.each(matrix.rows.map((row) => [row.id, row] as const))('%s', (id, row) => {
    it.each(CLI_SURFACES)(`${row.state}: %s`, async (surface) => {
      const expected = cells[id]![surface];
      const call = await rowCall(world, row);
      const run = await runCli(commandLine(world, call, surface));
      if ('fails' in expected) {
        expect([run.code, run.stdout]).toEqual([1, '']);
        expect(run.stderr).toContain(expected.fails);
        return;
      }
      expect(run.stderr).toBe('');
      const problems = cellProblems(expected, observed(run));
      expect(problems, run.stdout).toEqual([]);
    });
  });

  it('the in-band runs went through the rider (auto negotiation picks 2026-07-28)', async () => {
    const run = await runCli(['tools', 'preflight', 'steady:read', '-o', 'json', '--in-band', '--url', world.origin]);
    expect((JSON.parse(run.stdout) as { carriage: string }).carriage).toBe('rider');
  });
});
