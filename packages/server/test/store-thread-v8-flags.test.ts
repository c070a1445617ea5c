// Starting a worker thread sets V8's process-wide flags back to the command line's. The store's
// checkpoint thread must leave the gateway's run-time flags as they were: measured in a process of its
// own (flags are per process), the young generation set to stay at 1 MiB semi-spaces stays small under
// allocation with survivors once the thread is online; V8's own default grows it to 16 MiB semi-spaces.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
// The built modules (the test target builds first): run from source, tsx's loader starts threads of its own,
// and each one's start resets the flags again.
const dist = (path: string) => JSON.stringify(new URL(`../dist/${path}`, import.meta.url).href);

const SCRIPT = `
import v8 from 'node:v8';
import { once } from 'node:events';
const { setRuntimeV8Flag } = await import(${dist('v8-runtime-flags.js')});
const { startStoreThread } = await import(${dist('store/store-thread.js')});
setRuntimeV8Flag('--semi-space-growth-factor=1');
const thread = startStoreThread('wal-checkpoint-thread', { path: process.argv[1], intervalMs: 60000 });
// The thread is unref'd: a timer keeps this process up until it is online.
const alive = setInterval(() => {}, 1000);
await once(thread.worker, 'online');
clearInterval(alive);
// Survivors across scavenges (a ring of live objects) make V8 grow a young generation that may grow.
const ring = new Array(30000);
let k = 0;
let largest = 0;
for (let round = 0; round < 300; round++) {
  for (let i = 0; i < 20000; i++) ring[k++ % ring.length] = { a: i, b: 'x' + i };
  largest = Math.max(largest, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
}
console.log(JSON.stringify({ largest }));
process.exit(0);
`;

describe('the store thread and the run-time V8 flags', () => {
  it("keeps the young generation the process asked for once the checkpoint thread is online", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mcpproxy-v8-flags-'));
    try {
      const child = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT, join(dir, 'store.db')], { cwd: PACKAGE_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const code = await new Promise((resolve) => child.on('exit', resolve));
      expect(code, out).toBe(0);
      const { largest } = JSON.parse(out.trim().split('\n').at(-1)!) as { largest: number };
      // Two 1 MiB semi-spaces, grown at most once; V8's default reaches 32 MiB here.
      expect(largest).toBeLessThanOrEqual(4 * 1024 * 1024);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
