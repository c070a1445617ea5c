// startGateway when the persisted state cannot be read or written: a value, never a throw, with the data
// directory given back; and background failures of the runtime reach the gateway's log.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateAndResolve } from '../src/config/gateway-config.js';
import { startGateway } from '../src/gateway.js';
import type { StoredApproval } from '../src/store/store.js';
import { FailingActivityStore } from './failing-activity-store.js';
import { fixtureServer, serverReady, TempDir, waitForState } from './gateway-harness.js';

/** The real store, except that reading the approvals fails (a corrupt table, an unreadable page). */
class UnreadableApprovalsStore extends FailingActivityStore {
  override listApprovals(): Promise<StoredApproval[]> {
    return Promise.reject(new Error('approvals unreadable (injected failure)'));
  }
}

/** The real store, except that saving approvals fails (a full disk). */
class UnwritableApprovalsStore extends FailingActivityStore {
  override saveApprovals(): Promise<void> {
    return Promise.reject(new Error('approvals unwritable (injected failure)'));
  }
}

describe('startGateway and a store that fails', () => {
  let dir: TempDir;
  beforeAll(() => {
    dir = new TempDir();
  });
  afterAll(() => dir.remove());

  function config(dataDir: string, servers: unknown[] = []) {
    const resolved = validateAndResolve({ listen: '127.0.0.1:0', data_dir: join(dir.path, dataDir), api_key: 'test-admin-key-0123456789', servers }, join(dir.path, 'config.json'));
    if (!resolved.ok) throw new Error(resolved.error.message);
    return resolved.config;
  }

  it('refuses a listen address reachable from the network unless /mcp requires tokens (and binds nothing)', async () => {
    const open = validateAndResolve({ listen: '0.0.0.0:0', data_dir: join(dir.path, 'exposed'), api_key: 'test-admin-key-0123456789', servers: [] }, join(dir.path, 'config.json'));
    if (!open.ok) throw new Error(open.error.message);
    const refused = await startGateway(open.config);
    expect(refused).toEqual({ ok: false, error: { code: 'listen_invalid', message: expect.stringContaining('"require_mcp_auth": true') } });
    // Refused before the store was opened: the data directory was never created.
    expect(existsSync(join(dir.path, 'exposed'))).toBe(false);
  });

  it('state that cannot be read is store_open_failed, naming the cause, and the data directory is free again', async () => {
    const failed = await startGateway(config('unreadable'), { wrapStore: (store) => new UnreadableApprovalsStore(store) });
    expect(failed).toEqual({ ok: false, error: { code: 'store_open_failed', message: expect.stringContaining('approvals unreadable (injected failure)') } });
    // The lock and the database were released: the same directory starts normally.
    const started = await startGateway(config('unreadable'));
    expect(started.ok).toBe(true);
    if (started.ok) await started.gateway.close();
  });

  it("the runtime's background failures are logged through the gateway's log", async () => {
    const lines: string[] = [];
    const tools = dir.tools('fx', [{ name: 'a' }]);
    const started = await startGateway(config('unwritable', [fixtureServer('fx', tools)]), {
      wrapStore: (store) => new UnwritableApprovalsStore(store),
      log: (line) => lines.push(line),
    });
    if (!started.ok) throw new Error(started.error.message);
    try {
      await waitForState(started.gateway, serverReady('fx'));
      // Indexing the new tool saves its approval record in the background; that write fails.
      await expect.poll(() => lines.find((line) => line.startsWith('runtime: ')), { timeout: 10_000 }).toContain('approvals unwritable (injected failure)');
    } finally {
      await started.gateway.close();
    }
  });
});
