import { createMcpHandler, InMemoryServerEventBus, isLegacyRequest, type Server } from '@modelcontextprotocol/server';
import { LegacySessionRegistry, type LegacySession } from './legacy-session-registry.js';
import { ListenStreamRegistry, type ListenWatch } from './listen-stream-registry.js';
import { readJsonRequestBody } from './json-request-body.js';
import { identityAuthInfo, identityFromAuthInfo, type McpIdentity, type McpSessionContext } from './mcp-identity.js';
import { certainlyModern } from './modern-envelope-claim.js';
import { PreparedModernAnswers } from './prepared-json-modern-answers.js';
import type { ModernListingAnswer } from './prepared-modern-listing.js';
import { withoutRiderOnlyParams } from './rider-only-params.js';

export interface McpEndpointOptions {
  /** Builds one server instance: per request for 2026-07-28, per session for 2025-11-25. */
  readonly createServer: (context: McpSessionContext) => Server;
  readonly maxLegacySessions?: number;
  readonly legacySessionIdleMs?: number;
  /** Open `subscriptions/listen` streams beyond this end the oldest one of the identity that holds the most. */
  readonly maxListenStreams?: number;
  readonly onError?: (error: Error) => void;
  /**
   * Told of each 2026-07-28 `subscriptions/listen` request before its stream opens (it may narrow the
   * body); its `release` is called when the stream ends (resource subscriptions held for it).
   */
  readonly watchListen?: ListenWatch;
  /**
   * Answers the 2026-07-28 tools/list requests it can answer exactly as the server `createServer`
   * builds would, without building one (prepared-modern-listing.ts); the rest go to that server.
   */
  readonly modernListing?: ModernListingAnswer;
}

/** Both protocol revisions behind one fetch-shaped endpoint, for an identity the caller has already established. */
export interface McpEndpoint {
  fetch(request: Request, identity: McpIdentity): Promise<Response>;
  /** Open 2025-11-25 sessions (for list_changed fan-out). */
  legacySessions(): Iterable<LegacySession>;
  /** Signals open 2026-07-28 `subscriptions/listen` streams that the tool list changed. */
  notifyModernToolsChanged(): void;
  /** Whether any 2026-07-28 `subscriptions/listen` stream is open (nothing to compute for otherwise). */
  hasModernListeners(): boolean;
  /** Signals open 2026-07-28 listen streams that the resource list, or the prompt list, changed. */
  notifyModernResourcesChanged(): void;
  notifyModernPromptsChanged(): void;
  /** Tells the 2026-07-28 listen streams that named this (gateway) URI in their filter that it changed. */
  notifyModernResourceUpdated(uri: string): void;
  /** Ends every session and stream opened with this agent token (it was revoked). */
  closeToken(tokenName: string): void;
  close(): Promise<void>;
}

/** The SDK's own default cap, kept as ours: the registry now decides who goes when it is reached. */
const MAX_LISTEN_STREAMS = 1024;

export function createMcpEndpoint(options: McpEndpointOptions): McpEndpoint {
  const onError = options.onError;
  const maxListenStreams = options.maxListenStreams ?? MAX_LISTEN_STREAMS;
  const listens = new ListenStreamRegistry(maxListenStreams, options.watchListen);
  const bus = new InMemoryServerEventBus(onError);
  const prepared = new PreparedModernAnswers();
  let closed = false;
  // 2026-07-28 is stateless: a fresh instance per request, told who asks through the pass-through authInfo.
  const modern = createMcpHandler(
    (ctx) => {
      const identity = identityFromAuthInfo(ctx.authInfo);
      if (identity === undefined) throw new Error('MCP request reached the server factory without an identity');
      const server = options.createServer({ identity, era: ctx.era });
      if (ctx.requestInfo !== undefined) prepared.watch(server, ctx.requestInfo);
      return server;
    },
    // The registry keeps the count at its cap by ending a stream before the next one reaches the SDK;
    // the SDK's cap stays as a backstop one above it.
    { legacy: 'reject', bus, maxSubscriptions: maxListenStreams + 1, ...(onError === undefined ? {} : { onerror: onError }) },
  );
  const legacy = new LegacySessionRegistry({
    createServer: options.createServer,
    maxSessions: options.maxLegacySessions ?? 1000,
    idleMs: options.legacySessionIdleMs ?? 30 * 60_000,
    ...(onError === undefined ? {} : { onError }),
  });
  return {
    async fetch(request, identity) {
      const forward = async (forwarded: Request, parsedBody?: unknown) =>
        prepared.answer(forwarded, await modern.fetch(forwarded, { authInfo: identityAuthInfo(identity), ...(parsedBody === undefined ? {} : { parsedBody }) }));
      // The SDK refuses a listen whose Mcp-Method header disagrees with its body, so the header is enough.
      // A listen stream's request is re-made by the registry, so its body stays unread until then.
      if (request.method === 'POST' && request.headers.get('mcp-method')?.trim() === 'subscriptions/listen') {
        if (await isLegacyRequest(request)) return legacy.handle(request, identity);
        return listens.open(request, identity, (forwarded) => forward(forwarded));
      }
      const body = await readJsonRequestBody(request);
      switch (body.kind) {
        case 'unreadable':
          return body.response;
        case 'parsed':
          // The SDK's own routing predicate: 2025-era traffic (initialize, claim-less POSTs) goes to the
          // sessionful leg; everything else, including modern ladder errors, to the strict one. A body
          // that certainly goes to the strict one is not classified twice.
          // Once closed, the SDK's handler refuses every request; so does the endpoint, through it.
          // The predicate reads the method and the revision claims, never the extension's member of
          // `_meta`: a rider-only request is classified without its params (rider-only-params.ts), which
          // spares a schema walk of the 50 IDs (11 µs instead of 6 per classification).
          if (certainlyModern(body.value)) return (closed ? undefined : options.modernListing?.(request, body.value, identity)) ?? forward(request, body.value);
          if (await isLegacyRequest(request, withoutRiderOnlyParams(body.value)?.body ?? body.value)) return legacy.handle(request, identity, body.value);
          return forward(request, body.value);
        case 'unparsed':
        case 'untouched': {
          const unread = body.kind === 'unparsed' ? body.request : request;
          if (await isLegacyRequest(unread)) return legacy.handle(unread, identity);
          return forward(unread);
        }
      }
    },
    legacySessions: () => legacy.sessions(),
    notifyModernToolsChanged: () => modern.notify.toolsChanged(),
    hasModernListeners: () => bus.listenerCount > 0,
    notifyModernResourcesChanged: () => modern.notify.resourcesChanged(),
    notifyModernPromptsChanged: () => modern.notify.promptsChanged(),
    notifyModernResourceUpdated: (uri) => modern.notify.resourceUpdated(uri),
    closeToken(tokenName) {
      legacy.closeToken(tokenName);
      listens.closeToken(tokenName);
    },
    async close() {
      closed = true;
      await Promise.all([legacy.close(), modern.close()]);
    },
  };
}
