// The quick start, as a new user runs it from a fresh clone: `mcpproxy serve` on the embedded
// default (127.0.0.1:8080, the demo upstream, the API key generated into the data directory), then
// `tools preflight` over REST and --in-band reading the exit code, then the client's example.
// Skipped only when something else holds 127.0.0.1:8080 for the whole wait.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI_BIN, runCli, Scratch } from './cli-harness.js';

const CLIENT_EXAMPLE = fileURLToPath(new URL('../../client/examples/require-tools.mjs', import.meta.url));
let scratch: Scratch;
let env: Record<string, string>;
let stop: (() => Promise<void>) | undefined;
let skipped = false;

async function portFree(port: number): Promise<boolean> {
  const { createServer } = await import('node:net');
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

beforeAll(async () => {
  scratch = new Scratch();
  env = { ...baseEnv(scratch.dir), MCPPROXY_DATA_DIR: join(scratch.dir, 'data') };
  const deadline = Date.now() + 60_000;
  while (!(await portFree(8080))) {
    if (Date.now() > deadline) {
      skipped = true;
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const child = spawn(process.execPath, [CLI_BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('serving MCP at http://127.0.0.1:8080/mcp')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}: ${output}`)));
  });
  expect(output).toContain('Generated an admin API key');
  stop = async () => {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
}, 90_000);
afterAll(async () => {
  await stop?.();
  scratch?.remove();
});

describe('the quick start', () => {
  it('tools preflight: exit 0 when ready (waiting while the demo upstream starts), 12 for an unknown tool, the same --in-band', async (ctx) => {
    if (skipped) ctx.skip();
    const ready = await runCli(['tools', 'preflight', 'demo:echo', 'demo:get_greeting', '--wait', '10s'], { env });
    expect(ready).toMatchObject({ code: 0, stderr: '' });
    expect(ready.stdout).toContain('2 of 2 tools ready');
    expect((await runCli(['tools', 'preflight', 'demo:echo', 'demo:nope'], { env })).code).toBe(12);
    expect((await runCli(['tools', 'preflight', 'demo:echo', 'demo:get_greeting', '--in-band'], { env })).code).toBe(0);
  });

  it('the client example reaches the same gateway on its default address and exits 0', async (ctx) => {
    if (skipped) ctx.skip();
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [CLIENT_EXAMPLE, 'demo:echo', 'demo:get_greeting'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^all 2 required tools ready/);
  });
});
