import type { Progress, Result } from '@modelcontextprotocol/client';

/** A request an upstream sends the gateway's client while it works on a forwarded request. */
export interface UpstreamServerRequest {
  readonly method: 'sampling/createMessage' | 'elicitation/create' | 'roots/list';
  readonly params?: Record<string, unknown>;
}

/**
 * What the downstream caller of one upstream request hears while the upstream works on it. The
 * upstream connection is shared by every caller, so the SDK client gives each request a progress
 * token and an id of its own on the upstream side; the relay is how the answer finds its way back
 * under the caller's own token.
 */
export interface CallRelay {
  /** The upstream's progress on this request (its upstream token already stripped). */
  readonly onprogress?: (progress: Progress) => void;
  /**
   * A sampling, elicitation or roots request the upstream sent on behalf of this request: answered
   * by the downstream client, or refused with an error that says why. `signal` ends when the
   * upstream gives up on it.
   */
  readonly onServerRequest?: (request: UpstreamServerRequest, signal: AbortSignal) => Promise<Result>;
}
