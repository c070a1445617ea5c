import type { GatewayRuntime } from '../state/gateway-runtime.js';

/** The part of the runtime the seam reads: the published state and its change notifications. */
export type PreflightRuntime = Pick<GatewayRuntime, 'current' | 'subscribe'>;

/**
 * Resolves when the runtime publishes a version other than `version`, when `ms` have passed, or
 * when `signal` aborts, whichever is first. Never rejects; the caller re-reads the state itself.
 */
export function nextStateChange(runtime: PreflightRuntime, version: number, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true || ms <= 0) {
      resolve();
      return;
    }
    let unsubscribe: () => void = () => undefined;
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
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
