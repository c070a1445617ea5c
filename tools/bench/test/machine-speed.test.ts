// The machine-speed reading: the median of its tries, read from the clock it is given, after the
// untimed warm-up runs; and the real work, timed on the real clock, gives a figure in milliseconds.
import { describe, expect, it } from 'vitest';
import { machineSpeedMs, SPEED_TRIES, WARM_UP_RUNS } from '../src/machine-speed.js';

describe('the machine-speed reading', () => {
  it('is the median of the timed tries, the warm-up runs left out', () => {
    // Each run of the work advances the clock by the next of these; the first three are the warm-up.
    const durations = [500, 400, 300, 30, 90, 10, 40, 20, 70, 35];
    let clock = 0;
    let runs = 0;
    const speed = machineSpeedMs(
      () => clock,
      () => {
        clock += durations[runs++]!;
      },
    );
    expect(runs).toBe(WARM_UP_RUNS + SPEED_TRIES);
    expect(speed).toBe(35); // the tries took 30, 90, 10, 40, 20, 70, 35
  });

  it('times the real work in milliseconds', () => {
    const speed = machineSpeedMs();
    expect(speed).toBeGreaterThan(0);
    expect(Number.isFinite(speed)).toBe(true);
  });
});
