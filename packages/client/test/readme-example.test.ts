// The README's example is examples/require-tools.mjs verbatim, and it runs: exit 0 with every
// tool ready, exit 1 listing the unavailable ones, on a real gateway.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, Scratch, startGateway, waitForServer, type Gateway } from './client-harness.js';

const EXAMPLE = fileURLToPath(new URL('../examples/require-tools.mjs', import.meta.url));
let scratch: Scratch;
let gw: Gateway;

beforeAll(async () => {
  scratch = new Scratch();
  gw = await startGateway(scratch, { servers: [fixtureServer(scratch, 'demo', [{ name: 'echo', echo: true }, { name: 'get_greeting' }]), fixtureServer(scratch, 'off', [{ name: 'echo' }], { enabled: false })] });
  await waitForServer(gw, 'demo', ['ready']);
});
afterAll(async () => {
  await gw?.stop();
  scratch?.remove();
});

function run(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [EXAMPLE, ...args], { env: { ...process.env, MCPPROXY_MCP_URL: gw.mcpUrl } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

describe('README example', () => {
  it('is the example file, verbatim', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const block = /```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBe(readFileSync(EXAMPLE, 'utf8'));
  });

  it('exits 0 when every required tool is ready (default ids demo:echo demo:get_greeting)', async () => {
    const result = await run([]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^all 2 required tools ready \(via rider, request [\w-]+\)\n$/);
  });

  it('exits 1 and names each unavailable tool with its reason and remediation', async () => {
    const result = await run(['demo:echo', 'off:echo']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('off:echo: server_disabled - Enable it: mcpproxy servers enable off\n');
  });
});
