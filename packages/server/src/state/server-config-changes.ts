import type { ResolvedServerConfig } from '../config/gateway-config.js';
import { canonicalJson } from '../upstream/canonical-json.js';

/** What a new configuration changes about the servers, by name (a renamed server is one removed and one added). */
export interface ServerConfigChanges {
  readonly added: readonly ResolvedServerConfig[];
  readonly removed: readonly string[];
  /** How the upstream is reached changed: it gets a new connection. */
  readonly reconnected: readonly ResolvedServerConfig[];
  /** Only what the gateway decides changed (enabled, quarantined, tool lists, auto-approval): applied on the live connection. */
  readonly updated: readonly ResolvedServerConfig[];
}

/** The keys a connection is made from; a change to any of them means a new connection. */
const CONNECTION_KEYS = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'saturation_error_codes'] as const;

/** Compares two server lists as resolved (defaults applied), ignoring key order and list order of servers. */
export function serverConfigChanges(before: readonly ResolvedServerConfig[], after: readonly ResolvedServerConfig[]): ServerConfigChanges {
  const old = new Map(before.map((server) => [server.name, server]));
  const names = new Set(after.map((server) => server.name));
  const added: ResolvedServerConfig[] = [];
  const reconnected: ResolvedServerConfig[] = [];
  const updated: ResolvedServerConfig[] = [];
  for (const server of after) {
    const previous = old.get(server.name);
    if (previous === undefined) added.push(server);
    else if (connectionOf(previous) !== connectionOf(server)) reconnected.push(server);
    else if (canonicalJson(previous) !== canonicalJson(server)) updated.push(server);
  }
  const removed = before.filter((server) => !names.has(server.name)).map((server) => server.name);
  return { added, removed, reconnected, updated };
}

export function noServerChanges(changes: ServerConfigChanges): boolean {
  return changes.added.length + changes.removed.length + changes.reconnected.length + changes.updated.length === 0;
}

function connectionOf(server: ResolvedServerConfig): string {
  const record = server as unknown as Readonly<Record<string, unknown>>;
  return canonicalJson(Object.fromEntries(CONNECTION_KEYS.map((key) => [key, record[key]])));
}
