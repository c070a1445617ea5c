import type { ProgressToken, ServerContext } from '@modelcontextprotocol/server';
import type { CallRelay } from '../upstream/call-relay.js';

/**
 * The relay of one downstream request that the gateway forwards upstream. When the client asked for
 * progress (`_meta.progressToken`), the upstream's progress comes back to it as notifications/progress
 * under the client's own token, related to its request: on 2025-11-25 on that request's stream (or
 * stdio), on 2026-07-28 on the request's own POST response, which becomes an event stream for it.
 * Without a token the upstream is not asked for progress at all.
 */
export function downstreamRelay(ctx: ServerContext): CallRelay | undefined {
  const token = progressTokenOf(ctx.mcpReq._meta);
  if (token === undefined) return undefined;
  return {
    onprogress: (progress) => {
      // A client that went away simply hears nothing more; its request is being cancelled.
      ctx.mcpReq.notify({ method: 'notifications/progress', params: { ...progress, progressToken: token } }).catch(() => undefined);
    },
  };
}

function progressTokenOf(meta: Readonly<Record<string, unknown>> | undefined): ProgressToken | undefined {
  if (meta === undefined || !Object.hasOwn(meta, 'progressToken')) return undefined;
  const token = meta['progressToken'];
  return typeof token === 'string' || typeof token === 'number' ? token : undefined;
}
