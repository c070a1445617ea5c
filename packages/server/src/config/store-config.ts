import type { GatewayConfig, StoreConfig } from '@mcpproxy/schema';
import type { ConfigIssue } from './config-cross-checks.js';
import { GATEWAY_DEFAULTS, STORE_DEFAULTS } from './config-defaults.js';

/** The store the gateway runs on, with the PostgreSQL URL read (from the file or its environment variable). */
export type ResolvedStoreConfig =
  | { readonly kind: 'sqlite' }
  | {
      readonly kind: 'postgres';
      /** The connection URL: a secret (it usually holds a password), never printed. */
      readonly url: string;
      /** Where the URL came from, for messages: `/store/url` or `environment variable NAME`. */
      readonly url_source: string;
      readonly url_env?: string;
      readonly pool_size: number;
    };

const POSTGRES_URL = /^postgres(ql)?:\/\//;

/**
 * What the schema cannot say about `store`: postgres takes its URL exactly one way, sqlite takes no
 * PostgreSQL keys, and the WAL limit belongs to SQLite.
 */
export function storeConfigIssues(config: GatewayConfig): ConfigIssue[] {
  const store = config.store;
  if (store === undefined) return [];
  const issues: ConfigIssue[] = [];
  if (store.kind === 'postgres') {
    const given = (store.url === undefined ? 0 : 1) + (store.url_env === undefined ? 0 : 1);
    if (given !== 1) {
      issues.push({
        path: '/store',
        message: `a postgres store needs exactly one of url (the connection URL) and url_env (the environment variable holding it), ${given === 0 ? 'neither is given' : 'both are given'}`,
      });
    }
    if (config.store_wal_limit_bytes !== undefined) {
      issues.push({ path: '/store_wal_limit_bytes', message: 'store_wal_limit_bytes applies to the SQLite store only; remove it with a postgres store' });
    }
  } else {
    for (const key of ['url', 'url_env', 'pool_size'] as const) {
      if (store[key] !== undefined) issues.push({ path: `/store/${key}`, message: `${key} applies to a postgres store only (store.kind is "${store.kind}")` });
    }
  }
  return issues;
}

/**
 * The store with its URL in hand. A URL named by url_env is read from `env` now, so a missing
 * variable is a configuration error at start, not a failure at the first query. The value is a
 * secret: messages name the variable, never what it holds.
 */
export function resolveStoreConfig(
  store: StoreConfig | undefined,
  env: Readonly<Record<string, string | undefined>>,
): { ok: true; store: ResolvedStoreConfig } | { ok: false; issue: ConfigIssue } {
  if (store === undefined || store.kind === 'sqlite') return { ok: true, store: GATEWAY_DEFAULTS.store };
  const pool_size = store.pool_size ?? STORE_DEFAULTS.pool_size;
  if (store.url !== undefined) return { ok: true, store: { kind: 'postgres', url: store.url, url_source: '/store/url', pool_size } };
  const name = store.url_env ?? '';
  const value = env[name];
  if (value === undefined || value === '') {
    return { ok: false, issue: { path: '/store/url_env', message: `environment variable ${name} (the PostgreSQL connection URL) is not set` } };
  }
  if (!POSTGRES_URL.test(value)) {
    return { ok: false, issue: { path: '/store/url_env', message: `environment variable ${name} does not hold a postgres:// or postgresql:// URL` } };
  }
  return { ok: true, store: { kind: 'postgres', url: value, url_source: `environment variable ${name}`, url_env: name, pool_size } };
}
