// The store's write-ahead log stays under store_wal_limit_bytes under sustained load and is given
// back once the load stops. A real gateway (one fixture upstream) takes REST preflights from 10
// concurrent callers with a 1 MiB limit, until the log has been folded back several times; its size
// is read after every batch of answers (each answer's record was committed before it was sent), so
// every sample follows the commits it measures. Before the bound, the log only grew.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { STORE_FILE_NAME } from '../src/store/store.js';
import { fixtureServer, serverReady, startTestGateway, TempDir, waitForState, type TestGateway } from './gateway-harness.js';
import { ADMIN_KEY } from './rest-client.js';

const LIMIT = 1024 * 1024;
const CALLERS = 10;
/** The folds (the log's size dropping between two samples) the load must cause before it stops. */
const FOLDS = 6;
/** A backstop only: the load stops once FOLDS folds were seen, or at once when the bound is broken. */
const MAX_BATCHES = 5_000;

const dir = new TempDir();
let gw: TestGateway | undefined;
afterAll(async () => {
  await gw?.close();
  dir.remove();
});

describe('the store WAL under sustained REST preflight load', () => {
  it('never passes store_wal_limit_bytes, is folded back repeatedly, and shrinks once the load stops', async () => {
    const tools = dir.tools('t', Array.from({ length: 10 }, (_, i) => ({ name: `tool-${i}` })));
    gw = await startTestGateway(dir, { store_wal_limit_bytes: LIMIT, servers: [fixtureServer('up', tools)] });
    await waitForState(gw.gateway, serverReady('up'));
    const wal = join(dir.path, 'data', `${STORE_FILE_NAME}-wal`);
    const walBytes = () => (existsSync(wal) ? statSync(wal).size : 0);
    const body = JSON.stringify({ tools: Array.from({ length: 10 }, (_, i) => ({ id: `up:tool-${i}` })) });
    const preflight = async () => {
      const response = await fetch(`${gw!.gateway.origin}/api/v1/preflight`, {
        method: 'POST',
        headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
        body,
      });
      await response.arrayBuffer();
      return response.status;
    };

    let answers = 0;
    let largest = 0;
    let folds = 0;
    let previous = walBytes();
    for (let batch = 0; batch < MAX_BATCHES && folds < FOLDS && largest <= LIMIT; batch++) {
      const statuses = await Promise.all(Array.from({ length: CALLERS }, preflight));
      expect(statuses.every((status) => status === 200)).toBe(true);
      answers += statuses.length;
      const size = walBytes();
      largest = Math.max(largest, size);
      if (size < previous) folds++;
      previous = size;
    }
    expect(largest, `largest WAL seen after ${answers} answers`).toBeLessThanOrEqual(LIMIT);
    expect(folds).toBe(FOLDS);
    // Past the fold point (three quarters) at least once: the bound was reached, not merely approached.
    expect(largest).toBeGreaterThanOrEqual((LIMIT * 3) / 4);

    // Idle: the checkpoint thread empties the log within a couple of its one-second intervals.
    await expect.poll(walBytes, { timeout: 60_000, interval: 100 }).toBe(0);

    await gw.close();
    gw = undefined;
    const db = new BetterSqlite3(join(dir.path, 'data', STORE_FILE_NAME), { readonly: true });
    try {
      const { count } = db.prepare("SELECT COUNT(*) AS count FROM activity_log WHERE type = 'preflight'").get() as { count: number };
      expect(count).toBe(answers);
    } finally {
      db.close();
    }
  });
});
