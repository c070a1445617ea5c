import type { ApprovalRecord, PreparedSnapshot } from '@mcpproxy/evaluator';
import { prepareSnapshot } from '@mcpproxy/evaluator';
import type { AuthProvider, CallToolResult } from '@modelcontextprotocol/client';
import type { ProfileConfig } from '@mcpproxy/schema';
import type { ResolvedConfig, ResolvedServerConfig } from '../config/gateway-config.js';
import type { KnownServer, ServerOverride, Store, StoredApproval } from '../store/store.js';
import { UpstreamConnection } from '../upstream/upstream-connection.js';
import type { UpstreamStatus } from '../upstream/upstream-connection.js';
import type { UpstreamSpec } from '../upstream/upstream-spec.js';
import { reviewedDefinitionText } from '../upstream/reviewed-definition.js';
import { approveListed, reconcileApprovals } from './approval-model.js';
import type { GatewayRuntime, PublishedState, RuntimeReconfiguration, RuntimeServerSnapshot, RuntimeSnapshot } from './gateway-runtime.js';
import type { WaitClock } from '../preflight/wait-clock.js';
import { RuntimeError } from './runtime-error.js';
import { serverSnapshot } from './runtime-snapshot.js';
import type { ServerState } from './runtime-snapshot.js';
import { serverConfigChanges, type ServerConfigChanges } from './server-config-changes.js';

export interface RuntimeOptions {
  /** Where background problems are reported (a failed store write, a listener that threw). */
  readonly log?: (line: string) => void;
  /** Jitter source of the reconnect backoff (tests make it deterministic). */
  readonly random?: () => number;
  readonly clientInfo?: { readonly name: string; readonly version: string };
  /** What ends an upstream's overload window (tests move it by hand). */
  readonly clock?: WaitClock;
  /** The OAuth logins of HTTP upstreams: each connection's access token and its refresh on a 401. */
  readonly oauth?: { authProvider(server: string): AuthProvider | undefined; wantScope(server: string, scope: string): void };
}

interface ServerEntry {
  /** Both replaced in place by a reload, so that an operator action holding the entry sees the new ones. */
  config: ResolvedServerConfig;
  connection: UpstreamConnection;
  enabled: boolean;
  quarantined: boolean;
  baselineApproved: boolean;
  approvals: ReadonlyMap<string, ApprovalRecord>;
  /** The tool index the approvals were last reconciled with. */
  reconciledTools: UpstreamStatus['tools'] | undefined;
  snapshot: RuntimeServerSnapshot;
}

const HOUR_MS = 3_600_000;

/**
 * The gateway's live state: one connection per enabled server, the approval model, run-time
 * overrides, and the published immutable snapshot. Every change publishes a new version; the
 * surfaces only ever read `current()`.
 */
