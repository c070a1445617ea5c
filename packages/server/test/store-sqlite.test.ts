import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME } from '../src/store/data-dir-lock.js';
import { MIGRATIONS, migrate } from '../src/store/migrations.js';
import { segmentRecords } from '../src/store/activity-segments.js';
import { openConfiguredStore } from '../src/store/open-configured-store.js';
import { STORE_FILE_NAME, openStore } from '../src/store/store.js';
import type { Store } from '../src/store/store.js';
import { DEFAULT_WAL_LIMIT_BYTES } from '../src/store/wal-limit.js';
import { storeContract } from './store-contract.js';

const builtStore = new URL('../dist/store/store.js', import.meta.url).href;

/** node arguments that open the store in the directory given as argv[1] (a second gateway), then run `then`. */
function openInChild(dir: string, then: string): string[] {
  return [
    '--input-type=module',
    '-e',
    `import { openStore } from ${JSON.stringify(builtStore)};
     const r = openStore(process.argv[1]);
     ${then}`,
    dir,
  ];
}
const dirs: string[] = [];
const stores: Store[] = [];

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcpproxy-store-'));
  dirs.push(dir);
  return dir;
}

function open(dir: string): Store {
  const result = openStore(dir);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  stores.push(result.store);
  return result.store;
}

afterEach(() => {
  for (const store of stores.splice(0)) store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('openStore', () => {
  it('creates the data directory, a WAL database with foreign keys, and a 0600 file', () => {
    const dir = join(tempDir(), 'nested', 'data');
    open(dir);
    const file = join(dir, STORE_FILE_NAME);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    // The WAL and its index hold the same secrets (upstream credentials) from the first write on.
    for (const companion of ['-wal', '-shm']) expect(statSync(`${file}${companion}`).mode & 0o777, companion).toBe(0o600);
    const raw = new BetterSqlite3(file, { readonly: true });
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      const versions = raw.prepare('SELECT version FROM schema_migrations ORDER BY version').all() as { version: number }[];
      expect(versions.map((v) => v.version)).toEqual(MIGRATIONS.map((m) => m.version));
    } finally {
      raw.close();
    }
  });

  it('keeps state across reopen and does not re-run migrations', async () => {
    const dir = tempDir();
    const first = open(dir);
    await first.markServersKnown(['alpha']);
    first.close();
    const second = open(dir);
    expect([...(await second.listKnownServers()).keys()]).toEqual(['alpha']);
  });

  it('refuses a database written by a newer gateway', () => {
    const dir = tempDir();
    open(dir).close();
    const raw = new BetterSqlite3(join(dir, STORE_FILE_NAME));
    raw.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, ?, ?)').run('future', new Date().toISOString());
    raw.close();
    const result = openStore(dir);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('store_open_failed');
      expect(result.error.message).toContain('schema version 999');
    }
    // the failed open released the lock
    expect(existsSync(join(dir, LOCK_FILE_NAME))).toBe(false);
  });

  it('applies only the migrations that are missing', () => {
    const db = new BetterSqlite3(':memory:');
    const extra = [...MIGRATIONS, { version: MIGRATIONS.length + 1, name: 'extra', sql: 'CREATE TABLE extra (x INTEGER)' }];
    expect(migrate(db, MIGRATIONS)).toEqual({ ok: true, applied: MIGRATIONS.map((m) => m.version) });
    expect(migrate(db, extra)).toEqual({ ok: true, applied: [MIGRATIONS.length + 1] });
    expect(migrate(db, extra)).toEqual({ ok: true, applied: [] });
    db.close();
  });
});

