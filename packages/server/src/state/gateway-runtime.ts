import type { GatewaySnapshot, IndexedTool, PreparedSnapshot, ServerConnection, ServerSnapshot } from '@mcpproxy/evaluator';
import type { ProfileConfig } from '@mcpproxy/schema';
import type { CallToolResult, ResultTypeMap, ServerCapabilities, Tool } from '@modelcontextprotocol/client';
import type { ResolvedConfig, ResolvedServerConfig } from '../config/gateway-config.js';
import type { Store } from '../store/store.js';
import type { CallRelay } from '../upstream/call-relay.js';
import type { ForwardedMethod, ForwardOptions } from '../upstream/upstream-connection.js';
import type { UpstreamNotification } from '../upstream/upstream-notification.js';
import type { InvalidTool } from '../upstream/list-upstream-tools.js';
import { LiveRuntime } from './live-runtime.js';
import type { RuntimeOptions } from './live-runtime.js';
import type { ServerConfigChanges } from './server-config-changes.js';

/** The part of a reloaded configuration the runtime applies while it runs. */
export interface RuntimeReconfiguration {
  readonly servers: readonly ResolvedServerConfig[];
  readonly profiles: readonly ProfileConfig[];
}

/** One indexed tool with the definition the upstream listed (name = upstream name, unprefixed). */
export interface ServedTool extends IndexedTool {
  readonly definition: Tool;
}

export interface RuntimeServerConnection extends ServerConnection {
  /** The upstream's WWW-Authenticate from its last 401 (pending_auth), for the login remediation. */
  readonly www_authenticate?: string;
}

export interface RuntimeServerSnapshot extends ServerSnapshot {
  readonly connection: RuntimeServerConnection;
  readonly tools: ReadonlyMap<string, ServedTool>;
  /** Every listed entry that is not served (unnamed ones too), for the server's status. */
  readonly listing_problems?: readonly InvalidTool[];
  readonly transport: 'stdio' | 'http';
}

export interface RuntimeSnapshot extends GatewaySnapshot {
  readonly servers: ReadonlyMap<string, RuntimeServerSnapshot>;
}

/** Immutable, one per snapshot version: what every surface reads (never live mutable state). */
export interface PublishedState {
  readonly snapshot: RuntimeSnapshot;
  readonly prepared: PreparedSnapshot;
}

export interface GatewayRuntime {
  /** O(1): the last published state. */
  current(): PublishedState;
  /** Called after every publish; returns the unsubscribe function. */
  subscribe(listener: (state: PublishedState) => void): () => void;
  /**
   * Forwards a call to the upstream and returns its result unchanged (tool errors included).
   * The caller has already gated it; this refuses only what must never reach an upstream
   * (unknown, disabled or quarantined server, a tool the server does not list, no live connection)
   * by rejecting with a RuntimeError (runtime-error.ts). `signal` cancels the upstream call;
   * `relay` carries the upstream's progress back to the caller.
   */
  callTool(server: string, tool: string, args: Record<string, unknown> | undefined, signal?: AbortSignal, relay?: CallRelay): Promise<CallToolResult>;
  /**
   * Forwards a resources, prompts or completion request to a server's upstream and returns its answer.
   * Refuses, with a RuntimeError, an unknown, disabled or quarantined server and one not connected;
   * the caller has already applied its scope.
   */
  forwardRequest<M extends ForwardedMethod>(server: string, method: M, params: Record<string, unknown>, options: ForwardOptions): Promise<ResultTypeMap[M]>;
  /** What a server's upstream declared on its live connection (undefined while it is not connected). */
  upstreamCapabilities(server: string): ServerCapabilities | undefined;
  /** Keeps a server's upstream subscribed to a resource URI (its own URI) or not, across reconnects. */
  setResourceSubscribed(server: string, uri: string, on: boolean): void;
  /** Called for every list change, resource update and log message an upstream sends; returns the unsubscribe function. */
  onUpstreamNotification(listener: (server: string, notification: UpstreamNotification) => void): () => void;
  /** Every JSON-RPC message sent to any upstream since start (for zero-I/O tests). */
  upstreamMessageCount(): number;
  /** Requests forwarded to upstreams and not yet answered, cancelled or failed (nothing may linger). */
  upstreamInFlight(): number;
  /** Unquarantining approves the server's current tools as the baseline. */
  setQuarantined(server: string, on: boolean): Promise<void>;
  setEnabled(server: string, on: boolean): Promise<void>;
  restart(server: string): Promise<void>;
  /** An HTTP upstream's stored login can no longer be used: it waits for a new one (pending_auth). */
  loginNeeded(server: string, reason: string): void;
  approveTools(server: string, tools: readonly string[] | 'all-pending'): Promise<void>;
  setToolDisabled(server: string, tool: string, disabled: boolean): Promise<void>;
  /**
   * Applies a reloaded configuration's servers and profiles: added servers connect, removed ones are
   * stopped and leave the snapshot, a server whose connection settings changed reconnects, one whose
   * gates changed keeps its connection; every other server is untouched. Approvals and run-time
   * overrides stay in the store. Rejects (changing nothing) when the store cannot be read or written.
   */
  reconfigure(next: RuntimeReconfiguration): Promise<ServerConfigChanges>;
  close(): Promise<void>;
}

/**
 * Starts the runtime on a resolved config and an open store. Returns as soon as the persisted
 * state is loaded and the first snapshot is published; upstreams connect in the background.
 */
export function startRuntime(config: ResolvedConfig, store: Store, options?: RuntimeOptions): Promise<GatewayRuntime> {
  return LiveRuntime.start(config, store, options);
}

export type { RuntimeOptions, ServerConfigChanges };