export class LiveRuntime implements GatewayRuntime {
  private readonly servers = new Map<string, ServerEntry>();
  private readonly listeners = new Set<(state: PublishedState) => void>();
  private published: PublishedState;
  private version = 0;
  private messages = 0;
  private closed = false;
  private publishQueued = false;
  private readonly retention: NodeJS.Timeout;
  /** Profiles change with a reload; every other setting of `config` stays as the gateway started. */
  private profiles: readonly ProfileConfig[];
  /** Reloads and the operator's enable/quarantine switches run one at a time: each reads the overrides the last one wrote. */
  private serial: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly config: ResolvedConfig,
    private readonly store: Store,
    private readonly options: RuntimeOptions,
  ) {
    this.profiles = config.profiles;
    this.published = this.build();
    this.retention = setInterval(() => void this.pruneActivity(), HOUR_MS);
    this.retention.unref();
  }

  static async start(config: ResolvedConfig, store: Store, options: RuntimeOptions = {}): Promise<LiveRuntime> {
    const runtime = new LiveRuntime(config, store, options);
    await runtime.load();
    runtime.publishNow();
    for (const entry of runtime.servers.values()) if (entry.enabled) entry.connection.start();
    void runtime.pruneActivity();
    return runtime;
  }

  current(): PublishedState {
    return this.published;
  }

  subscribe(listener: (state: PublishedState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  upstreamMessageCount(): number {
    return this.messages;
  }

  async callTool(server: string, tool: string, args: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<CallToolResult> {
    const entry = this.entry(server);
    if (!entry.enabled) throw new RuntimeError('server_disabled', `server ${server} is disabled`);
    if (entry.quarantined) throw new RuntimeError('server_quarantined', `server ${server} is quarantined: its tools are never called`);
    if (!entry.connection.status().tools.has(tool)) throw new RuntimeError('unknown_tool', `server ${server} does not list a tool ${tool}`);
    return entry.connection.callTool(tool, args, signal);
  }

  setQuarantined(server: string, on: boolean): Promise<void> {
    return this.oneAtATime(() => this.applyQuarantined(server, on));
  }

  private async applyQuarantined(server: string, on: boolean): Promise<void> {
    const entry = this.entry(server);
    const override: ServerOverride = { ...(await this.overrideOf(server)), quarantined: on };
    if (!on && this.config.tool_quarantine) {
      // What the operator could review while it was quarantined becomes the approved baseline. These
      // writes come before the override: if one fails the server stays quarantined (the caller is told
      // nothing was done), and approvals saved for a server that is still quarantined make no tool usable.
      const listed = entry.connection.status();
      const index = hashIndex(listed.tools);
      const { approvals, changed } = approveListed(index, entry.approvals, index.keys());
      await this.persist(server, changed, entry.approvals);
      entry.approvals = approvals;
      if (listed.ever_ready && !entry.baselineApproved) {
        await this.store.markBaselineApproved(server);
        entry.baselineApproved = true;
      }
    }
    await this.store.setServerOverride(server, override);
    entry.quarantined = on;
    this.refreshServer(entry);
    this.publishNow();
  }

  setEnabled(server: string, on: boolean): Promise<void> {
    return this.oneAtATime(() => this.applyEnabled(server, on));
  }

  private async applyEnabled(server: string, on: boolean): Promise<void> {
    const entry = this.entry(server);
    await this.store.setServerOverride(server, { ...(await this.overrideOf(server)), enabled: on });
    entry.enabled = on;
    if (on) entry.connection.start();
    else await entry.connection.stop();
    this.refreshServer(entry);
    this.publishNow();
  }

  restart(server: string): Promise<void> {
    // One at a time with reloads too: a reload that replaced the connection mid-restart would have the old one started again.
    return this.oneAtATime(async () => {
      const entry = this.entry(server);
      if (!entry.enabled) throw new RuntimeError('server_disabled', `server ${server} is disabled: enable it instead`);
      await entry.connection.restart();
    });
  }

  loginNeeded(server: string, reason: string): void {
    const entry = this.servers.get(server);
    if (entry === undefined || this.closed || !entry.enabled) return;
    entry.connection.loginNeeded(reason);
  }

  async approveTools(server: string, tools: readonly string[] | 'all-pending'): Promise<void> {
    const entry = this.entry(server);
    const index = hashIndex(entry.connection.status().tools);
    let names: readonly string[];
    if (tools === 'all-pending') {
      names = [...index.keys()].filter((tool) => entry.approvals.get(tool)?.status === 'pending');
    } else {
      const unknown = tools.filter((tool) => !index.has(tool));
      if (unknown.length > 0) throw new RuntimeError('unknown_tool', `server ${server} does not list ${unknown.map((t) => `"${t}"`).join(', ')}`);
      names = tools;
    }
    const { approvals, changed } = approveListed(index, entry.approvals, names);
    await this.persist(server, changed, entry.approvals);
    entry.approvals = approvals;
    this.refreshServer(entry);
    this.publishNow();
  }

  async setToolDisabled(server: string, tool: string, disabled: boolean): Promise<void> {
    const entry = this.entry(server);
    const record = entry.approvals.get(tool);
    if (record === undefined) throw new RuntimeError('unknown_tool', `server ${server} has no tool ${tool}`);
    if (record.user_disabled === disabled) return;
    const updated: ApprovalRecord = { ...record, user_disabled: disabled };
    await this.persist(server, [updated], entry.approvals);
    entry.approvals = new Map(entry.approvals).set(tool, updated);
    this.refreshServer(entry);
    this.publishNow();
  }

  reconfigure(next: RuntimeReconfiguration): Promise<ServerConfigChanges> {
    return this.oneAtATime(() => this.applyReconfiguration(next));
  }

  /**
   * Applies a reloaded configuration's servers and profiles, leaving every server it does not change
   * alone (same connection, same state). Kept and re-added servers take their flags by the rule of a
   * start (a run-time override wins over the file) and keep their approvals, so a reload ends where a
   * restart with the new file would, without the restart. The store is read and written first: when it
   * fails, nothing has changed.
   */
  private async applyReconfiguration(next: RuntimeReconfiguration): Promise<ServerConfigChanges> {
    if (this.closed) throw new RuntimeError('runtime_closed', 'the gateway is shutting down');
    const changes = serverConfigChanges([...this.servers.values()].map((entry) => entry.config), next.servers);
    const [overrides, known, approvals] = await Promise.all([
      this.store.listServerOverrides(),
      this.store.listKnownServers(),
      changes.added.length === 0 ? Promise.resolve([]) : this.store.listApprovals(),
    ]);
    const added = await this.admit(changes.added, overrides, known, approvalsByServer(approvals));
    if (this.closed) throw new RuntimeError('runtime_closed', 'the gateway is shutting down');

    const removed = changes.removed.flatMap((name) => {
      const entry = this.servers.get(name);
      // Out of the map first: the stopping connection's last events then find no server to update.
      this.servers.delete(name);
      return entry === undefined ? [] : [entry.connection.stop()];
    });
    const reconnected = changes.reconnected.map(async (config) => {
      const entry = this.servers.get(config.name);
      if (entry === undefined) return;
      // The old process goes before the new one starts: an upstream may hold something only one of it can.
      await entry.connection.stop();
      entry.config = config;
      entry.connection = this.connect(config);
      entry.reconciledTools = undefined;
      this.takeFlags(entry, overrides.get(config.name));
      if (entry.enabled) this.startIfOpen(entry.connection);
      this.refreshServer(entry);
    });
    const updated = changes.updated.map(async (config) => {
      const entry = this.servers.get(config.name);
      if (entry === undefined) return;
      const wasEnabled = entry.enabled;
      entry.config = config;
      this.takeFlags(entry, overrides.get(config.name));
      if (entry.enabled && !wasEnabled) this.startIfOpen(entry.connection);
      if (!entry.enabled && wasEnabled) await entry.connection.stop();
      // The approval model reads these flags: reconcile the listing it has with them, as a start would.
      entry.reconciledTools = undefined;
      this.connectionChanged(config.name);
    });
    await Promise.all([...removed, ...reconnected, ...updated]);
    for (const entry of added) {
      this.servers.set(entry.config.name, entry);
      if (entry.enabled) this.startIfOpen(entry.connection);
    }
    this.profiles = next.profiles;
    this.publishNow();
    return changes;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.retention);
    await Promise.allSettled([...this.servers.values()].map((entry) => entry.connection.stop()));
    this.listeners.clear();
  }

  /** Reads the persisted state and decides each server's starting flags. */
  private async load(): Promise<void> {
    const [approvals, overrides, known] = await Promise.all([
      this.store.listApprovals(),
      this.store.listServerOverrides(),
      this.store.listKnownServers(),
    ]);
    for (const entry of await this.admit(this.config.servers, overrides, known, approvalsByServer(approvals))) this.servers.set(entry.config.name, entry);
  }

  /**
   * Entries for servers joining the gateway (at start, or added by a reload), not yet started. A server
   * the store has never seen starts quarantined (remembered, so a restart does not trust it) unless the
   * config says otherwise or tool quarantine is off.
   */
  private async admit(
    configs: readonly ResolvedServerConfig[],
    overrides: ReadonlyMap<string, ServerOverride>,
    known: ReadonlyMap<string, KnownServer>,
    approvals: ReadonlyMap<string, ReadonlyMap<string, ApprovalRecord>>,
  ): Promise<ServerEntry[]> {
    const fresh: string[] = [];
    const entries: ServerEntry[] = [];
    for (const config of configs) {
      let override = overrides.get(config.name) ?? {};
      if (!known.has(config.name)) {
        fresh.push(config.name);
        if (this.config.tool_quarantine && config.quarantined === undefined && override.quarantined === undefined) {
          override = { ...override, quarantined: true };
          await this.store.setServerOverride(config.name, override);
        }
      }
      const flags = {
        config,
        connection: this.connect(config),
        enabled: override.enabled ?? config.enabled,
        quarantined: override.quarantined ?? config.quarantined ?? false,
        baselineApproved: known.get(config.name)?.baseline_at !== undefined,
        approvals: approvals.get(config.name) ?? new Map<string, ApprovalRecord>(),
        reconciledTools: undefined,
      };
      entries.push({ ...flags, snapshot: serverSnapshot(this.stateOf(flags)) });
    }
    if (fresh.length > 0) await this.store.markServersKnown(fresh);
    return entries;
  }

  /** A kept server's flags by the rule of a start: the run-time override, else the file. */
  private takeFlags(entry: ServerEntry, override: ServerOverride | undefined): void {
    entry.enabled = override?.enabled ?? entry.config.enabled;
    entry.quarantined = override?.quarantined ?? entry.config.quarantined ?? false;
  }

  /** A reload that outlived close() must not leave an upstream running. */
  private startIfOpen(connection: UpstreamConnection): void {
    if (!this.closed) connection.start();
  }

  private oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    const run = this.serial.then(work);
    this.serial = run.catch(() => undefined);
    return run;
  }

  private connect(config: ResolvedServerConfig): UpstreamConnection {
    const spec: UpstreamSpec =
      config.url !== undefined
        ? { name: config.name, transport: 'http', url: config.url, headers: config.headers ?? {} }
        : {
            name: config.name,
            transport: 'stdio',
            command: config.command ?? '',
            args: config.args ?? [],
            env: config.env ?? {},
            ...(config.cwd === undefined ? {} : { cwd: config.cwd }),
          };
    const auth = spec.transport === 'http' ? this.options.oauth?.authProvider(config.name) : undefined;
    return new UpstreamConnection(spec, {
      requestTimeoutMs: this.config.upstream_timeout_ms,
      callTimeoutMs: this.config.tool_call_timeout_ms,
      backoff: { initialDelayMs: this.config.reconnect_initial_delay_ms, maxDelayMs: this.config.reconnect_max_delay_ms },
      clientInfo: this.options.clientInfo ?? { name: 'mcpproxy', version: '0.0.0' },
      credential: () => this.store.getUpstreamCredential(config.name),
      onMessageSent: () => {
        this.messages += 1;
      },
      onChange: () => this.connectionChanged(config.name),
      saturationErrorCodes: config.saturation_error_codes,
      ...(auth === undefined ? {} : { auth, onInsufficientScope: (scope: string) => this.options.oauth?.wantScope(config.name, scope) }),
      ...(this.options.random === undefined ? {} : { random: this.options.random }),
      ...(this.options.clock === undefined ? {} : { clock: this.options.clock }),
    });
  }

  private connectionChanged(name: string): void {
    const entry = this.servers.get(name);
    if (entry === undefined || this.closed) return;
    const status = entry.connection.status();
    if (status.tools !== entry.reconciledTools && status.ever_ready) {
      entry.reconciledTools = status.tools;
      const previous = entry.approvals;
      const update = reconcileApprovals(hashIndex(status.tools), previous, {
        toolQuarantine: this.config.tool_quarantine,
        quarantined: entry.quarantined,
        autoApproveChanges: entry.config.auto_approve_tool_changes,
        baselineApproved: entry.baselineApproved,
      });
      entry.approvals = update.approvals;
      if (update.baselineApproved) {
        entry.baselineApproved = true;
        this.background(this.store.markBaselineApproved(name), `recording the baseline of ${name}`);
      }
      this.background(this.persist(name, update.changed, previous), `saving approvals of ${name}`);
    }
    this.refreshServer(entry);
    this.schedulePublish();
  }

  /**
   * Saves changed records. A record whose approved hash is new (against `previous`) is saved with the
   * definition the upstream lists under that hash, so the operator can later compare a changed tool
   * with what was approved; otherwise the store keeps the definition it has for that hash.
   */
  private async persist(server: string, records: readonly ApprovalRecord[], previous: ReadonlyMap<string, ApprovalRecord>): Promise<void> {
    if (records.length === 0) return;
    const listed = this.servers.get(server)?.connection.status().tools;
    const stored: StoredApproval[] = records.map((record) => {
      const listing = listed?.get(record.tool);
      const approvedNow = record.approved_hash !== undefined && previous.get(record.tool)?.approved_hash !== record.approved_hash && listing?.hash === record.approved_hash;
      return { server, ...record, ...(approvedNow ? { approved_definition: reviewedDefinitionText(listing.definition) } : {}) };
    });
    await this.store.saveApprovals(stored);
  }

  private async overrideOf(server: string): Promise<ServerOverride> {
    return (await this.store.listServerOverrides()).get(server) ?? {};
  }

  private async pruneActivity(): Promise<void> {
    try {
      await this.store.pruneActivity({ maxRecords: this.config.activity_max_records, maxAgeDays: this.config.activity_max_age_days });
    } catch (cause) {
      this.log(`pruning the activity log failed: ${String(cause)}`);
    }
  }

  private refreshServer(entry: ServerEntry): void {
    entry.snapshot = serverSnapshot(this.stateOf(entry));
  }

  private stateOf(entry: Omit<ServerEntry, 'snapshot'>): ServerState {
    return {
      config: entry.config,
      enabled: entry.enabled,
      quarantined: entry.quarantined,
      status: entry.connection.status(),
      approvals: entry.approvals,
    };
  }

  /** Connection events arrive one I/O callback at a time; a microtask folds a burst into one version. */
  private schedulePublish(): void {
    if (this.publishQueued) return;
    this.publishQueued = true;
    queueMicrotask(() => {
      if (this.publishQueued) this.publishNow();
    });
  }

  private publishNow(): void {
    this.publishQueued = false;
    if (this.closed) return;
    this.published = this.build();
    for (const listener of [...this.listeners]) {
      try {
        listener(this.published);
      } catch (cause) {
        this.log(`a state listener failed: ${String(cause)}`);
      }
    }
  }

  private build(): PublishedState {
    this.version += 1;
    const servers = new Map<string, RuntimeServerSnapshot>();
    for (const [name, entry] of this.servers) servers.set(name, entry.snapshot);
    const snapshot: RuntimeSnapshot = Object.freeze({
      version: this.version,
      tool_quarantine: this.config.tool_quarantine,
      servers,
      profiles: new Map(this.profiles.map((profile) => [profile.name, profile.servers])),
    });
    // The suggestion index costs tens of milliseconds at 10,000 tools; only a preflight needs it,
    // so it is built on first use, once per version (connection events publish often).
    let prepared: PreparedSnapshot | undefined;
    return Object.freeze({
      snapshot,
      get prepared(): PreparedSnapshot {
        return (prepared ??= prepareSnapshot(snapshot));
      },
    });
  }

  private entry(server: string): ServerEntry {
    if (this.closed) throw new RuntimeError('runtime_closed', 'the gateway is shutting down');
    const entry = this.servers.get(server);
    if (entry === undefined) throw new RuntimeError('unknown_server', `no server named ${server} is configured`);
    return entry;
  }

  private background(work: Promise<unknown>, what: string): void {
    work.catch((cause: unknown) => this.log(`${what} failed: ${cause instanceof Error ? cause.message : String(cause)}`));
  }

  private log(line: string): void {
    this.options.log?.(line);
  }
}

function approvalsByServer(approvals: readonly StoredApproval[]): Map<string, Map<string, ApprovalRecord>> {
  const byServer = new Map<string, Map<string, ApprovalRecord>>();
  for (const stored of approvals) {
    const { server, ...record } = stored;
    let map = byServer.get(server);
    if (map === undefined) byServer.set(server, (map = new Map()));
    map.set(record.tool, record);
  }
  return byServer;
}

function hashIndex(tools: UpstreamStatus['tools']): Map<string, string> {
  const index = new Map<string, string>();
  for (const [name, tool] of tools) index.set(name, tool.hash);
  return index;
}
