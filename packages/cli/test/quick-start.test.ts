// The quick start, as a new user runs it from a fresh clone: `mcpproxy serve` on the embedded
// default (the demo upstream, the API key generated into the data directory), then `tools preflight`
// over REST and --in-band reading the exit code, then the client's example. The gateway takes any
// free port (MCPPROXY_LISTEN=127.0.0.1:0) and the CLI finds it through the data directory, as it finds
// one on the default 127.0.0.1:8080 (which server/test/config-embedded-default.test.ts pins).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, CLI_BIN, runCli, Scratch } from './cli-harness.js';

const CLIENT_EXAMPLE = fileURLToPath(new URL('../../client/examples/require-tools.mjs', import.meta.url));
let scratch: Scratch;
let env: Record<string, string>;
let mcpUrl = '';
let stop: (() => Promise<void>) | undefined;

/** Starts `mcpproxy serve` on the embedded default; settles with its MCP URL once it serves, or rejects with its output if it exits. */
function startServe(): Promise<{ output: string; url: string; stop: () => Promise<void> }> {
  const child = spawn(process.execPath, [CLI_BIN, 'serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /serving MCP at (\S+)/.exec(output)?.[1];
      if (url === undefined) return;
      resolve({
        output,
        url,
        stop: async () => {
          const exited = new Promise((done) => child.once('exit', done));
          child.kill('SIGTERM');
          await exited;
        },
      });
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('exit', () => reject(new Error(`serve exited: ${output}`)));
  });
}

beforeAll(async () => {
  scratch = new Scratch();
  env = { ...baseEnv(scratch.dir), MCPPROXY_DATA_DIR: join(scratch.dir, 'data'), MCPPROXY_LISTEN: '127.0.0.1:0' };
  const started = await startServe();
  stop = started.stop;
  mcpUrl = started.url;
  expect(started.output).toContain('Generated an admin API key');
}, 60_000);
afterAll(async () => {
  await stop?.();
  scratch?.remove();
});

describe('the quick start', () => {
  it('tools preflight: exit 0 when ready (waiting while the demo upstream starts), 12 for an unknown tool, the same --in-band', async () => {
    const ready = await runCli(['tools', 'preflight', 'demo:echo', 'demo:get_greeting', '--wait', '10s'], { env });
    expect(ready).toMatchObject({ code: 0, stderr: '' });
    expect(ready.stdout).toContain('2 of 2 tools ready');
    expect((await runCli(['tools', 'preflight', 'demo:echo', 'demo:nope'], { env })).code).toBe(12);
    expect((await runCli(['tools', 'preflight', 'demo:echo', 'demo:get_greeting', '--in-band'], { env })).code).toBe(0);
  });

  it('the client example reaches the same gateway and exits 0', async () => {
    const result = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, [CLIENT_EXAMPLE, 'demo:echo', 'demo:get_greeting'], { env: { ...env, MCPPROXY_MCP_URL: mcpUrl }, stdio: ['ignore', 'pipe', 'inherit'] });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^all 2 required tools ready/);
  });
});
