import { ProtocolError, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import type { FixtureEvents } from './fixture-events.js';
import type { AskedMethod } from './fixture-tools.js';

/**
 * A fixture tool that needs its client: it sends `method` related to the call (over HTTP on the
 * call's own stream), answers with the reply as JSON text, and records what came back, so a test
 * sees both what the client answered and what the upstream got when no client could answer.
 */
export async function runAskTool(tool: string, method: AskedMethod, params: Readonly<Record<string, unknown>> | undefined, ctx: ServerContext, events: FixtureEvents): Promise<CallToolResult> {
  try {
    const reply = await ctx.mcpReq.send({ method, ...(params === undefined ? {} : { params: { ...params } }) } as { method: 'roots/list' }, { timeout: 60_000 });
    events.record({ event: 'asked', tool, method, outcome: 'answered', detail: reply });
    return { content: [{ type: 'text', text: JSON.stringify(reply) }] };
  } catch (error) {
    const detail = error instanceof ProtocolError ? { code: error.code, message: error.message, data: error.data } : { message: error instanceof Error ? error.message : String(error) };
    events.record({ event: 'asked', tool, method, outcome: 'failed', detail });
    return { isError: true, content: [{ type: 'text', text: `${method} failed: ${JSON.stringify(detail)}` }] };
  }
}
