import { existsSync, statSync } from 'node:fs';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { DATA_DIR_ENV } from '../src/config/config-defaults.js';
import { DEMO_SERVER_NAME } from '../src/config/embedded-default.js';
import { EMBEDDED_DEFAULT, loadConfig } from '../src/config/gateway-config.js';
import { startRuntime } from '../src/state/gateway-runtime.js';
import { openStore } from '../src/store/store.js';
import { Scratch, eventually } from './fixture-process.js';

let s: Scratch;
let saved: string | undefined;
beforeEach(() => {
  s = new Scratch();
  saved = process.env[DATA_DIR_ENV];
  process.env[DATA_DIR_ENV] = s.file('home-data');
});
afterEach(() => {
  if (saved === undefined) delete process.env[DATA_DIR_ENV];
  else process.env[DATA_DIR_ENV] = saved;
  s.remove();
});

it('creates the data directory and an API key on first use, and reuses the key', async () => {
  const first = await loadConfig(undefined);
  if (!first.ok) throw new Error(first.error.message);
  expect(first.config).toMatchObject({ source: EMBEDDED_DEFAULT, data_dir: s.file('home-data'), listen: '127.0.0.1:8080', api_key_generated: true });
  expect(statSync(s.file('home-data/api-key')).mode & 0o777).toBe(0o600);
  const second = await loadConfig(undefined);
  expect(second.ok && second.config.api_key).toBe(first.config.api_key);
  expect(second.ok && second.config.api_key_generated).toBe(false);
});

it('runs the bundled demo upstream from dist, trusted, so its tools work at once', async () => {
  const loaded = await loadConfig(undefined);
  if (!loaded.ok) throw new Error(loaded.error.message);
  const demo = loaded.config.servers[0]!;
  expect(demo).toMatchObject({ name: DEMO_SERVER_NAME, command: process.execPath, quarantined: false });
  expect(existsSync(demo.args![0]!)).toBe(true);
  expect(demo.args![0]).toMatch(/dist[\\/]fixture-upstream[\\/]main\.js$/);

  const opened = openStore(loaded.config.data_dir);
  if (!opened.ok) throw new Error(opened.error.message);
  const runtime = await startRuntime(loaded.config, opened.store);
  try {
    const ready = await eventually(() => {
      const server = runtime.current().snapshot.servers.get(DEMO_SERVER_NAME)!;
      expect(server.connection.state).toBe('ready');
      return server;
    });
    expect(ready.quarantined).toBe(false);
    expect([...ready.approvals.values()].map((a) => [a.tool, a.status])).toEqual([
      ['echo', 'approved'],
      ['get_greeting', 'approved'],
      ['delete_everything', 'approved'],
    ]);
    expect(await runtime.callTool(DEMO_SERVER_NAME, 'get_greeting', {})).toEqual({
      content: [{ type: 'text', text: 'Hello from the mcpproxy demo upstream.' }],
    });
  } finally {
    await runtime.close();
    opened.store.close();
  }
});
