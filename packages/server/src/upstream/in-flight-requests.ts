import type { Progress, ProgressToken, RequestId } from '@modelcontextprotocol/client';
import type { CallRelay } from './call-relay.js';
import type { PausableDeadline } from './pausable-deadline.js';

/** One request the gateway has sent an upstream on a downstream caller's behalf and not yet seen answered. */
export interface InFlightRequest {
  /** The progress token the gateway gave the upstream for it (its own, never the caller's), when progress is wanted. */
  readonly progressToken?: string;
  readonly relay?: CallRelay;
  /** Its timeout, stopped while it waits on the downstream client. */
  readonly deadline?: PausableDeadline;
  /** The JSON-RPC id the SDK gave it on the upstream connection, once sent. */
  upstreamId?: RequestId;
}

/**
 * The forwarded requests in flight on one upstream connection. The connection is shared by every
 * downstream caller, so the gateway gives each forwarded request a progress token of its own and
 * routes the upstream's progress back by that token; the caller's token never reaches the upstream.
 * It also knows each request's upstream id, so that a server-to-client request the upstream relates
 * to one of them finds the caller.
 *
 * Progress is routed here rather than by the SDK's per-request `onprogress` because the SDK hands a
 * notification to its handler a microtask late but forgets the request's token as soon as the
 * response is read: a final progress that arrives in the same chunk as the response (usual over
 * stdio) would be dropped. An entry here lives until the caller has the answer (or gave up), so
 * nothing that arrived before the answer is lost, and nothing outlives the request.
 */
export class InFlightRequests {
  readonly #byToken = new Map<string, InFlightRequest>();
  readonly #byUpstreamId = new Map<RequestId, InFlightRequest>();
  readonly #open = new Set<InFlightRequest>();
  #next = 0;
  #sending: InFlightRequest | undefined;

  /** Registers a request about to be sent; `close` it whatever the outcome. */
  open(relay: CallRelay | undefined, deadline?: PausableDeadline): InFlightRequest {
    const entry: InFlightRequest = {
      ...(relay === undefined ? {} : { relay }),
      ...(relay?.onprogress === undefined ? {} : { progressToken: `mcpproxy-${++this.#next}` }),
      ...(deadline === undefined ? {} : { deadline }),
    };
    this.#open.add(entry);
    if (entry.progressToken !== undefined) this.#byToken.set(entry.progressToken, entry);
    return entry;
  }

  close(entry: InFlightRequest): void {
    this.#open.delete(entry);
    if (entry.progressToken !== undefined) this.#byToken.delete(entry.progressToken);
    if (entry.upstreamId !== undefined && this.#byUpstreamId.get(entry.upstreamId) === entry) this.#byUpstreamId.delete(entry.upstreamId);
    entry.deadline?.dispose();
  }

  /**
   * Runs `send`, which must hand the request to the SDK client; the SDK writes it to the transport
   * before `request()` returns, so the id seen by `sent` meanwhile is this entry's.
   */
  sending<T>(entry: InFlightRequest, send: () => T): T {
    this.#sending = entry;
    try {
      return send();
    } finally {
      this.#sending = undefined;
    }
  }

  /** Every message the connection writes passes here: a request written under `sending` is that entry's. */
  sent(message: { readonly id?: RequestId; readonly method?: string }): void {
    const entry = this.#sending;
    if (entry === undefined || message.method === undefined || message.id === undefined) return;
    this.#sending = undefined;
    entry.upstreamId = message.id;
    this.#byUpstreamId.set(message.id, entry);
  }

  /** The in-flight request the upstream knows by this id. */
  byUpstreamId(id: RequestId): InFlightRequest | undefined {
    return this.#byUpstreamId.get(id);
  }

  /** The requests a server-to-client request could belong to (those whose caller can be asked). */
  askable(): InFlightRequest[] {
    return [...this.#open].filter((entry) => entry.relay?.onServerRequest !== undefined);
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
