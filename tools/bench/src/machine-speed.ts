/**
 * How fast the machine runs a fixed piece of work now, in milliseconds: a second reading of how quiet
 * the machine is, beside the load average. On a shared VM whole runs have come out ~40% slower at a
 * load average under 0.6, every figure with them (the evaluator's 10-ID median read 2.5 µs in quiet
 * runs and 3.5-3.7 µs in such ones). The
 * work is one thread of serializing, parsing and hashing a fixed document, like the gateway's own work;
 * the reading is the median of a few tries, so one preemption does not decide it.
 */
import { createHash } from 'node:crypto';

/** The document every reading serializes: fixed, ~0.3 MB of JSON. */
const DOCUMENT = Array.from({ length: 2000 }, (_, i) => ({
  id: `srv${i % 10}:tool_${String(i).padStart(4, '0')}`,
  description: `Tool number ${i}, which reads and writes the things a tool does.`,
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, depth: { type: 'integer', minimum: 0 } }, required: ['path'] },
}));
const PASSES = 10;
export const SPEED_TRIES = 7;
/** Untimed runs first: a fresh process reads up to ~40% slower on its first runs while it compiles. */
export const WARM_UP_RUNS = 3;

/** One pass of the work. Returns something of it so that the engine cannot drop it. */
function work(): number {
  let kept = 0;
  for (let pass = 0; pass < PASSES; pass++) {
    const text = JSON.stringify(DOCUMENT);
    const back = JSON.parse(text) as unknown[];
    kept += back.length + createHash('sha256').update(text).digest()[0]!;
  }
  return kept;
}

/**
 * The median time of `SPEED_TRIES` runs of the fixed work, in ms, after `WARM_UP_RUNS` untimed ones.
 * `now` is the clock it reads (ms), and `run` the work: both injectable, for a test of the reading itself.
 */
export function machineSpeedMs(now: () => number = () => performance.now(), run: () => unknown = work): number {
  for (let i = 0; i < WARM_UP_RUNS; i++) run();
  const times: number[] = [];
  for (let i = 0; i < SPEED_TRIES; i++) {
    const start = now();
    run();
    times.push(now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}
