import type { Server } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { toolCallRecorder } from './activity/tool-call-activity.js';
import { secretDigest } from './auth/secret-digest.js';
import { storedTokenCollisions } from './auth/stored-token-collisions.js';
import type { ResolvedConfig } from './config/gateway-config.js';
import { allowedServersOf, createAgentTokenLookup, sha256Hex, type HashedAgentToken } from './http/agent-token-lookup.js';
import { healthzRoute } from './http/healthz-route.js';
import { parseHostEntry } from './http/host-entry.js';
import type { ConfiguredAuthorities } from './http/host-origin-guard.js';
import { startHttpServer, type RunningHttpServer } from './http/http-server.js';
import { isLoopbackHost } from './http/loopback-host.js';
import { parseListenAddress } from './http/listen-address.js';
import { mcpRoute } from './http/mcp-route.js';
import { createGatewayMcpServer, gatewayListing, type GatewayMcpOptions } from './mcp/gateway-mcp-server.js';
import { relayCatalogChanges } from './mcp/catalog-notifier.js';
import { watchListenSubscriptions } from './mcp/listen-resource-subscriptions.js';
import { createMcpEndpoint, type McpEndpoint } from './mcp/mcp-endpoint.js';
import { namespacedUri } from './mcp/namespaced-uri.js';
import { InputFlows } from './mcp/input-flows.js';
import { ResourceSubscriptions } from './mcp/resource-subscriptions.js';
import { CLIENT_ANSWER_TIMEOUT_MS } from './mcp/session-client-requests.js';
import type { McpIdentity } from './mcp/mcp-identity.js';
import { gatewayServerInfo } from './mcp/server-info.js';
import { notifyToolListChanges, type NotifiableSession } from './mcp/tools-changed-notifier.js';
import { createPreflightSeam } from './preflight/preflight-seam.js';
import { restApiRoute } from './rest/rest-api.js';
import { startRuntime, type GatewayRuntime } from './state/gateway-runtime.js';
import { openStore, type Store } from './store/store.js';
import type { WaitClock } from './preflight/wait-clock.js';

export interface GatewayOptions {
  /** Serve MCP on this process's stdin/stdout instead of HTTP (`serve --stdio`). */
  readonly stdio?: boolean;
  /** Operational messages (never on stdout in stdio mode). */
  readonly log?: (line: string) => void;
  /** Wraps the opened store (tests inject one that fails on purpose); the wrapper's close() must close the store. */
  readonly wrapStore?: (store: Store) => Store;
  /** What ends an upstream's overload window (tests move it by hand; default the real clock). */
  readonly clock?: WaitClock;
}

export interface RunningGateway {
  /** The MCP endpoint URL (HTTP mode), e.g. http://127.0.0.1:8080/mcp. */
  readonly url?: string;
  /** Origin of the HTTP listener (HTTP mode). */
  readonly origin?: string;
  readonly runtime: GatewayRuntime;
  close(): Promise<void>;
}

export type GatewayStartErrorCode = 'data_dir_locked' | 'store_open_failed' | 'credential_conflict' | 'listen_invalid' | 'listen_failed';
export interface GatewayStartError {
  readonly code: GatewayStartErrorCode;
  readonly message: string;
}

export type GatewayStart = { readonly ok: true; readonly gateway: RunningGateway } | { readonly ok: false; readonly error: GatewayStartError };

/**
 * The composition root: opens the store (taking the data-dir lock), starts the runtime (upstreams
 * connect in the background), then serves over HTTP on config.listen (MCP at /mcp and /mcp/p/<profile>,
 * REST under /api/v1, /healthz) or MCP over stdio.
 */
