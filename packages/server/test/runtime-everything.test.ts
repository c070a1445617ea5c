// A real published MCP server as a stdio upstream: @modelcontextprotocol/server-everything.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, it } from 'vitest';
import { cleanupAfterEach } from './cleanup-after-each.js';
import { startHarness } from './runtime-harness.js';

const require = createRequire(import.meta.url);
const everythingMain = join(dirname(require.resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

const { defer, scratch } = cleanupAfterEach();

it('server-everything reaches ready, its tools are indexed with hashes, and a call returns its real result', async () => {
  const s = scratch();
  const h = await startHarness(s, {
    servers: [{ name: 'everything', command: process.execPath, args: [everythingMain, 'stdio'], quarantined: false }],
  });
  defer(() => h.stop());
  const ready = await h.until('everything', (srv) => srv.connection.state === 'ready', 20_000);
  expect(ready.tools.size).toBeGreaterThan(5);
  const echo = ready.tools.get('echo');
  expect(echo?.definition.inputSchema).toMatchObject({ properties: { message: { type: 'string' } } });
  expect(echo?.annotations).toMatchObject({ readOnlyHint: true });
  expect(echo?.hash).toMatch(/^sha256\/v1:[0-9a-f]{64}$/);
  expect([...ready.approvals.values()].every((a) => a.status === 'approved')).toBe(true);

  const result = await h.runtime.callTool('everything', 'echo', { message: 'through the gateway' });
  expect(result).toEqual({ content: [{ type: 'text', text: 'Echo: through the gateway' }] });
}, 90_000);
