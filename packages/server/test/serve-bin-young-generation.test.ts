// The built `serve` bin sets V8's small-heap flags before the gateway's modules are loaded: loading
// them is the process's first allocation burst, and with V8's defaults it grows the young generation
// from 2 x 1 MiB to 2 x 8 MiB, which stays committed (~14 MiB of RSS at 1,000 tools, seen in about half
// the starts) until a memory-reducing collection happens to shrink it. V8's own GC trace gives the
// young generation's committed size after every collection of the start.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChildHandle } from '../bench/child-process-handle.js';
import { SERVE_MAIN, TempDir } from './gateway-harness.js';

describe('the serve bin', () => {
  let dir: TempDir;
  let gateway: ChildHandle | undefined;
  beforeAll(() => {
    dir = new TempDir();
  });
  afterAll(async () => {
    await gateway?.stop();
    dir.remove();
  });

  it('keeps the young generation at its initial 2 x 1 MiB from the first collection on', { timeout: 60_000 }, async () => {
    const config = dir.file('gateway.json', JSON.stringify({ listen: '127.0.0.1:0', data_dir: join(dir.path, 'data'), api_key: 'young-gen-test-admin-key-0123', servers: [] }));
    gateway = new ChildHandle(process.execPath, ['--trace-gc-verbose', SERVE_MAIN, '--config', config]);
    await gateway.waitFor(/serving MCP at (\S+)/, 45_000);
    const committedKb = [...gateway.outputTail(Number.MAX_SAFE_INTEGER).matchAll(/New space,.*committed:\s+(\d+) KB/g)].map((m) => Number(m[1]));
    // Loading and starting the gateway allocates tens of MiB: the trace must have seen collections.
    expect(committedKb.length, 'young-generation sizes in the GC trace').toBeGreaterThan(3);
    expect(Math.max(...committedKb), `committed young generation after each collection (KB): ${committedKb.join(' ')}`).toBeLessThanOrEqual(2048);
  });
});
