/**
 * The time a wait_ms wait runs on: what "now" is and how a timer fires. The gateway runs on the real
 * one; a test passes its own, moves it forward by hand and sees the exact spacing and waited_ms a
 * loaded machine's scheduling would blur.
 */
export interface WaitClock {
  /** Milliseconds. */
  now(): number;
  /** Calls `fire` once, `ms` from now; the returned function cancels it (harmless after it fired). */
  setTimer(fire: () => void, ms: number): () => void;
}

export const REAL_CLOCK: WaitClock = {
  now: () => Date.now(),
  setTimer: (fire, ms) => {
    const timer = setTimeout(fire, ms);
    return () => clearTimeout(timer);
  },
};
