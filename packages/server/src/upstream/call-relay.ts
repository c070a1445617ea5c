import type { Progress } from '@modelcontextprotocol/client';

/**
 * What the downstream caller of one upstream request hears while the upstream works on it. The
 * upstream connection is shared by every caller, so the SDK client gives each request a progress
 * token and an id of its own on the upstream side; the relay is how the answer finds its way back
 * under the caller's own token.
 */
export interface CallRelay {
  /** The upstream's progress on this request (its upstream token already stripped). */
  readonly onprogress?: (progress: Progress) => void;
}
