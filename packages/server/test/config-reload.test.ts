// Config reload in a real `serve --stdio` process held open by an SDK client: edit the file, send
// SIGHUP, and the gateway adds, removes and reconnects servers without touching the others (same
// upstream processes, same approvals and quarantine), tells the client (list_changed), and logs what
// changed. An invalid file is refused with the start's own errors and the gateway serves on; a setting
// that needs a restart is named. With watch_config an edit alone is enough.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FIXTURE_MAIN, TempDir, toolText } from './gateway-harness.js';
import { holdStdioGateway, logged, type Held } from './held-stdio-gateway.js';
import { eventually, processRunning } from './fixture-process.js';
import { socketRequest } from './socket-request.js';

const ADMIN_KEY = 'a-configured-admin-key-123';
const ADMIN = { 'x-api-key': ADMIN_KEY };

let dir: TempDir;
beforeEach(() => {
  dir = new TempDir();
});
afterEach(() => dir.remove());

const fixture = (name: string, args: readonly string[], extra: Record<string, unknown> = { quarantined: false }) => ({
  name,
  command: process.execPath,
  args: [FIXTURE_MAIN, ...args, '--pid-file', join(dir.path, `${name}.pid`)],
  ...extra,
});
const pidOf = (name: string) => Number(readFileSync(join(dir.path, `${name}.pid`), 'utf8'));

async function names(held: Held): Promise<string[]> {
  return (await held.client.listTools(undefined, { cacheMode: 'bypass' })).tools.map((tool) => tool.name);
}

