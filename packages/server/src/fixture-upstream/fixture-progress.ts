import type { CallToolResult, ServerContext } from '@modelcontextprotocol/server';
import type { FixtureEvents } from './fixture-events.js';

/**
 * A long-running fixture tool: `steps` progress notifications `intervalMs` apart, related to the call
 * (so over HTTP they ride its own stream), then a result. A cancellation ends it at once and is
 * recorded with the request id it named, which is the gateway's id for the call, not the client's.
 */
export async function runProgressTool(tool: string, steps: number, intervalMs: number, ctx: ServerContext, events: FixtureEvents): Promise<CallToolResult> {
  const token = ctx.mcpReq._meta?.progressToken;
  const signal = ctx.mcpReq.signal;
  const cancelled = new Promise<'cancelled'>((resolve) => {
    if (signal.aborted) resolve('cancelled');
    else signal.addEventListener('abort', () => resolve('cancelled'), { once: true });
  });
  for (let step = 1; step <= steps; step++) {
    let timer: NodeJS.Timeout | undefined;
    const waited = await Promise.race([new Promise<'step'>((resolve) => (timer = setTimeout(() => resolve('step'), intervalMs))), cancelled]);
    clearTimeout(timer);
    if (waited === 'cancelled') {
      events.record({ event: 'cancelled', tool, request_id: ctx.mcpReq.id, ...(token === undefined ? {} : { progress_token: token }) });
      return { isError: true, content: [{ type: 'text', text: 'cancelled' }] };
    }
    if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: step, total: steps } });
  }
  return { content: [{ type: 'text', text: `${tool}: ${steps} steps done` }] };
}