export async function startGateway(config: ResolvedConfig, options: GatewayOptions = {}): Promise<GatewayStart> {
  const listen = parseListenAddress(config.listen);
  if (!options.stdio && !listen.ok) return { ok: false, error: { code: 'listen_invalid', message: `listen: ${listen.message}` } };
  // Without require_mcp_auth a request without a token sees every configured server, which is safe on
  // loopback only: reachable from the network, /mcp would hand every upstream tool to anyone.
  if (!options.stdio && listen.ok && !config.require_mcp_auth && !isLoopbackHost(listen.address.host)) {
    return {
      ok: false,
      error: {
        code: 'listen_invalid',
        message: `listen: ${config.listen} is reachable from the network, and without require_mcp_auth /mcp serves every configured server to callers without a token; set "require_mcp_auth": true (agent tokens on /mcp) or listen on 127.0.0.1`,
      },
    };
  }

  const opened = openStore(config.data_dir, { walLimitBytes: config.store_wal_limit_bytes });
  if (!opened.ok) return { ok: false, error: { code: opened.error.code, message: opened.error.message } };
  const store = options.wrapStore === undefined ? opened.store : options.wrapStore(opened.store);
  const conflict = await credentialConflict(config, store);
  if (conflict !== undefined) {
    store.close();
    return { ok: false, error: conflict };
  }
  const serverInfo = gatewayServerInfo();
  let runtime: GatewayRuntime;
  try {
    runtime = await startRuntime(config, store, {
      // Upstreams see the gateway under its own name and version.
      clientInfo: { name: serverInfo.name, version: serverInfo.version },
      log: (line) => options.log?.(`runtime: ${line}`),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    });
  } catch (error) {
    // The persisted state could not be read: give the data directory back, report, never throw.
    store.close();
    return { ok: false, error: { code: 'store_open_failed', message: `cannot read the gateway state from ${config.data_dir}: ${asError(error).message}` } };
  }
  const onError = (error: Error) => options.log?.(`mcp: ${error.message}`);
  // The one preflight seam every surface calls: REST, and the in-band surfaces of the MCP extension.
  const preflight = createPreflightSeam({ runtime, activity: store });
  // Upstream resource subscriptions, counted across every client (the upstream connections are shared).
  const subscriptions = new ResourceSubscriptions((server, uri, on) => runtime.setResourceSubscribed(server, uri, on), namespacedUri);
  const surface: GatewayMcpOptions = {
    runtime,
    pageSize: config.page_size,
    serverInfo,
    recordToolCall: toolCallRecorder(store, options.log),
    preflight,
    resourceSubscriptions: subscriptions,
    // 2026-07-28 calls whose upstream asked for input wait here for the client's retry.
    inputFlows: new InputFlows({ idleMs: CLIENT_ANSWER_TIMEOUT_MS, max: 1000 }),
  };

  if (options.stdio) return { ok: true, gateway: serveOverStdio(surface, runtime, store, onError) };

  let modernUpdates: McpEndpoint['notifyModernResourceUpdated'] = () => undefined;
  const endpoint = createMcpEndpoint({
    createServer: (context) => createGatewayMcpServer(surface, context),
    onError,
    watchListen: watchListenSubscriptions(subscriptions, runtime, (uri) => modernUpdates(uri)),
  });
  modernUpdates = (uri) => endpoint.notifyModernResourceUpdated(uri);
  const tokens = createAgentTokenLookup(configTokens(config), store);
  const rest = restApiRoute({
    runtime,
    store,
    preflight,
    credentials: { adminKey: secretDigest(config.api_key), tokens },
    configTokens: config.agent_tokens,
    // A revoked token's requests are refused from now on; what it already holds open ends too.
    onTokenRevoked: (name) => endpoint.closeToken(name),
    onError: (e) => options.log?.(`rest: ${asError(e).message}`),
  });
  const policy = {
    tokens,
    requireAuth: config.require_mcp_auth,
    profileExists: (name: string) => runtime.current().snapshot.profiles.has(name),
  };
  let http: RunningHttpServer;
  try {
    http = await startHttpServer({ listen: listen.ok ? listen.address : { host: '127.0.0.1', port: 0 }, routes: [healthzRoute, rest, mcpRoute(endpoint, policy, onError)], allowed: configuredAuthorities(config), onError: (e) => onError(asError(e)) });
  } catch (error) {
    await endpoint.close();
    await shutDown(runtime, store);
    return { ok: false, error: { code: 'listen_failed', message: `cannot listen on ${config.listen}: ${asError(error).message}` } };
  }
  const unsubscribe = notifyToolListChanges(
    runtime,
    gatewayListing,
    {
      sessions: () => endpoint.legacySessions(),
      notifyModern: () => endpoint.notifyModernToolsChanged(),
      hasModernListeners: () => endpoint.hasModernListeners(),
    },
    onError,
  );
  const stopCatalog = relayCatalogChanges(
    runtime,
    {
      sessions: () => endpoint.legacySessions(),
      modern: {
        resourcesChanged: () => endpoint.notifyModernResourcesChanged(),
        promptsChanged: () => endpoint.notifyModernPromptsChanged(),
        hasListeners: () => endpoint.hasModernListeners(),
      },
    },
    subscriptions,
    onError,
  );
  return {
    ok: true,
    gateway: {
      url: `${http.origin}/mcp`,
      origin: http.origin,
      runtime,
      close: once(async () => {
        unsubscribe();
        stopCatalog();
        await endpoint.close();
        await http.close();
        await shutDown(runtime, store);
      }),
    },
  };
}