async function rest<T>(held: Held, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await socketRequest(held.socket, method, path, ADMIN, body);
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

describe('serve --stdio, config reload', () => {
  it('on SIGHUP adds, removes and reconnects servers, leaves the others\' connections and state alone, and refuses an invalid file', async () => {
    const dataDir = join(dir.path, 'data');
    const keepTools = dir.tools('keep', [{ name: 'k1', echo: true }]);
    const chgA = dir.tools('chg-a', [{ name: 'c1', echo: true }]);
    const chgB = dir.tools('chg-b', [{ name: 'c1', echo: true }, { name: 'c2', echo: true }]);
    // The first listing waits for all four upstreams, however loaded the machine.
    const base = { data_dir: dataDir, api_key: ADMIN_KEY, reconnect_initial_delay_ms: 50, reconnect_max_delay_ms: 500, first_listing_wait_ms: 60_000 };
    const before = [fixture('keep', ['--tools', keepTools]), fixture('held', ['--demo']), fixture('gone', ['--demo']), fixture('chg', ['--tools', chgA])];
    const configFile = dir.file('mcpproxy.json', JSON.stringify({ ...base, servers: before }));
    const held = await holdStdioGateway(configFile, dataDir);
    try {
      expect(await names(held)).toEqual(expect.arrayContaining(['keep:k1', 'held:echo', 'gone:echo', 'chg:c1']));
      // Operator state on kept servers, over the local socket: held quarantined, keep with a tool pending after its baseline.
      await rest(held, 'POST', '/api/v1/servers/held/quarantine');
      writeFileSync(keepTools, JSON.stringify([{ name: 'k1', echo: true }, { name: 'k2', echo: true }]));
      process.kill(pidOf('keep'), 'SIGHUP');
      const pendingK2 = async () => (await rest<{ tools: { tool: string; approval: string }[] }>(held, 'GET', '/api/v1/tools?server=keep')).tools.find((t) => t.tool === 'k2')?.approval;
      await eventually(async () => expect(await pendingK2()).toBe('pending'));
      const pids = { keep: pidOf('keep'), held: pidOf('held'), gone: pidOf('gone'), chg: pidOf('chg') };

      // The edit: gone removed, chg's command changed, new added; keep and held as they were.
      const seen = held.stderr().length;
      const heardBefore = held.listChanged();
      writeFileSync(configFile, JSON.stringify({ ...base, servers: [before[0], before[1], fixture('chg', ['--tools', chgB]), fixture('new', ['--demo'])] }));
      process.kill(held.pid, 'SIGHUP');
      await logged(held, 'config reload: done', seen);
      const log = held.stderr().slice(seen);
      expect(log).toContain('config reload: server "new" added');
      expect(log).toContain('config reload: server "gone" removed');
      expect(log).toContain('config reload: server "chg" changed (args): reconnecting');
      expect(log).not.toMatch(/server "(keep|held)"/);

      await eventually(async () => expect(await names(held)).toEqual(['describe_tool', 'chg:c1', 'keep:k1', 'new:delete_everything', 'new:echo', 'new:get_greeting']));
      expect(held.listChanged()).toBeGreaterThan(heardBefore);
      // The kept servers: the same upstream processes, the same quarantine and approvals.
      expect([pidOf('keep'), pidOf('held')]).toEqual([pids.keep, pids.held]);
      expect([processRunning(pids.keep), processRunning(pids.held)]).toEqual([true, true]);
      await eventually(() => expect(processRunning(pids.gone)).toBe(false));
      expect(pidOf('chg')).not.toBe(pids.chg);
      const servers = await rest<{ servers: { name: string; quarantined: boolean }[] }>(held, 'GET', '/api/v1/servers');
      expect(servers.servers.map((s) => [s.name, s.quarantined])).toEqual([['chg', false], ['held', true], ['keep', false], ['new', false]]);
      expect(await pendingK2()).toBe('pending');
      const chgTools = await rest<{ tools: { tool: string; approval: string }[] }>(held, 'GET', '/api/v1/tools?server=chg');
      expect(chgTools.tools.map((t) => [t.tool, t.approval])).toEqual([['c1', 'approved'], ['c2', 'pending']]);
      // A removed server is no longer configured: the operator tier says so, an agent's would read not_found.
      const verdict = await rest<{ tools: { reason: string }[] }>(held, 'POST', '/api/v1/preflight', { tools: [{ id: 'gone:echo' }] });
      expect(verdict.tools[0]?.reason).toBe('server_not_configured');

      // Invalid files: refused with the start's errors (line and column, JSON pointer); nothing changes.
      const valid = readFileSync(configFile, 'utf8');
      for (const [text, expected] of [
        ['{ "servers": [ }', `${configFile}:1:16: not valid JSON`],
        [JSON.stringify({ ...base, page_size: 'many', servers: [] }), `${configFile}: /page_size:`],
      ] as const) {
        const at = held.stderr().length;
        writeFileSync(configFile, text);
        process.kill(held.pid, 'SIGHUP');
        await logged(held, expected, at);
        expect(held.stderr().slice(at)).toContain('config reload refused; the gateway keeps running on the configuration it had');
      }
      expect(toolText(await held.client.callTool({ name: 'keep:k1', arguments: { still: 'served' } }))).toContain('served');
      expect(await names(held)).toEqual(['describe_tool', 'chg:c1', 'keep:k1', 'new:delete_everything', 'new:echo', 'new:get_greeting']);
      expect([pidOf('keep'), processRunning(pids.keep)]).toEqual([pids.keep, true]);

      // A setting the gateway cannot change while it runs is named, and kept.
      const at = held.stderr().length;
      writeFileSync(configFile, valid.replace('{', '{ "page_size": 2,'));
      process.kill(held.pid, 'SIGHUP');
      await logged(held, 'config reload: done', at);
      expect(held.stderr().slice(at)).toContain('config reload: page_size changed (running 100, file 2): needs a restart');
      expect((await held.client.listTools(undefined, { cacheMode: 'bypass' })).nextCursor).toBeUndefined();

      // The store is never switched at run time, and its URL (a password in it) stays out of the log.
      const storeAt = held.stderr().length;
      writeFileSync(configFile, valid.replace('{', '{ "store": { "kind": "postgres", "url": "postgresql://mcp:hunter2-secret@127.0.0.1:1/mcp" },'));
      process.kill(held.pid, 'SIGHUP');
      await logged(held, 'config reload: done', storeAt);
      const storeLog = held.stderr().slice(storeAt);
      expect(storeLog).toContain(
        'config reload: store changed (running {"kind":"sqlite"}, file {"kind":"postgres","pool_size":10,"url_source":"/store/url"}): needs a restart; the gateway keeps the running value until then',
      );
      expect(storeLog).not.toContain('hunter2');
      expect(toolText(await held.client.callTool({ name: 'keep:k1', arguments: { still: 'on sqlite' } }))).toContain('on sqlite');
    } finally {
      await held.close();
    }
  });

  it('with watch_config reloads on an edit alone', async () => {
    const dataDir = join(dir.path, 'data');
    const base = { data_dir: dataDir, api_key: ADMIN_KEY, watch_config: true, first_listing_wait_ms: 60_000 };
    const configFile = dir.file('watched.json', JSON.stringify({ ...base, servers: [fixture('one', ['--demo'])] }));
    const held = await holdStdioGateway(configFile, dataDir);
    try {
      expect(await names(held)).toContain('one:echo');
      await logged(held, `watch_config: reloading ${configFile} whenever it changes`);
      const at = held.stderr().length;
      writeFileSync(configFile, JSON.stringify({ ...base, servers: [fixture('one', ['--demo']), fixture('two', ['--demo'])] }));
      await logged(held, 'config reload: done', at);
      expect(held.stderr().slice(at)).toContain('config reload (file change)');
      await eventually(async () => expect(await names(held)).toContain('two:echo'));
    } finally {
      await held.close();
    }
  });
});
