import type { WaitClock } from './wait-clock.js';

/** Resolves after `ms` on `clock`, or as soon as `signal` aborts (never rejects: the waiter looks at the signal itself). */
export function delay(clock: WaitClock, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted === true) {
      resolve();
      return;
    }
    const done = () => {
      cancel();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const cancel = clock.setTimer(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