function serveOverStdio(surface: GatewayMcpOptions, runtime: GatewayRuntime, store: Store, onError: (error: Error) => void): RunningGateway {
  // The local process that spawned us is the principal: every configured server is in scope.
  const identity: McpIdentity = { key: 'stdio', scope: { allowed_servers: '*' } };
  const sessions = new Set<NotifiableSession>();
  const handle = serveStdio(
    (ctx) => {
      const server: Server = createGatewayMcpServer(surface, { identity, era: ctx.era });
      if (ctx.era === 'legacy') {
        const session = { identity, server };
        sessions.add(session);
        const closed = server.onclose;
        server.onclose = () => {
          closed?.();
          sessions.delete(session);
        };
      }
      return server;
    },
    { onerror: onError },
  );
  const unsubscribe = notifyToolListChanges(runtime, gatewayListing, { sessions: () => sessions }, onError);
  const stopCatalog = surface.resourceSubscriptions === undefined ? () => undefined : relayCatalogChanges(runtime, { sessions: () => sessions }, surface.resourceSubscriptions, onError);
  return {
    runtime,
    close: once(async () => {
      unsubscribe();
      stopCatalog();
      await handle.close();
      await shutDown(runtime, store);
    }),
  };
}

/** allowed_hosts as parsed entries (the config loader has already refused a bad one). */
function configuredAuthorities(config: ResolvedConfig): ConfiguredAuthorities {
  const hosts = config.allowed_hosts.flatMap((text) => {
    const parsed = parseHostEntry(text);
    return parsed.ok ? [parsed.entry] : [];
  });
  return { hosts, origins: config.allowed_origins };
}

/** A configured secret that a run-time token in the store already uses, as a start error. */
async function credentialConflict(config: ResolvedConfig, store: Store): Promise<GatewayStartError | undefined> {
  let stored;
  try {
    stored = await store.listAgentTokens();
  } catch (error) {
    return { code: 'store_open_failed', message: `cannot read the agent tokens from ${config.data_dir}: ${asError(error).message}` };
  }
  const lines = storedTokenCollisions({ adminKey: config.api_key, tokens: configTokens(config) }, stored);
  if (lines.length === 0) return undefined;
  return { code: 'credential_conflict', message: lines.map((line) => `${config.source}: ${line} (in the store at ${config.data_dir})`).join('\n') };
}

function configTokens(config: ResolvedConfig): HashedAgentToken[] {
  return (config.agent_tokens ?? []).flatMap((token) => {
    const sha256 = token.token_sha256 ?? (token.token === undefined ? undefined : sha256Hex(token.token));
    if (sha256 === undefined) return [];
    return [{ name: token.name, sha256, allowed_servers: allowedServersOf(token.allowed_servers), ...(token.profile === undefined ? {} : { profile: token.profile }) }];
  });
}

async function shutDown(runtime: GatewayRuntime, store: Store): Promise<void> {
  await runtime.close();
  store.close();
}

function once(action: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= action());
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
