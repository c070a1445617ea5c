// `mcpproxy serve` sets the gateway's small-heap V8 flags before it loads the gateway's modules:
// loading them is the process's first allocation burst, and with V8's defaults it grows the young
// generation from 2 x 1 MiB to 2 x 8 MiB, which stays committed (~14 MiB of RSS) until a
// memory-reducing collection happens to shrink it. The CLI's own modules (argument parsing, the command
// registry) load before the command is known, and may take it to 2 x 2 MiB: nothing beyond that.
// V8's own GC trace gives the young generation's committed size after every collection of the start.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, baseEnv, CLI_BIN, Scratch } from './cli-harness.js';

describe('mcpproxy serve', () => {
  const scratch = new Scratch();
  afterAll(() => scratch.remove());

  it('keeps the young generation at 2 x 2 MiB at most while the gateway loads and starts', { timeout: 60_000 }, async () => {
    const config = scratch.file('gateway.json', JSON.stringify({ listen: '127.0.0.1:0', data_dir: join(scratch.dir, 'data'), api_key: ADMIN_KEY, servers: [] }));
    const child = spawn(process.execPath, ['--trace-gc-verbose', CLI_BIN, 'serve', '--config', config], { env: baseEnv(scratch.dir), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (/serving MCP at \S+/.test(output)) resolve();
        });
        child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        child.once('exit', (code) => reject(new Error(`mcpproxy serve exited (${code}):\n${output.slice(-2000)}`)));
      });
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
    const committedKb = [...output.matchAll(/New space,.*committed:\s+(\d+) KB/g)].map((m) => Number(m[1]));
    // Loading and starting the gateway allocates tens of MiB: the trace must have seen collections.
    expect(committedKb.length, 'young-generation sizes in the GC trace').toBeGreaterThan(3);
    expect(Math.max(...committedKb), `committed young generation after each collection (KB): ${committedKb.join(' ')}`).toBeLessThanOrEqual(4096);
  });
});
