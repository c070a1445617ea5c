import type { ResolvedConfig, ResolvedServerConfig } from '../config/gateway-config.js';
import type { EndedLogin } from '../oauth/oauth-logins.js';
import type { GatewayRuntime } from '../state/gateway-runtime.js';
import type { ServerConfigChanges } from '../state/server-config-changes.js';
import { canonicalJson } from '../upstream/canonical-json.js';

/** What a reload applies while the gateway runs; every other setting waits for a restart. */
export const RUN_TIME_SETTINGS: readonly string[] = ['servers', 'profiles', 'watch_config'];

/** Facts about the load, not settings of the file. */
const NOT_SETTINGS: ReadonlySet<string> = new Set(['source', 'api_key_generated', 'api_key_file']);

/** Settings whose values never go to the log. */
const SECRET_SETTINGS: ReadonlySet<string> = new Set(['api_key', 'agent_tokens']);

/**
 * Parts of a setting that never go to the log: the PostgreSQL URL usually holds a password. (The
 * store is restart-only like every setting not in RUN_TIME_SETTINGS: the running gateway's state
 * lives in the store it opened.)
 */
const SECRET_PARTS: Readonly<Record<string, readonly string[]>> = { store: ['url'] };

/** A setting the new file changes that the running gateway keeps until it is restarted. */
export interface RestartSetting {
  readonly key: string;
  /** The value still in use and the file's, as JSON; absent for secrets. */
  readonly running?: string;
  readonly file?: string;
}

export interface GatewayReload {
  readonly servers: ServerConfigChanges;
  /** For each reconnected or updated server, the keys of its entry that changed. */
  readonly changedKeys: ReadonlyMap<string, readonly string[]>;
  readonly profilesChanged: boolean;
  readonly restartNeeded: readonly RestartSetting[];
  /** Logins that were waiting for their redirect and ended: the server was removed, or its url or oauth block changed. */
  readonly endedLogins: readonly EndedLogin[];
}

/** The OAuth logins' part of a reload (OAuthLogins): servers join before the runtime connects them, the rest follows once it has. */
export interface ReloadedLogins {
  admit(servers: readonly ResolvedServerConfig[]): Promise<void>;
  reconfigure(servers: readonly ResolvedServerConfig[]): Promise<EndedLogin[]>;
}

/**
 * Applies reloaded configurations to a running gateway, one at a time. The servers and profiles go to
 * the runtime, and the servers to the OAuth logins of HTTP upstreams; a change to any other setting is reported as needing a restart and compared against
 * the value still in use, so it is named again on every reload until the gateway restarts.
 */
export class GatewayReloader {
  private applied: ResolvedConfig;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    running: ResolvedConfig,
    private readonly runtime: Pick<GatewayRuntime, 'reconfigure'>,
    private readonly logins?: ReloadedLogins,
  ) {
    this.applied = running;
  }

  reload(next: ResolvedConfig): Promise<GatewayReload> {
    const run = this.queue.then(() => this.apply(next));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async apply(next: ResolvedConfig): Promise<GatewayReload> {
    const before = this.applied;
    await this.logins?.admit(next.servers);
    const servers = await this.runtime.reconfigure({ servers: next.servers, profiles: next.profiles });
    const endedLogins = (await this.logins?.reconfigure(next.servers)) ?? [];
    this.applied = { ...before, servers: next.servers, profiles: next.profiles, watch_config: next.watch_config };
    return {
      servers,
      changedKeys: changedServerKeys(before.servers, [...servers.reconnected, ...servers.updated]),
      profilesChanged: canonicalJson(before.profiles) !== canonicalJson(next.profiles),
      restartNeeded: restartSettings(before, next),
      endedLogins,
    };
  }
}

function restartSettings(running: ResolvedConfig, file: ResolvedConfig): RestartSetting[] {
  const a = running as unknown as Readonly<Record<string, unknown>>;
  const b = file as unknown as Readonly<Record<string, unknown>>;
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => !NOT_SETTINGS.has(key) && !RUN_TIME_SETTINGS.includes(key)).sort();
  const settings: RestartSetting[] = [];
  for (const key of keys) {
    if (jsonOf(a[key]) === jsonOf(b[key])) continue;
    const [before, after] = [jsonOf(shown(key, a[key])), jsonOf(shown(key, b[key]))];
    // When only a secret part changed, the values would read alike: the key alone is named.
    settings.push(SECRET_SETTINGS.has(key) || before === after ? { key } : { key, running: before, file: after });
  }
  return settings;
}

/** The setting's value without its secret parts. */
function shown(key: string, value: unknown): unknown {
  const parts = Object.hasOwn(SECRET_PARTS, key) ? SECRET_PARTS[key]! : [];
  if (parts.length === 0 || typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([part]) => !parts.includes(part)));
}

function changedServerKeys(before: readonly ResolvedServerConfig[], changed: readonly ResolvedServerConfig[]): Map<string, string[]> {
  const old = new Map(before.map((server) => [server.name, server as unknown as Readonly<Record<string, unknown>>]));
  const keys = new Map<string, string[]>();
  for (const server of changed) {
    const previous = old.get(server.name) ?? {};
    const current = server as unknown as Readonly<Record<string, unknown>>;
    const names = [...new Set([...Object.keys(previous), ...Object.keys(current)])].filter((key) => jsonOf(previous[key]) !== jsonOf(current[key])).sort();
    keys.set(server.name, names);
  }
  return keys;
}

function jsonOf(value: unknown): string {
  return value === undefined ? '(not set)' : canonicalJson(value);
}
