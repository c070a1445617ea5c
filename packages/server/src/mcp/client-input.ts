import { CLIENT_CAPABILITIES_META_KEY, inputRequired, type ClientCapabilities, type ProtocolEra, type Result, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { CallRelay } from '../upstream/call-relay.js';
import { downstreamRelay } from './downstream-relay.js';
import type { InputFlow, InputFlows } from './input-flows.js';
import { serverRequestRefusal } from './server-request-refusal.js';
import { askSessionClient } from './session-client-requests.js';

/** The request being served, as far as asking its client for input goes. */
export interface ClientInput {
  readonly server: Server;
  readonly ctx: ServerContext;
  readonly era: ProtocolEra;
  /** The caller's identity key: a 2026-07-28 retry is only good for the caller that started it. */
  readonly identityKey: string;
  /** Absent: the upstream's requests for input are refused on 2026-07-28. */
  readonly flows?: InputFlows;
}

/** Whether this is a 2026-07-28 retry (it carries the requestState of an earlier input_required). */
export function isInputRetry(input: ClientInput): boolean {
  return input.era === 'modern' && typeof input.ctx.mcpReq.requestState() === 'string';
}

/**
 * Forwards one request upstream (`start`) so that what the upstream asks on its behalf reaches this
 * client: progress under the client's token, and sampling, elicitation and roots requests as the
 * revision allows. 2025-11-25: a real request to the client, related to this one. 2026-07-28: this
 * request answers `input_required` with them and the forwarded request waits upstream for the retry
 * (input-flows.ts); `requestKey` names the request (method and name) a retry must repeat.
 *
 * A retry whose requestState names no flow of this caller and request is refused here, before
 * anything is forwarded (-32602); the returned function runs the round.
 */
export function forwardAskingClient(input: ClientInput, requestKey: string, start: (signal: AbortSignal, relay: CallRelay) => Promise<Result>): () => Promise<Result> {
  const { ctx } = input;
  const progress = downstreamRelay(ctx);
  if (input.era === 'legacy') return () => start(ctx.mcpReq.signal, { ...progress, onServerRequest: askSessionClient(input.server, ctx) });
  const flows = input.flows;
  if (flows === undefined) {
    const refuse: CallRelay['onServerRequest'] = async (request) => {
      throw serverRequestRefusal(request.method, 'this gateway holds no requests waiting for input', 'not_routable');
    };
    return () => start(ctx.mcpReq.signal, { ...progress, onServerRequest: refuse });
  }
  const state = ctx.mcpReq.requestState();
  const retry = typeof state === 'string';
  const resumed = retry ? flows.resume(state, input.identityKey, requestKey) : undefined;
  return () => round(flows, resumed ?? flows.open(input.identityKey, requestKey, start), ctx, progress?.onprogress, retry);
}

async function round(flows: InputFlows, flow: InputFlow, ctx: ServerContext, onprogress: CallRelay['onprogress'], retry: boolean): Promise<Result> {
  const envelope = ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
  const step = await flow.step({ capabilities, onprogress, ...(retry ? { responses: ctx.mcpReq.inputResponses ?? {} } : {}) }, ctx.mcpReq.signal);
  switch (step.kind) {
    case 'input':
      flows.park(flow);
      return inputRequired({ inputRequests: step.requests, requestState: flow.token });
    case 'failed':
      throw step.error;
    case 'done':
      return step.result;
  }
}
