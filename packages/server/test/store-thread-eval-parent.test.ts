// A process started as `node -e <script>` runs the store's checkpoint thread, not its script again: a
// worker inherits the command line's options, and these name the script. Before the store thread gave
// its worker none, the thread ran the script in place of its own module, so nothing checkpointed the
// log on the thread (it was never emptied once the writes stopped), and close() waited out its 10 s bound.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
// The built store (the test target builds first), as an embedding program would import it.
const STORE = JSON.stringify(new URL('../dist/store/store.js', import.meta.url).href);

const SCRIPT = `
import { isMainThread } from 'node:worker_threads';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
if (!isMainThread) {
  console.log('the script ran in a thread');
} else {
  const { openStore } = await import(${STORE});
  const opened = openStore(process.argv[1], { walLimitBytes: 1024 * 1024 });
  if (!opened.ok) throw new Error(opened.error.message);
  const metadata = { verdict: 'ready', ids_count: 10, reasons: {}, per_tool: [] };
  // Enough to fold the 1 MiB log, which starts the checkpoint thread.
  for (let i = 0; i < 3000; i += 10) {
    await Promise.all(Array.from({ length: 10 }, (_, j) =>
      opened.store.appendActivity({ type: 'preflight', timestamp: new Date().toISOString(), status: 'success', request_id: 'r-' + (i + j), metadata })));
  }
  // Only the thread empties the log, once a whole second went by without a write.
  const wal = join(process.argv[1], 'mcpproxy.db-wal');
  let emptied = false;
  for (let tries = 0; tries < 300 && !emptied; tries++) {
    emptied = (statSync(wal, { throwIfNoEntry: false })?.size ?? 0) === 0;
    if (!emptied) await sleep(100);
  }
  console.log(emptied ? 'log emptied' : 'log never emptied');
  opened.store.close();
  console.log('closed');
}
`;

const dir = mkdtempSync(join(tmpdir(), 'mcpproxy-eval-parent-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the store thread of a process started with node -e', () => {
  it('runs the checkpoint thread, which empties the log once the writes stop, and not the script', async () => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, join(dir, 'data')], { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(out).not.toContain('the script ran in a thread');
    expect(out).toContain('log emptied');
    expect(out).toContain('closed');
    expect(code).toBe(0);
  }, 90_000);
});
