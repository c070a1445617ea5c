import type { GatewayRuntime } from '../state/gateway-runtime.js';
import type { WaitClock } from './wait-clock.js';

/** The part of the runtime the seam reads: the published state and its change notifications. */
export type PreflightRuntime = Pick<GatewayRuntime, 'current' | 'subscribe'>;

/**
 * Resolves when the runtime publishes a version other than `version`, when `ms` have passed on
 * `clock`, or when `signal` aborts, whichever is first. Never rejects; the caller re-reads the state
 * itself.
 */
export function nextStateChange(runtime: PreflightRuntime, clock: WaitClock, version: number, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true || ms <= 0) {
      resolve();
      return;
    }
    let unsubscribe: () => void = () => undefined;
    let cancelTimer: () => void = () => undefined;
    const done = () => {
      cancelTimer();
      unsubscribe();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    cancelTimer = clock.setTimer(done, ms);
    unsubscribe = runtime.subscribe((state) => {
      if (state.snapshot.version !== version) done();
    });
    signal?.addEventListener('abort', done, { once: true });
    // A publish between the caller's read and this subscription would otherwise be missed.
    if (publishedVersion(runtime) !== version) done();
  });
}

/** The published version, or undefined when the state cannot be read. */
export function publishedVersion(runtime: PreflightRuntime): number | undefined {
  try {
    return runtime.current().snapshot.version;
  } catch {
    return undefined;
  }
}
