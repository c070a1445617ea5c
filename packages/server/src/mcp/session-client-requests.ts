import type { Result, Server, ServerContext } from '@modelcontextprotocol/server';
import type { CallRelay } from '../upstream/call-relay.js';
import { missingCapability } from './client-capability-gap.js';
import { clientAnswerFailure, serverRequestRefusal } from './server-request-refusal.js';

/** How long a client may take to answer (a person may be answering an elicitation). */
export const CLIENT_ANSWER_TIMEOUT_MS = 600_000;

/**
 * 2025-11-25 (HTTP session or stdio): the upstream's sampling, elicitation or roots request goes to
 * the client as a real request related to its call (on 2025-11-25 HTTP it rides the call's own POST
 * stream), when the client declared the capability at initialize; its answer goes back upstream.
 */
export function askSessionClient(server: Server, ctx: ServerContext): NonNullable<CallRelay['onServerRequest']> {
  return async (request, signal): Promise<Result> => {
    const missing = missingCapability(request, server.getClientCapabilities());
    if (missing !== undefined) throw serverRequestRefusal(request.method, `the client whose call caused it did not declare the ${missing} capability`, 'capability_missing');
    try {
      return await ctx.mcpReq.send({ method: request.method, ...(request.params === undefined ? {} : { params: request.params }) } as { method: 'roots/list' }, {
        signal: AbortSignal.any([signal, ctx.mcpReq.signal]),
        timeout: CLIENT_ANSWER_TIMEOUT_MS,
      });
    } catch (error) {
      throw clientAnswerFailure(request.method, error);
    }
  };
}