describe('the data-dir lock', () => {
  it('refuses a second open in the same process, and frees the directory on close', () => {
    const dir = tempDir();
    const store = open(dir);
    const again = openStore(dir);
    expect(again.ok).toBe(false);
    if (!again.ok) {
      expect(again.error.code).toBe('data_dir_locked');
      expect(again.error.message).toContain(`pid ${process.pid}`);
    }
    store.close();
    expect(existsSync(join(dir, LOCK_FILE_NAME))).toBe(false);
    open(dir);
  });

  it('refuses a second gateway process with a clear message', () => {
    const dir = tempDir();
    open(dir);
    const child = spawnSync(
      process.execPath,
      openInChild(dir, `if (r.ok) { r.store.close(); process.exit(0); }
                        console.error(r.error.code + ': ' + r.error.message); process.exit(3);`),
      { encoding: 'utf8' },
    );
    expect(child.status).toBe(3);
    expect(child.stderr).toContain('data_dir_locked');
    expect(child.stderr).toContain(`is in use by another gateway (pid ${process.pid})`);
  });

  it('is refused while another process holds it, and taken over once that process is killed', async () => {
    const dir = tempDir();
    const holder = spawn(
      process.execPath,
      openInChild(dir, `if (!r.ok) { console.error(r.error.message); process.exit(3); }
                        console.log('locked'); setInterval(() => {}, 1000);`),
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise<void>((resolve, reject) => {
      holder.stdout.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('locked')) resolve();
      });
      holder.on('exit', (code) => reject(new Error(`holder exited early (${code})`)));
    });
    const refused = openStore(dir);
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.error.message).toContain(`pid ${holder.pid}`);

    const exited = new Promise((resolve) => holder.on('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    // SIGKILL leaves the lock file behind: it names a dead pid, so it is stale.
    expect(readFileSync(join(dir, LOCK_FILE_NAME), 'utf8').trim()).toBe(String(holder.pid));
    const store = open(dir);
    expect(readFileSync(join(dir, LOCK_FILE_NAME), 'utf8').trim()).toBe(String(process.pid));
    expect((await store.listKnownServers()).size).toBe(0);
  });

  it('takes over a lock file whose content is garbage', () => {
    const dir = tempDir();
    writeFileSync(join(dir, LOCK_FILE_NAME), 'not a pid');
    open(dir);
  });
});

describe('the SQLite activity log', () => {
  it('keeps the count limit of the last retention pass as it writes, dropping the oldest segments as each new one starts', async () => {
    const store = open(tempDir());
    const at = '2026-03-31T00:00:00.000Z';
    const limit = 50;
    expect(await store.pruneActivity({ maxRecords: limit, maxAgeDays: 30 }, new Date(at))).toBe(0);
    // Segments of a tenth of the limit, at least 100 records. Once a new one starts, the oldest are dropped
    // while the rest still hold the limit: that leaves less than the limit plus the oldest kept segment,
    // and the newest fills up by one more segment (and the batch that fills it) before the next drop.
    const step = segmentRecords(limit);
    expect(step).toBe(100);
    const append = (i: number) => store.appendActivity({ type: 'preflight', timestamp: at, status: 'success', request_id: `r${i}`, metadata: {} });
    const batch = 10;
    let written = 0;
    let trimmed = false;
    while (written < 1000) {
      await Promise.all(Array.from({ length: batch }, (_, i) => append(written + i)));
      written += batch;
      const kept = (await store.queryActivity({ limit: 1000 })).map((r) => r.request_id);
      expect(kept.length, `after ${written} records`).toBeLessThan(limit + 2 * step + batch);
      if (written >= limit) expect(kept.length, `after ${written} records`).toBeGreaterThanOrEqual(limit);
      // Always the newest ones, none missing in between.
      expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => `r${written - 1 - i}`));
      trimmed ||= kept.length < written;
    }
    expect(trimmed).toBe(true);
  });
});

storeContract('SQLite', async () => {
  const opened = await openConfiguredStore({ data_dir: tempDir(), store: { kind: 'sqlite' }, store_wal_limit_bytes: DEFAULT_WAL_LIMIT_BYTES }, () => undefined);
  if (!opened.ok) throw new Error(`${opened.error.code}: ${opened.error.message}`);
  return opened;
});
