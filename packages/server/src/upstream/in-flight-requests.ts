import type { Progress, ProgressToken } from '@modelcontextprotocol/client';
import type { CallRelay } from './call-relay.js';

/** One request the gateway has sent an upstream on a downstream caller's behalf and not yet seen answered. */
export interface InFlightRequest {
  /** The progress token the gateway gave the upstream for it (its own, never the caller's), when progress is wanted. */
  readonly progressToken?: string;
  readonly relay?: CallRelay;
}

/**
 * The forwarded requests in flight on one upstream connection. The connection is shared by every
 * downstream caller, so the gateway gives each forwarded request a progress token of its own and
 * routes the upstream's progress back by that token; the caller's token never reaches the upstream.
 *
 * Routing is done here rather than by the SDK's per-request `onprogress` because the SDK hands a
 * notification to its handler a microtask late but forgets the request's token as soon as the
 * response is read: a final progress that arrives in the same chunk as the response (usual over
 * stdio) would be dropped. An entry here lives until the caller has the answer (or gave up), so
 * nothing that arrived before the answer is lost, and nothing outlives the request.
 */
export class InFlightRequests {
  readonly #byToken = new Map<string, InFlightRequest>();
  readonly #open = new Set<InFlightRequest>();
  #next = 0;

  /** Registers a request about to be sent; `close` it whatever the outcome. */
  open(relay: CallRelay | undefined): InFlightRequest {
    const entry: InFlightRequest = relay?.onprogress === undefined ? { ...(relay === undefined ? {} : { relay }) } : { relay, progressToken: `mcpproxy-${++this.#next}` };
    this.#open.add(entry);
    if (entry.progressToken !== undefined) this.#byToken.set(entry.progressToken, entry);
    return entry;
  }

  close(entry: InFlightRequest): void {
    this.#open.delete(entry);
    if (entry.progressToken !== undefined) this.#byToken.delete(entry.progressToken);
  }

  /** A notifications/progress from the upstream: to the caller whose request carries that token, if still in flight. */
  progress(params: { readonly progressToken: ProgressToken } & Progress): void {
    const entry = typeof params.progressToken === 'string' ? this.#byToken.get(params.progressToken) : undefined;
    if (entry === undefined) return;
    const { progressToken: _upstreamToken, ...progress } = params;
    entry.relay?.onprogress?.(progress);
  }

  /** How many are in flight (a cancelled or failed request leaves none behind). */
  get size(): number {
    return this.#open.size;
  }
}
