import type { ApprovalRecord, PreparedSnapshot } from '@mcpproxy/evaluator';
import { prepareSnapshot } from '@mcpproxy/evaluator';
import type { AuthProvider, CallToolResult, ResultTypeMap, ServerCapabilities } from '@modelcontextprotocol/client';
import type { ProfileConfig } from '@mcpproxy/schema';
import type { ResolvedConfig, ResolvedServerConfig } from '../config/gateway-config.js';
import { soloCoordination, type StoreChange, type StoreCoordination } from '../store/store-coordination.js';
import type { KnownServer, ServerOverride, Store, StoredApproval } from '../store/store.js';
import { UpstreamConnection } from '../upstream/upstream-connection.js';
import type { UpstreamStatus } from '../upstream/upstream-connection.js';
import type { UpstreamSpec } from '../upstream/upstream-spec.js';
import type { CallRelay } from '../upstream/call-relay.js';
import type { ForwardedMethod, ForwardOptions } from '../upstream/upstream-connection.js';
import type { UpstreamNotification } from '../upstream/upstream-notification.js';
import { reviewedDefinitionText } from '../upstream/reviewed-definition.js';
import { approveListed, reconcileApprovals, sameRecord } from './approval-model.js';
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
  /**
   * How this gateway keeps in step with others on the same store (default: it is the only one).
   * On a shared store every change any replica commits is re-read, and read-modify-writes of a
   * server's approvals and overrides run in that server's exclusive section.
   */
  readonly coordination?: StoreCoordination;
  /**
   * The OAuth logins of HTTP upstreams: each connection's access token and its refresh on a 401, and
   * (on a shared store) reading a server's record again when another gateway changed it (every
   * server's when undefined).
   */
  readonly oauth?: {
    authProvider(server: string): AuthProvider | undefined;
    wantScope(server: string, scope: string): void;
    storedChanged?(server?: string): Promise<void>;
  };
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
/** Reads of the shared state per re-read while writes of this runtime keep overlapping them. */
const REREAD_ATTEMPTS = 5;

/**
 * The gateway's live state: one connection per enabled server, the approval model, run-time
 * overrides, and the published immutable snapshot. Every change publishes a new version; the
 * surfaces only ever read `current()`.
 */
export class LiveRuntime implements GatewayRuntime {
  private readonly servers = new Map<string, ServerEntry>();
  private readonly listeners = new Set<(state: PublishedState) => void>();
  private readonly notificationListeners = new Set<(server: string, notification: UpstreamNotification) => void>();
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
  private readonly coordination: StoreCoordination;
  private unwatch: (() => void) | undefined;
  private loaded = false;
  /** A shared change arrived before the first load finished (which may have read before it). */
  private changedWhileLoading = false;
  /** Store writes this runtime started and finished (each counts twice), and those under way. */
  private writesCounted = 0;
  private writesInFlight = 0;
  /** The re-read of shared state waiting to start (changes that arrive meanwhile share it). */
  private queuedReread: Promise<void> | undefined;

  private constructor(
    private readonly config: ResolvedConfig,
    private readonly store: Store,
    private readonly options: RuntimeOptions,
  ) {
    this.profiles = config.profiles;
    this.published = this.build();
    this.retention = setInterval(() => void this.pruneActivity(), HOUR_MS);
    this.retention.unref();
    this.coordination = options.coordination ?? soloCoordination();
  }

