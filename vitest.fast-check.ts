// Loaded before every test file (vitest.shared.ts). Property tests run with a fresh random seed every
// time; a failure names its seed and path together with the command that replays exactly that case:
//   FC_SEED=<seed> FC_PATH=<path> npx vitest run <file> -t '<test name>'   (in the package's folder)
// FC_NUM_RUNS raises (or lowers) the number of runs of every property for a longer hunt.
import fc from 'fast-check';
import { expect } from 'vitest';

function replayHint(details: fc.RunDetails<unknown>): string {
  const state = expect.getState();
  const file = state.testPath === undefined ? '<file>' : state.testPath.replace(`${process.cwd()}/`, '');
  const name = (state.currentTestName ?? '').split(' > ').pop() ?? '';
  const path = details.counterexamplePath === null ? '' : ` FC_PATH=${details.counterexamplePath}`;
  return `Replay: FC_SEED=${details.seed}${path} npx vitest run ${file} -t ${JSON.stringify(name)}   (in ${process.cwd()})`;
}

function fail(message: string | undefined, details: fc.RunDetails<unknown>): void {
  if (message === undefined) return;
  const error = new Error(`${message}\n\n${replayHint(details)}`);
  if (details.errorInstance instanceof Error) error.cause = details.errorInstance;
  throw error;
}

const seed = process.env['FC_SEED'];
const path = process.env['FC_PATH'];
const numRuns = process.env['FC_NUM_RUNS'];
fc.configureGlobal({
  ...(seed === undefined || seed === '' ? {} : { seed: Number(seed) }),
  ...(path === undefined || path === '' ? {} : { path, endOnFailure: true }),
  ...(numRuns === undefined || numRuns === '' ? {} : { numRuns: Number(numRuns) }),
  // One reporter for both kinds: fast-check refuses a second, async one beside it.
  reporter: (details) => fail(fc.defaultReportMessage(details), details),
});
