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
import { uiRoute } from './http/ui-route.js';
import { openLocalSocket, type RunningLocalSocket } from './local-socket/local-socket-server.js';
import type { SocketLocationOptions } from './local-socket/socket-location.js';
import { stdioRelayChannel } from './local-socket/stdio-relay-channel.js';
import { logLine } from './log-line.js';
import { startFirstListingWait } from './mcp/first-listing-wait.js';
import { createGatewayMcpServer, gatewayListing, gatewayModernListing, type GatewayMcpOptions } from './mcp/gateway-mcp-server.js';
import { relayCatalogChanges } from './mcp/catalog-notifier.js';
import { watchListenSubscriptions } from './mcp/listen-resource-subscriptions.js';
import { createMcpEndpoint, type McpEndpoint } from './mcp/mcp-endpoint.js';
import { namespacedUri } from './mcp/namespaced-uri.js';
import { InputFlows } from './mcp/input-flows.js';
import { ResourceSubscriptions } from './mcp/resource-subscriptions.js';
import { CLIENT_ANSWER_TIMEOUT_MS } from './mcp/session-client-requests.js';
import { gatewayServerInfo } from './mcp/server-info.js';
import { StdioSessions } from './mcp/stdio-sessions.js';
import { notifyToolListChanges } from './mcp/tools-changed-notifier.js';
import { OAuthLogins, type LoginHooks } from './oauth/oauth-logins.js';
import { createPreflightSeam } from './preflight/preflight-seam.js';
import { REAL_CLOCK, type WaitClock } from './preflight/wait-clock.js';
import { GatewayReloader, type GatewayReload } from './reload/gateway-reload.js';
import { GatewayEventFeed } from './rest/gateway-event-feed.js';
import { restApiRoute } from './rest/rest-api.js';
import { startRuntime, type GatewayRuntime } from './state/gateway-runtime.js';
import { openConfiguredStore } from './store/open-configured-store.js';
import type { StoreCoordination } from './store/store-coordination.js';
import type { Store } from './store/store.js';

export interface GatewayOptions {
  /** Serve MCP on this process's stdin/stdout instead of HTTP (`serve --stdio`). */
  readonly stdio?: boolean;
  /** Operational messages (never on stdout in stdio mode). */
  readonly log?: (line: string) => void;
  /** Wraps the opened store (tests inject one that fails on purpose); the wrapper's close() must close the store. */
  readonly wrapStore?: (store: Store) => Store;
  /** What ends an upstream's overload window and the first-listing wait (tests move it by hand; default the real clock). */
  readonly clock?: WaitClock;
  /** Where the local socket goes when `<data_dir>/gateway.sock` is too long a path (default: a private directory in the OS temp dir). */
  readonly socketLocation?: SocketLocationOptions;
  /** Serve every 2026-07-28 tools/list through the SDK's per-request server (tests compare the answers of both ways byte for byte). */
  readonly sdkModernListings?: boolean;
}

export interface RunningGateway {
  /** The MCP endpoint URL (HTTP mode), e.g. http://127.0.0.1:8080/mcp. */
  readonly url?: string;
  /** Origin of the HTTP listener (HTTP mode). */
  readonly origin?: string;
  /** The local operator socket (REST under /api/v1, the stdio relay channel), when one could be opened. */
  readonly socket?: string;
  readonly runtime: GatewayRuntime;
  /** Applies a reloaded configuration: servers and profiles now; every other changed setting is reported as needing a restart. */
  reload(next: ResolvedConfig): Promise<GatewayReload>;
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
 * connect in the background), opens the local socket in the data directory (REST under /api/v1 and
 * the stdio relay channel), then serves over HTTP on config.listen (MCP at /mcp and /mcp/p/<profile>,
 * REST under /api/v1, the operator UI under /ui, /healthz) or MCP over stdio.
 */
export async function startGateway(config: ResolvedConfig, options: GatewayOptions = {}): Promise<GatewayStart> {
  const { log } = options;
  // Every message reaches the caller's log as one line, whatever it quotes (log-line.ts).
  return startComposed(config, log === undefined ? options : { ...options, log: (line) => log(logLine(line)) });
}

