import { setFlagsFromString } from 'node:v8';

/**
 * The V8 flag a gateway process runs with: `--optimize-for-size`. It is set at run time, by the
 * start command itself (serveUntilStopped), so `node serve.js`, the `mcpproxy` bin and any launcher
 * get it alike; no command line or NODE_OPTIONS has to carry it (NODE_OPTIONS refuses it anyway).
 *
 * Why: a gateway's heap is mostly a few long-lived structures (the indexed listing, its prepared
 * bytes, the suggestion index) built in one burst at start-up, when every upstream's listing is
 * parsed, validated, hashed and serialized at once. With V8's defaults that burst leaves the young
 * generation at its 2 x 16 MiB maximum and the old generation committed far above what stays live
 * (10,000 tools: 107 MiB committed for ~56 MiB live, RSS ~194 MiB once the first full listing is
 * answered). With the flag V8 sizes both for memory, not for allocation throughput: the young
 * generation stays at 1-2 MiB and full collections compact sparse pages, so the same start ends at
 * ~61 MiB committed and RSS ~148 MiB (BENCHMARKS.md, "Where the 10,000-tool RSS goes"). The cost is
 * more frequent, smaller collections, which the gateway's requests, answered mostly from prepared
 * bytes, hardly notice. V8 reads this flag whenever it sizes the heap, so setting it after start
 * takes effect from the next collection on.
 */
export const SMALL_HEAP_V8_FLAGS: readonly string[] = ['--optimize-for-size', '--semi-space-growth-factor=1'];

export function preferSmallHeap(): void {
  for (const flag of SMALL_HEAP_V8_FLAGS) setFlagsFromString(flag);
}