  static async start(config: ResolvedConfig, store: Store, options: RuntimeOptions = {}): Promise<LiveRuntime> {
    const runtime = new LiveRuntime(config, store, options);
    // Watching before the first read: a change committed while it runs is not lost.
    if (runtime.coordination.shared) runtime.unwatch = runtime.coordination.watch((change) => runtime.sharedChange(change));
    try {
      await runtime.load();
    } catch (cause) {
      runtime.unwatch?.();
      throw cause;
    }
    runtime.loaded = true;
    if (runtime.changedWhileLoading) void runtime.rereadShared();
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

  upstreamInFlight(): number {
    let count = 0;
    for (const entry of this.servers.values()) count += entry.connection.inFlightCount();
    return count;
  }

  async callTool(server: string, tool: string, args: Record<string, unknown> | undefined, signal?: AbortSignal, relay?: CallRelay): Promise<CallToolResult> {
    const entry = this.entry(server);
    if (!entry.enabled) throw new RuntimeError('server_disabled', `server ${server} is disabled`);
    if (entry.quarantined) throw new RuntimeError('server_quarantined', `server ${server} is quarantined: its tools are never called`);
    if (!entry.connection.status().tools.has(tool)) throw new RuntimeError('unknown_tool', `server ${server} does not list a tool ${tool}`);
    return entry.connection.callTool(tool, args, signal, relay);
  }

  async forwardRequest<M extends ForwardedMethod>(server: string, method: M, params: Record<string, unknown>, options: ForwardOptions): Promise<ResultTypeMap[M]> {
    const entry = this.entry(server);
    if (!entry.enabled) throw new RuntimeError('server_disabled', `server ${server} is disabled`);
    if (entry.quarantined) throw new RuntimeError('server_quarantined', `server ${server} is quarantined: nothing is forwarded to it`);
    return entry.connection.forward(method, params, options);
  }

  upstreamCapabilities(server: string): ServerCapabilities | undefined {
    return this.servers.get(server)?.connection.capabilities();
  }

  setResourceSubscribed(server: string, uri: string, on: boolean): void {
    this.servers.get(server)?.connection.setResourceSubscribed(uri, on);
  }

  onUpstreamNotification(listener: (server: string, notification: UpstreamNotification) => void): () => void {
    this.notificationListeners.add(listener);
    return () => this.notificationListeners.delete(listener);
  }

  setQuarantined(server: string, on: boolean): Promise<void> {
    return this.oneAtATime(async () => {
      const entry = this.entry(server);
      await this.exclusive(entry, () => this.applyQuarantine(entry, on));
    });
  }

  private async applyQuarantine(entry: ServerEntry, on: boolean): Promise<void> {
    const server = entry.config.name;
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
        await this.write(() => this.store.markBaselineApproved(server));
        entry.baselineApproved = true;
      }
    }
    await this.write(() => this.store.setServerOverride(server, override));
    entry.quarantined = on;
    this.refreshServer(entry);
    this.publishNow();
  }

  setEnabled(server: string, on: boolean): Promise<void> {
    return this.oneAtATime(() => this.applyEnabled(server, on));
  }

  private async applyEnabled(server: string, on: boolean): Promise<void> {
    const entry = this.entry(server);
    await this.exclusive(entry, async () => {
      const override = { ...(await this.overrideOf(server)), enabled: on };
      await this.write(() => this.store.setServerOverride(server, override));
    });
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
    await this.exclusive(entry, () => this.applyApproval(entry, tools));
  }

  private async applyApproval(entry: ServerEntry, tools: readonly string[] | 'all-pending'): Promise<void> {
    const server = entry.config.name;
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
    await this.exclusive(entry, () => this.applyToolDisabled(entry, tool, disabled));
  }

  private async applyToolDisabled(entry: ServerEntry, tool: string, disabled: boolean): Promise<void> {
    const server = entry.config.name;
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
    this.unwatch?.();
    clearInterval(this.retention);
    await Promise.allSettled([...this.servers.values()].map((entry) => entry.connection.stop()));
    this.listeners.clear();
    this.notificationListeners.clear();
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
          await this.write(() => this.store.setServerOverride(config.name, override));
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
    if (fresh.length > 0) await this.write(() => this.store.markServersKnown(fresh));
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
      onNotification: (notification) => this.upstreamNotified(config.name, notification),
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
      if (this.coordination.shared) {
        if (update.baselineApproved) entry.baselineApproved = true;
        // Computed from what this replica knew; the section recomputes it from the store's records.
        this.background(this.exclusive(entry, async () => this.publishIf(await this.rebase(entry))), `saving approvals of ${name}`);
      } else {
        if (update.baselineApproved) {
          entry.baselineApproved = true;
          this.background(this.write(() => this.store.markBaselineApproved(name)), `recording the baseline of ${name}`);
        }
        this.background(this.persist(name, update.changed, previous), `saving approvals of ${name}`);
      }
    }
    this.refreshServer(entry);
    this.schedulePublish();
  }

  private upstreamNotified(server: string, notification: UpstreamNotification): void {
    if (this.closed) return;
    for (const listener of [...this.notificationListeners]) {
      try {
        listener(server, notification);
      } catch (cause) {
        this.log(`an upstream notification listener failed: ${String(cause)}`);
      }
    }
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
    await this.write(() => this.store.saveApprovals(stored));
  }

  /** A store write of this runtime, counted so that a re-read overlapping it is not taken for the truth. */
  private async write<T>(work: () => Promise<T>): Promise<T> {
    this.writesCounted += 1;
    this.writesInFlight += 1;
    try {
      return await work();
    } finally {
      this.writesInFlight -= 1;
      this.writesCounted += 1;
    }
  }

  /**
   * A read-modify-write of the server's shared state: on a shared store, in the server's exclusive
   * section (every replica's), starting from the store's records rather than this replica's copy, so
   * two replicas never overwrite each other's change with a stale one. Alone on its store, the
   * runtime's own copy is the store's state: it runs at once.
   */
  private async exclusive(entry: ServerEntry, work: () => Promise<void>): Promise<void> {
    if (!this.coordination.shared) return work();
    await this.coordination.withExclusive(`server:${entry.config.name}`, async () => {
      await this.rebase(entry);
      await work();
    });
  }

  /**
   * Replaces the server's records with the store's, reconciled with this replica's tool index (what
   * the upstream lists here), and saves what that changes; true when the records changed here.
   *
   * The store's record of a tool wins over this replica's copy, which may predate another replica's
   * change. A tool the store has no record of yet keeps this replica's record, and a baseline this
   * replica took keeps counting before it is recorded: each was decided on the listing that brought
   * it, in order, where the index now may be a later one (a tool that came after the baseline is
   * pending, not part of it).
   */
  private async rebase(entry: ServerEntry): Promise<boolean> {
    const name = entry.config.name;
    const [approvals, known] = await Promise.all([this.store.listApprovals(), this.store.listKnownServers()]);
    const stored = new Map<string, ApprovalRecord>();
    for (const { server, ...record } of approvals) if (server === name) stored.set(record.tool, record);
    const baselineInStore = known.get(name)?.baseline_at !== undefined;
    const status = entry.connection.status();
    let records = coverListed(stored, entry.approvals, status.tools);
    const baselineApproved = baselineInStore || entry.baselineApproved;
    if (status.ever_ready) {
      const update = reconcileApprovals(hashIndex(status.tools), records, {
        toolQuarantine: this.config.tool_quarantine,
        quarantined: entry.quarantined,
        autoApproveChanges: entry.config.auto_approve_tool_changes,
        baselineApproved,
      });
      records = update.approvals;
      entry.baselineApproved = baselineApproved || update.baselineApproved;
    }
    await this.persist(name, [...records.values()].filter((record) => !sameAs(stored.get(record.tool), record)), stored);
    if (entry.baselineApproved && !baselineInStore) await this.write(() => this.store.markBaselineApproved(name));
    if (sameApprovals(records, entry.approvals)) return false;
    entry.approvals = records;
    this.refreshServer(entry);
    return true;
  }

  private publishIf(changed: boolean): void {
    if (changed) this.publishNow();
  }

  /** What a change another gateway (or this one) committed to the shared store means here. */
  private sharedChange(change: StoreChange): Promise<void> | undefined {
    switch (change.topic) {
      case 'state':
        return this.rereadShared();
      case 'resync':
        return Promise.all([this.rereadShared(), this.options.oauth?.storedChanged?.()]).then(() => undefined);
      case 'credentials':
        return this.credentialsChanged(change.server);
      case 'tokens':
        // Tokens are looked up in the store per request; the gateway ends a revoked token's streams.
        return undefined;
    }
  }

  /**
   * A login (or a refresh) on another replica: its OAuth record is read again first, then a connection
   * waiting for a login tries again now, not at its next backoff.
   */
  private async credentialsChanged(server: string): Promise<void> {
    await this.options.oauth?.storedChanged?.(server);
    const entry = this.servers.get(server);
    if (entry?.enabled === true && entry.connection.status().state === 'pending_auth') this.background(this.restart(server), `reconnecting ${server}`);
  }

  /** Re-reads the shared state; calls while one waits to start share it. */
  private rereadShared(): Promise<void> {
    if (!this.loaded) {
      this.changedWhileLoading = true;
      return Promise.resolve();
    }
    if (this.queuedReread !== undefined) return this.queuedReread;
    // One at a time with reloads and operator switches: a reload applies the overrides it read, and a
    // re-read that ran in between would have its newer state overwritten by them.
    const next = this.oneAtATime(() => {
      this.queuedReread = undefined;
      return this.rereadOnce();
    });
    this.queuedReread = next;
    next.catch((cause: unknown) => this.log(`re-reading the shared state failed: ${cause instanceof Error ? cause.message : String(cause)}`));
    return next;
  }

  private async rereadOnce(): Promise<void> {
    // A read that overlaps a write of this runtime may predate it: read again (that write's own
    // notification brings another re-read too, but adopting the older state would flip a gate back).
    for (let attempt = 0; attempt < REREAD_ATTEMPTS && !this.closed; attempt += 1) {
      const before = this.writesCounted;
      const [approvals, overrides, known] = await Promise.all([this.store.listApprovals(), this.store.listServerOverrides(), this.store.listKnownServers()]);
      if (this.closed) return;
      if (this.writesInFlight === 0 && this.writesCounted === before) {
        this.adoptShared(approvals, overrides, known);
        return;
      }
    }
  }

  /** Takes the store's state for every server; publishes once if anything changed. */
  private adoptShared(approvals: readonly StoredApproval[], overrides: ReadonlyMap<string, ServerOverride>, known: ReadonlyMap<string, KnownServer>): void {
    const byServer = approvalsByServer(approvals);
    let changed = false;
    for (const entry of this.servers.values()) {
      const name = entry.config.name;
      const override = overrides.get(name) ?? {};
      const quarantined = override.quarantined ?? entry.config.quarantined ?? false;
      const enabled = override.enabled ?? entry.config.enabled;
      // Once recorded, a baseline stays (this replica's own record of it may still be on its way).
      const baselineApproved = entry.baselineApproved || known.get(name)?.baseline_at !== undefined;
      const records = coverListed(byServer.get(name) ?? new Map(), entry.approvals, entry.connection.status().tools);
      if (quarantined === entry.quarantined && enabled === entry.enabled && baselineApproved === entry.baselineApproved && sameApprovals(records, entry.approvals)) continue;
      changed = true;
      entry.quarantined = quarantined;
      entry.baselineApproved = baselineApproved;
      entry.approvals = records;
      if (enabled !== entry.enabled) {
        // Each replica holds its own upstream connections: a server disabled anywhere is disconnected here too.
        entry.enabled = enabled;
        if (enabled) this.startIfOpen(entry.connection);
        else this.background(entry.connection.stop(), `disconnecting ${name}`);
      }
      this.refreshServer(entry);
    }
    if (changed) this.publishNow();
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

/**
 * The store's records of a server, plus this replica's record of each tool it lists that the store
 * has no record of yet (a write of it still on its way): a listed tool never goes without a record,
 * which would make it ready before anyone approved it.
 */
function coverListed(
  stored: ReadonlyMap<string, ApprovalRecord>,
  local: ReadonlyMap<string, ApprovalRecord>,
  listed: UpstreamStatus['tools'],
): ReadonlyMap<string, ApprovalRecord> {
  let covered: Map<string, ApprovalRecord> | undefined;
  for (const tool of listed.keys()) {
    const record = local.get(tool);
    if (stored.has(tool) || record === undefined) continue;
    covered ??= new Map(stored);
    covered.set(tool, record);
  }
  return covered ?? stored;
}

function sameAs(a: ApprovalRecord | undefined, b: ApprovalRecord): boolean {
  return a !== undefined && sameRecord(a, b);
}

function sameApprovals(a: ReadonlyMap<string, ApprovalRecord>, b: ReadonlyMap<string, ApprovalRecord>): boolean {
  if (a.size !== b.size) return false;
  for (const [tool, record] of a) {
    const other = b.get(tool);
    if (other === undefined || !sameRecord(record, other)) return false;
  }
  return true;
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