async function startComposed(config: ResolvedConfig, options: GatewayOptions): Promise<GatewayStart> {
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

  const opened = await openConfiguredStore(config, (line) => options.log?.(line));
  if (!opened.ok) return { ok: false, error: { code: opened.error.code, message: opened.error.message } };
  const store = options.wrapStore === undefined ? opened.store : options.wrapStore(opened.store);
  const coordination = opened.coordination;
  const conflict = await credentialConflict(config, store);
  if (conflict !== undefined) {
    await closeStore(store, coordination);
    return { ok: false, error: conflict };
  }
  const serverInfo = gatewayServerInfo();
  const logins = new OAuthLogins({
    store,
    servers: config.servers,
    callbackPort: config.oauth_callback_port,
    clientName: serverInfo.name,
    clock: options.clock ?? REAL_CLOCK,
    log: (line) => options.log?.(line),
    // Refresh tokens rotate: gateways sharing a store refresh a server one at a time.
    exclusive: (key, section) => coordination.withExclusive(key, section),
  });
  let runtime: GatewayRuntime;
  try {
    runtime = await startRuntime(config, store, {
      // Upstreams see the gateway under its own name and version.
      clientInfo: { name: serverInfo.name, version: serverInfo.version },
      log: (line) => options.log?.(`runtime: ${line}`),
      ...(options.clock === undefined ? {} : { clock: options.clock }),
      coordination,
      oauth: logins,
    });
    await logins.start(loginHooks(() => runtime, options.log));
  } catch (error) {
    // The persisted state could not be read: give the data directory back, report, never throw.
    await logins.close();
    await closeStore(store, coordination);
    return { ok: false, error: { code: 'store_open_failed', message: `cannot read the gateway state from ${config.data_dir}: ${asError(error).message}` } };
  }
  const onError = (error: Error) => options.log?.(`mcp: ${error.message}`);
  // REST's preflight seam, and the in-band surfaces through @mcpproxy/extension: both evaluate the
  // same published state and write their activity records to the same store.
  const preflight = createPreflightSeam({ runtime, activity: store });
  // Upstream resource subscriptions, counted across every client (the upstream connections are shared).
  const subscriptions = new ResourceSubscriptions((server, uri, on) => runtime.setResourceSubscribed(server, uri, on), namespacedUri);
  const surface: GatewayMcpOptions = {
    runtime,
    pageSize: config.page_size,
    serverInfo,
    recordToolCall: toolCallRecorder(store, options.log),
    inBandActivity: (record) => store.appendActivity(record),
    extensionExperiments: config.extension_experiments,
    resourceSubscriptions: subscriptions,
    // 2026-07-28 calls whose upstream asked for input wait here for the client's retry.
    inputFlows: new InputFlows({ idleMs: CLIENT_ANSWER_TIMEOUT_MS, max: 1000 }),
    storeReachable: () => coordination.reachable(),
  };

  const log = (line: string) => options.log?.(line);
  const reloader = new GatewayReloader(config, runtime, logins);
  const reload = (next: ResolvedConfig) => reloader.reload(next);
  const tokens = createAgentTokenLookup(configTokens(config), store);
  const credentials = { adminKey: secretDigest(config.api_key), tokens };
  // Only stdio sessions wait for the first listing: their client spawned the gateway and lists at once.
  const firstListing = options.stdio ? startFirstListingWait(runtime, config.first_listing_wait_ms, options.clock ?? REAL_CLOCK, (starting) => log(`first tools/list answered after first_listing_wait_ms (${config.first_listing_wait_ms} ms) while still starting: ${starting.join(', ')}`)) : undefined;
  const stdioSessions = new StdioSessions(firstListing === undefined ? surface : { ...surface, beforeListing: () => firstListing.pending() }, runtime, onError);
  // MCP over HTTP: none in stdio mode, where the process's stdin/stdout (and relays) carry MCP.
  let modernUpdates: McpEndpoint['notifyModernResourceUpdated'] = () => undefined;
  const modernListing = options.sdkModernListings === true ? undefined : gatewayModernListing(surface);
  const mcp = options.stdio
    ? undefined
    : createMcpEndpoint({
        createServer: (context) => createGatewayMcpServer(surface, context),
        ...(modernListing === undefined ? {} : { modernListing }),
        onError,
        watchListen: watchListenSubscriptions(subscriptions, runtime, (uri) => modernUpdates(uri)),
      });
  if (mcp !== undefined) modernUpdates = (uri) => mcp.notifyModernResourceUpdated(uri);
  const events = new GatewayEventFeed(runtime);
  const rest = restApiRoute({
    runtime,
    store,
    preflight,
    credentials,
    configTokens: config.agent_tokens,
    events,
    // A revoked token's requests are refused from now on; what it already holds open ends too.
    onTokenRevoked: (name) => mcp?.closeToken(name),
    logins,
    onError: (e) => log(`rest: ${asError(e).message}`),
  });
  // A token revoked on another replica sharing the store ends what it holds open here too.
  const unwatchTokens = coordination.watch((change) => {
    if (change.topic === 'tokens' && change.revoked !== undefined) mcp?.closeToken(change.revoked);
  });
  const socket = await openOperatorSocket(config, options, [healthzRoute, rest], stdioRelayChannel({ credentials, serve: (connection) => stdioSessions.serveConnection(connection), onError: (e) => onError(asError(e)) }), log);
  const closeSurfaces = async () => {
    unwatchTokens();
    events.close();
    firstListing?.end();
    await stdioSessions.close();
    await socket?.close();
  };

  if (mcp === undefined) {
    stdioSessions.serveProcess();
    return {
      ok: true,
      gateway: {
        runtime,
        ...(socket === undefined ? {} : { socket: socket.path }),
        reload,
        close: once(async () => {
          await closeSurfaces();
          await shutDown(runtime, store, coordination, logins);
        }),
      },
    };
  }

  const policy = {
    tokens,
    requireAuth: config.require_mcp_auth,
    profileExists: (name: string) => runtime.current().snapshot.profiles.has(name),
  };
  let http: RunningHttpServer;
  try {
    http = await startHttpServer({ listen: listen.ok ? listen.address : { host: '127.0.0.1', port: 0 }, routes: [healthzRoute, rest, uiRoute(), mcpRoute(mcp, policy, onError)], allowed: configuredAuthorities(config), onError: (e) => onError(asError(e)) });
  } catch (error) {
    await mcp.close();
    await closeSurfaces();
    await shutDown(runtime, store, coordination, logins);
    return { ok: false, error: { code: 'listen_failed', message: `cannot listen on ${config.listen}: ${asError(error).message}` } };
  }
  const unsubscribe = notifyToolListChanges(
    runtime,
    gatewayListing,
    {
      sessions: () => mcp.legacySessions(),
      notifyModern: () => mcp.notifyModernToolsChanged(),
      hasModernListeners: () => mcp.hasModernListeners(),
    },
    onError,
  );
  const stopCatalog = relayCatalogChanges(
    runtime,
    {
      sessions: () => mcp.legacySessions(),
      modern: {
        resourcesChanged: () => mcp.notifyModernResourcesChanged(),
        promptsChanged: () => mcp.notifyModernPromptsChanged(),
        hasListeners: () => mcp.hasModernListeners(),
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
      ...(socket === undefined ? {} : { socket: socket.path }),
      runtime,
      reload,
      close: once(async () => {
        unsubscribe();
        stopCatalog();
        await mcp.close();
        await http.close();
        await closeSurfaces();
        await shutDown(runtime, store, coordination, logins);
      }),
    },
  };
}

/** The local socket, or undefined (and why, in the log) when none can be opened: the gateway serves on without it. */
async function openOperatorSocket(
  config: ResolvedConfig,
  options: GatewayOptions,
  routes: Parameters<typeof openLocalSocket>[0]['routes'],
  upgrade: Parameters<typeof openLocalSocket>[0]['upgrade'],
  log: (line: string) => void,
): Promise<RunningLocalSocket | undefined> {
  const opened = await openLocalSocket({
    dataDir: config.data_dir,
    routes,
    ...(upgrade === undefined ? {} : { upgrade }),
    onError: (e) => log(`local socket: ${asError(e).message}`),
    ...(options.socketLocation === undefined ? {} : { location: options.socketLocation }),
  });
  if (!opened.ok) {
    log(opened.message);
    return undefined;
  }
  if (opened.socket.note !== undefined) log(opened.socket.note);
  return opened.socket;
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

async function shutDown(runtime: GatewayRuntime, store: Store, coordination: StoreCoordination, logins: OAuthLogins): Promise<void> {
  await logins.close();
  await runtime.close();
  await closeStore(store, coordination);
}

/** Closes the store and waits until it has (a shared store writes the records it accepted first). */
async function closeStore(store: Store, coordination: StoreCoordination): Promise<void> {
  store.close();
  await coordination.closed();
}

/** What a login's outcome does to the upstream's connection. */
function loginHooks(runtime: () => GatewayRuntime, log: ((line: string) => void) | undefined): LoginHooks {
  const reconnect = async (server: string) => {
    const snapshot = runtime().current().snapshot.servers.get(server);
    // A disabled server keeps its login for when it is enabled again.
    if (snapshot === undefined || !snapshot.enabled) return;
    try {
      await runtime().restart(server);
    } catch (error) {
      log?.(`oauth: reconnecting ${server} failed: ${asError(error).message}`);
    }
  };
  return {
    loggedIn: reconnect,
    loggedOut: reconnect,
    loginNeeded: (server, reason) => runtime().loginNeeded(server, reason),
  };
}

function once(action: () => Promise<void>): () => Promise<void> {
  let done: Promise<void> | undefined;
  return () => (done ??= action());
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
