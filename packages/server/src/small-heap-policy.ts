import { constants, PerformanceObserver } from 'node:perf_hooks';
import { startingServers } from './mcp/first-listing-wait.js';
import type { GatewayRuntime } from './state/gateway-runtime.js';
import { setRuntimeV8Flag } from './v8-runtime-flags.js';

/**
 * The V8 flags a gateway process runs with, set at run time by the start command itself
 * (serveUntilStopped), so `node serve.js`, the `mcpproxy` bin and any launcher get them alike; no
 * command line or NODE_OPTIONS has to carry them (NODE_OPTIONS refuses them anyway). V8 reads both
 * whenever it sizes the heap, so setting them after start takes effect from the next collection on.
 * The package's `serve` bin sets them before it loads the gateway's modules (bin/serve.ts): a young
 * generation grown by that first burst would stay grown.
 *
 * Why: a gateway's heap is mostly a few long-lived structures (the indexed listing, its prepared
 * bytes, the suggestion index) built in one burst at start-up, when every upstream's listing is
 * parsed, validated, hashed and serialized at once. With V8's defaults that burst leaves the young
 * generation at its 2 x 16 MiB maximum and the old generation committed far above what stays live
 * (10,000 tools: 107 MiB committed for ~56 MiB live, RSS ~194-199 MiB once the first full listing is
 * answered). BENCHMARKS.md, "Where the 10,000-tool RSS goes", has the measurements.
 *
 * - `--semi-space-growth-factor=1`: the young generation stays at its initial 1 MiB semi-spaces
 *   instead of growing to 16 MiB each. Its cost was not measurable (CPU per listing the same).
 * - `--optimize-for-size`, during start-up only: full collections compact sparse old-generation
 *   pages and the heap grows by small steps, so the burst ends with the old generation committed
 *   close to what is live. It costs ~20% more CPU per request while it is on, so it is turned off
 *   once every server's first listing is over (the condition the first-listing wait uses) and one
 *   more full collection has compacted what the start-up left.
 */
export const SMALL_HEAP_V8_FLAGS: readonly string[] = ['--semi-space-growth-factor=1'];
export const START_UP_V8_FLAGS: readonly string[] = ['--optimize-for-size'];

/** At the start of a gateway process, before any upstream is started. */
export function preferSmallHeap(): void {
  for (const flag of [...SMALL_HEAP_V8_FLAGS, ...START_UP_V8_FLAGS]) setRuntimeV8Flag(flag);
}

/**
 * Turns the start-up flags off once no server is still starting and one more full collection has
 * run under them (the one that compacts what the last listings left; turned off at the settle
 * itself, the 10,000-tool RSS measured 140-154 MiB instead of 131-148). Returns a function that
 * turns them off now and stops watching.
 */
export function endStartUpHeapPolicy(runtime: Pick<GatewayRuntime, 'current' | 'subscribe'>): () => void {
  let over = false;
  let unsubscribe = (): void => undefined;
  let gcWatch: PerformanceObserver | undefined;
  const finish = (): void => {
    if (over) return;
    over = true;
    unsubscribe();
    gcWatch?.disconnect();
    for (const flag of START_UP_V8_FLAGS) setRuntimeV8Flag(flag.replace(/^--/, '--no-'));
  };
  const settled = (): void => {
    if (gcWatch !== undefined || over) return;
    unsubscribe();
    gcWatch = new PerformanceObserver((entries) => {
      if (entries.getEntries().some((entry) => (entry as { readonly detail?: { readonly kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) finish();
    });
    gcWatch.observe({ entryTypes: ['gc'] });
  };
  unsubscribe = runtime.subscribe((state) => {
    if (startingServers(state).length === 0) settled();
  });
  if (startingServers(runtime.current()).length === 0) settled();
  return finish;
}
