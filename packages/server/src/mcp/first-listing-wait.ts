import type { ConnectionState } from '@mcpproxy/evaluator';
import type { WaitClock } from '../preflight/wait-clock.js';
import type { GatewayRuntime, PublishedState } from '../state/gateway-runtime.js';

/** States in which a server's first attempt is over: it listed its tools, or it failed. */
const SETTLED: ReadonlySet<ConnectionState> = new Set<ConnectionState>(['ready', 'error', 'pending_auth', 'disconnected']);

export interface FirstListingWait {
  /** While the start-up wait lasts, a promise that settles when it ends; afterwards undefined, so later listings never await. */
  pending(): Promise<void> | undefined;
  /** Ends the wait now (the gateway is closing). */
  end(): void;
}

const NO_WAIT: FirstListingWait = { pending: () => undefined, end: () => undefined };

/**
 * The start-up wait of the first tools/list (first_listing_wait_ms): it ends as soon as every
 * server whose tools could be listed (enabled, not quarantined) has settled, and at the latest
 * `boundMs` after it began. It is driven by the runtime's published states and the clock's one
 * timer, never by polling. `onBound` hears which servers were still starting when the bound hit.
 */
export function startFirstListingWait(
  runtime: Pick<GatewayRuntime, 'current' | 'subscribe'>,
  boundMs: number,
  clock: WaitClock,
  onBound?: (starting: readonly string[]) => void,
): FirstListingWait {
  if (boundMs <= 0 || startingServers(runtime.current()).length === 0) return NO_WAIT;
  let over = false;
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  let unsubscribe = (): void => undefined;
  const finish = (): void => {
    if (over) return;
    over = true;
    cancelTimer();
    unsubscribe();
    release();
  };
  const cancelTimer = clock.setTimer(() => {
    if (!over) onBound?.(startingServers(runtime.current()));
    finish();
  }, boundMs);
  unsubscribe = runtime.subscribe((state) => {
    if (startingServers(state).length === 0) finish();
  });
  return { pending: () => (over ? undefined : done), end: finish };
}

/** The servers whose tools could be listed and whose first attempt is not over yet. */
export function startingServers(state: PublishedState): string[] {
  const starting: string[] = [];
  for (const server of state.snapshot.servers.values()) {
    if (!server.enabled || server.quarantined) continue;
    const connection = server.connection.state;
    if (connection === undefined || !SETTLED.has(connection)) starting.push(server.name);
  }
  return starting;
}
