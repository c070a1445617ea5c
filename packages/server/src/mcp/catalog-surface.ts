import type { Scope } from '@mcpproxy/evaluator';
import {
  isInputRequiredResult,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type GetPromptResult,
  type ReadResourceResult,
  type CompleteRequest,
  type CompleteResult,
  type ProtocolEra,
  type Server,
  type ServerCapabilities,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { GatewayRuntime } from '../state/gateway-runtime.js';
import { RuntimeError } from '../state/runtime-error.js';
import type { ForwardedMethod } from '../upstream/upstream-connection.js';
import { catalogPage } from './catalog-page.js';
import { forwardAskingClient, type ClientInput } from './client-input.js';
import type { InputFlows } from './input-flows.js';
import { catalogRefusal, catalogServers, refusalSentence, type CatalogFeature } from './catalog-servers.js';
import { downstreamRelay } from './downstream-relay.js';
import type { McpSessionContext } from './mcp-identity.js';
import { namespacedName, namespacedUri, upstreamName, upstreamUri } from './namespaced-uri.js';
import type { ResourceSubscriber, ResourceSubscriptions } from './resource-subscriptions.js';
import { storeUnreachableError } from './store-unreachable-refusal.js';

/** The part of the runtime the catalog reads: the published state, and the way to an upstream. */
export type CatalogRuntime = Pick<GatewayRuntime, 'current' | 'forwardRequest' | 'upstreamCapabilities'>;

export interface CatalogOptions {
  readonly runtime: CatalogRuntime;
  /** Shared by every server instance: who is subscribed to which upstream resource. */
  readonly subscriptions: ResourceSubscriptions;
  /** 2026-07-28 reads and prompt gets waiting for their client's input (see client-input.ts). */
  readonly inputFlows?: InputFlows;
  /**
   * False while the shared store cannot be reached: reads and prompt gets are refused like tool calls
   * (this replica may have missed a quarantine or a disabled server decided on another one). Listings,
   * completions and subscriptions go on, as tools/list does. Absent: always reachable.
   */
  readonly storeReachable?: () => boolean;
}

/**
 * What the gateway serves of resources, prompts, completion and logging, per revision. Subscriptions
 * are per session on 2025-11-25 (resources/subscribe) and per listen stream on 2026-07-28
 * (`resourceSubscriptions`); log messages go to 2025-11-25 sessions only, since 2026-07-28 carries them
 * only inside a request and an upstream's log message cannot be tied to one.
 */
export function catalogCapabilities(era: ProtocolEra): ServerCapabilities {
  return {
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    completions: {},
    ...(era === 'legacy' ? { logging: {} } : {}),
  };
}

/**
 * Serves the upstreams' resources, resource templates, prompts and completions on one server
 * instance, aggregated like tools: prompts and the names of resources as `server:name`, resource URIs
 * as `mcpproxy://<server>/<upstream URI>` (namespaced-uri.ts), in server order, each request forwarded
 * to the one upstream its name or URI belongs to. The gates of catalog-servers.ts apply.
 */
export function attachCatalog(server: Server, options: CatalogOptions, context: McpSessionContext): void {
  const { runtime } = options;
  const scope = context.identity.scope;
  server.registerCapabilities(catalogCapabilities(context.era));
  const serving = (feature: CatalogFeature) => catalogServers(runtime.current(), scope, feature, (name) => runtime.upstreamCapabilities(name));
  const forward = <M extends ForwardedMethod>(name: string, method: M, params: Record<string, unknown>, ctx: ServerContext) =>
    runtime.forwardRequest(name, method, params, relayOptions(ctx)).catch((error: unknown) => {
      throw forwardFailure(error);
    });

  server.setRequestHandler('resources/list', async (request, ctx) => {
    const page = await catalogPage(serving('resources'), request.params?.cursor, async (name, cursor) => {
      const result = await forward(name, 'resources/list', cursorParams(cursor), ctx);
      return { items: result.resources.map((resource) => ({ ...resource, uri: namespacedUri(name, resource.uri), name: namespacedName(name, resource.name) })), ...next(result.nextCursor) };
    });
    return { resources: page.items, ...next(page.nextCursor) };
  });

  server.setRequestHandler('resources/templates/list', async (request, ctx) => {
    const page = await catalogPage(serving('resources'), request.params?.cursor, async (name, cursor) => {
      const result = await forward(name, 'resources/templates/list', cursorParams(cursor), ctx);
      const items = result.resourceTemplates.map((template) => ({ ...template, uriTemplate: namespacedUri(name, template.uriTemplate), name: namespacedName(name, template.name) }));
      return { items, ...next(result.nextCursor) };
    });
    return { resourceTemplates: page.items, ...next(page.nextCursor) };
  });

  server.setRequestHandler('prompts/list', async (request, ctx) => {
    const page = await catalogPage(serving('prompts'), request.params?.cursor, async (name, cursor) => {
      const result = await forward(name, 'prompts/list', cursorParams(cursor), ctx);
      return { items: result.prompts.map((prompt) => ({ ...prompt, name: namespacedName(name, prompt.name) })), ...next(result.nextCursor) };
    });
    return { prompts: page.items, ...next(page.nextCursor) };
  });

  // A read or a prompt may make the upstream ask the client for input, like a tool call.
  const askingClient = <M extends 'resources/read' | 'prompts/get'>(name: string, method: M, params: Record<string, unknown>, requestKey: string, ctx: ServerContext) => {
    const input: ClientInput = { server, ctx, era: context.era, identityKey: context.identity.key, ...(options.inputFlows === undefined ? {} : { flows: options.inputFlows }) };
    const run = forwardAskingClient(input, requestKey, (signal, relay) => runtime.forwardRequest(name, method, params, { signal, relay }));
    return run().catch((error: unknown) => {
      throw forwardFailure(error);
    });
  };

  // Refused like a tool call while the shared store is unreachable, and before the gates: a stale copy of
  // them could refuse what another replica has since allowed. Every round of a read or a prompt is gated
  // (a 2026-07-28 retry too, unlike a tool call's), so every round is refused.
  const refuseWhileStoreUnreachable = (what: string): void => {
    if (options.storeReachable?.() === false) throw storeUnreachableError(what);
  };

  server.setRequestHandler('resources/read', async (request, ctx) => {
    refuseWhileStoreUnreachable(`Resource ${request.params.uri}`);
    const target = resourceTarget(request.params.uri, 'resources', scope, runtime);
    const result = await askingClient(target.server, 'resources/read', { uri: target.uri }, `resources/read\n${request.params.uri}`, ctx);
    if (isInputRequiredResult(result)) return result;
    const read = result as ReadResourceResult;
    // The contents name the resource they belong to: in the gateway's names, like the listing.
    return { ...read, contents: read.contents.map((content) => ({ ...content, uri: namespacedUri(target.server, content.uri) })) };
  });

  server.setRequestHandler('prompts/get', async (request, ctx) => {
    refuseWhileStoreUnreachable(`Prompt ${request.params.name}`);
    const target = promptTarget(request.params.name, scope, runtime);
    const { arguments: args } = request.params;
    return (await askingClient(target.server, 'prompts/get', { name: target.name, ...(args === undefined ? {} : { arguments: args }) }, `prompts/get\n${request.params.name}`, ctx)) as GetPromptResult;
  });

  server.setRequestHandler('completion/complete', async (request, ctx) => complete(request.params, ctx));

  async function complete(params: CompleteRequest['params'], ctx: ServerContext): Promise<CompleteResult> {
    const { ref } = params;
    let target: { server: string; ref: CompleteRequest['params']['ref'] };
    if (ref.type === 'ref/prompt') {
      const prompt = promptTarget(ref.name, scope, runtime);
      target = { server: prompt.server, ref: { ...ref, name: prompt.name } };
    } else {
      const template = resourceTarget(ref.uri, 'resources', scope, runtime);
      target = { server: template.server, ref: { ...ref, uri: template.uri } };
    }
    // An upstream that offers no completion has no suggestions: an empty answer, not an error.
    if (runtime.upstreamCapabilities(target.server)?.completions === undefined) return { completion: { values: [] } };
    const { argument, context: completionContext } = params;
    return forward(target.server, 'completion/complete', { ref: target.ref, argument, ...(completionContext === undefined ? {} : { context: completionContext }) }, ctx);
  }

  if (context.era === 'legacy') {
    // A 2025-11-25 session subscribes for itself; its subscriptions end with it.
    const subscriber: ResourceSubscriber = {
      deliver: (uri) => {
        server.sendResourceUpdated({ uri }).catch(() => undefined);
      },
    };
    server.setRequestHandler('resources/subscribe', async (request) => {
      const target = resourceTarget(request.params.uri, 'resources', scope, runtime);
      if (runtime.upstreamCapabilities(target.server)?.resources?.subscribe !== true) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource subscriptions are not offered by server ${target.server}: ${request.params.uri}`);
      }
      options.subscriptions.add(subscriber, target.server, target.uri);
      return {};
    });
    server.setRequestHandler('resources/unsubscribe', async (request) => {
      const target = upstreamUri(request.params.uri);
      if (target !== undefined) options.subscriptions.remove(subscriber, target.server, target.uri);
      return {};
    });
    const closed = server.onclose;
    server.onclose = () => {
      closed?.();
      options.subscriptions.removeAll(subscriber);
    };
  }
}

/** The server and upstream URI behind a gateway URI this caller may use, or the error it gets. */
export function resourceTarget(uri: string, feature: CatalogFeature, scope: Scope, runtime: CatalogRuntime): { server: string; uri: string } {
  const target = upstreamUri(uri);
  if (target === undefined) throw new ResourceNotFoundError(uri);
  const refusal = catalogRefusal(runtime.current(), scope, target.server);
  if (refusal === 'unknown' || (refusal === undefined && runtime.upstreamCapabilities(target.server)?.[feature] === undefined)) throw new ResourceNotFoundError(uri);
  if (refusal !== undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Resource ${uri} is not available: ${refusalSentence(refusal, target.server)}`, { uri });
  return target;
}

function promptTarget(name: string, scope: Scope, runtime: CatalogRuntime): { server: string; name: string } {
  const target = upstreamName(name);
  const refusal = target === undefined ? 'unknown' : catalogRefusal(runtime.current(), scope, target.server);
  if (target === undefined || refusal === 'unknown' || (refusal === undefined && runtime.upstreamCapabilities(target.server)?.prompts === undefined)) {
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown prompt: ${name} (prompts are named server:prompt)`, { name });
  }
  if (refusal !== undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Prompt ${name} is not available: ${refusalSentence(refusal, target.server)}`, { name });
  return target;
}

function relayOptions(ctx: ServerContext): { signal: AbortSignal; relay?: NonNullable<ReturnType<typeof downstreamRelay>> } {
  const relay = downstreamRelay(ctx);
  return { signal: ctx.mcpReq.signal, ...(relay === undefined ? {} : { relay }) };
}

/** The upstream's own JSON-RPC error stays that error; failing to reach it is an internal error that says why. */
function forwardFailure(error: unknown): Error {
  if (error instanceof ProtocolError) return error;
  if (error instanceof RuntimeError) return new ProtocolError(ProtocolErrorCode.InternalError, error.message);
  return error instanceof Error ? error : new Error(String(error));
}

function cursorParams(cursor: string | undefined): Record<string, unknown> {
  return cursor === undefined ? {} : { cursor };
}

function next(cursor: string | undefined): { nextCursor?: string } {
  return cursor === undefined ? {} : { nextCursor: cursor };
}
