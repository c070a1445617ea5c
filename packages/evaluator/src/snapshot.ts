// The immutable view of the gateway's local state that one evaluation reads. The gateway
// publishes a new snapshot on every state change; nothing here is ever mutated.

export type ConnectionState =
  | 'connecting'
  | 'discovering'
  | 'authenticating'
  | 'pending_auth'
  | 'ready'
  | 'error'
  | 'disconnected';

export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** One tool as the upstream lists it (the gateway may extend this with the full definition). */
export interface IndexedTool {
  /** Upstream tool name, without the server prefix. */
  readonly name: string;
  /** 'sha256/v1:<64 hex>'. */
  readonly hash: string;
  readonly annotations?: ToolAnnotations;
}

export interface ApprovalRecord {
  readonly tool: string;
  readonly status: 'approved' | 'pending' | 'changed';
  /** The hash the operator approved. */
  readonly approved_hash?: string;
  /** The hash last seen upstream. */
  readonly current_hash?: string;
  readonly hash_schema_version: number;
  readonly user_disabled: boolean;
}

/** A ready upstream said it is overloaded; the gateway holds its calls until the backoff ends. */
export interface Saturation {
  /** What it said, as the detail shows it: 'HTTP 429', 'HTTP 503', 'JSON-RPC error -32000'. */
  readonly signal: string;
  /** The whole seconds of its Retry-After, when it sent one. */
  readonly retry_after_s?: number;
}

export interface ServerConnection {
  /** Undefined while the server has no state yet (it counts as initializing). */
  readonly state?: ConnectionState;
  readonly last_error?: string;
  readonly diagnostic_action?: 'restart' | 'login' | 'view_logs';
  /** Was ready at least once since start (its last-known tools stay served). */
  readonly ever_ready: boolean;
  /** Set while a ready upstream's overload backoff runs; read only when the state is ready. */
  readonly saturation?: Saturation;
}

export interface ServerSnapshot {
  readonly name: string;
  readonly enabled: boolean;
  readonly quarantined: boolean;
  readonly connection: ServerConnection;
  /** The index: every tool the upstream lists (including pending and changed ones), by upstream name. */
  readonly tools: ReadonlyMap<string, IndexedTool>;
  /**
   * Tools the upstream lists with a definition the gateway cannot serve (malformed, or a name listed
   * twice), by name: why. They are not in the index; a preflight names the invalid definition.
   */
  readonly invalid_tools?: ReadonlyMap<string, string>;
  /** Approval records by upstream tool name. */
  readonly approvals: ReadonlyMap<string, ApprovalRecord>;
  /** Non-empty = allow-list. */
  readonly enabled_tools: readonly string[];
  /** Deny-list. */
  readonly disabled_tools: readonly string[];
  readonly auto_approve_tool_changes: boolean;
}

export interface GatewaySnapshot {
  /** Increases on every published change. */
  readonly version: number;
  readonly tool_quarantine: boolean;
  readonly servers: ReadonlyMap<string, ServerSnapshot>;
  /** Profile name -> the names of its servers. */
  readonly profiles: ReadonlyMap<string, readonly string[]>;
}
