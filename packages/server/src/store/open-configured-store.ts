import type { ResolvedConfig } from '../config/gateway-config.js';
import { openPostgresStore } from './open-postgres-store.js';
import { soloCoordination, type StoreCoordination } from './store-coordination.js';
import { openStore, takeDataDir, type Store, type StoreOpenError } from './store.js';

export interface OpenedStore {
  readonly ok: true;
  readonly store: Store;
  readonly coordination: StoreCoordination;
}

/**
 * Opens the store the configuration names: the SQLite file in data_dir (the default, exactly as
 * before), or the shared PostgreSQL database. Either way this process takes the data-dir lock
 * first: a replica keeps its own data directory (its API key file, its address record).
 */
export async function openConfiguredStore(
  config: Pick<ResolvedConfig, 'data_dir' | 'store' | 'store_wal_limit_bytes'>,
  log: (line: string) => void,
): Promise<OpenedStore | { readonly ok: false; readonly error: StoreOpenError }> {
  if (config.store.kind === 'sqlite') {
    const opened = openStore(config.data_dir, { walLimitBytes: config.store_wal_limit_bytes });
    return opened.ok ? { ok: true, store: opened.store, coordination: soloCoordination() } : opened;
  }
  const locked = takeDataDir(config.data_dir);
  if (!locked.ok) return locked;
  const opened = await openPostgresStore({ url: config.store.url, poolSize: config.store.pool_size, dataDir: config.data_dir, lock: locked.lock, log });
  if (!opened.ok) {
    locked.lock.release();
    return { ok: false, error: { code: 'store_open_failed', message: `${config.store.url_source}: ${opened.message}` } };
  }
  return { ok: true, store: opened.store, coordination: opened.store };
}
