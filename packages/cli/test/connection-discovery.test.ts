// Where the CLI connects without --url: the gateway of the data directory where it really runs
// (its record: its HTTP origin, or its local socket when it has no HTTP listener), else
// MCPPROXY_LISTEN, else the config file's listen, else 127.0.0.1:8080.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConnection } from '../src/connection/connection-settings.js';

const dataDir = mkdtempSync(join(tmpdir(), 'mcpproxy-cli-discovery-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const originOf = (values: Record<string, string>, env: Record<string, string> = {}) => resolveConnection({ values, env: { MCPPROXY_DATA_DIR: dataDir, ...env } }).origin;
const record = (pid: number, origin: string) => writeFileSync(join(dataDir, 'gateway.json'), JSON.stringify({ pid, origin }));

/** A pid that no process has any more. */
async function exitedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('gateway discovery', () => {
  it('with nothing set: the default listen address, 127.0.0.1:8080', () => {
    rmSync(join(dataDir, 'gateway.json'), { force: true });
    expect(originOf({})).toBe('http://127.0.0.1:8080');
  });

  it('MCPPROXY_LISTEN as serve takes it (a wildcard host is dialled on loopback); the config file\'s listen below it', () => {
    const config = join(dataDir, 'config.json');
    writeFileSync(config, JSON.stringify({ listen: '127.0.0.1:8181', data_dir: dataDir }));
    expect(originOf({ config })).toBe('http://127.0.0.1:8181');
    expect(originOf({ config }, { MCPPROXY_LISTEN: '0.0.0.0:9191' })).toBe('http://127.0.0.1:9191');
    expect(originOf({}, { MCPPROXY_LISTEN: '[::1]:7000' })).toBe('http://[::1]:7000');
  });

  it('a running gateway\'s record wins over every configured address; --url and MCPPROXY_URL over it', () => {
    record(process.pid, 'http://127.0.0.1:45678');
    expect(originOf({})).toBe('http://127.0.0.1:45678');
    expect(originOf({}, { MCPPROXY_LISTEN: '127.0.0.1:0' })).toBe('http://127.0.0.1:45678');
    expect(originOf({ url: 'http://127.0.0.1:1234' })).toBe('http://127.0.0.1:1234');
    expect(originOf({}, { MCPPROXY_URL: 'http://127.0.0.1:4321' })).toBe('http://127.0.0.1:4321');
  });

  it('a running gateway without an HTTP listener (stdio) is reached over its local socket; one with both over HTTP', () => {
    const socket = join(dataDir, 'gateway.sock');
    writeFileSync(join(dataDir, 'gateway.json'), JSON.stringify({ pid: process.pid, socket }));
    const viaSocket = resolveConnection({ values: {}, env: { MCPPROXY_DATA_DIR: dataDir, MCPPROXY_LISTEN: '127.0.0.1:9999' } });
    expect(viaSocket.socket).toBe(socket);
    expect(viaSocket.origin).toBe('http://localhost');
    // The key stored in the data directory goes along: the socket is on this machine.
    writeFileSync(join(dataDir, 'api-key'), 'stored-admin-key-0123456789\n');
    expect(resolveConnection({ values: {}, env: { MCPPROXY_DATA_DIR: dataDir } }).credential).toMatchObject({ kind: 'api-key', secret: 'stored-admin-key-0123456789' });
    // --url still wins, and does not go to the socket.
    expect(resolveConnection({ values: { url: 'http://127.0.0.1:1234' }, env: { MCPPROXY_DATA_DIR: dataDir } }).socket).toBeUndefined();
    writeFileSync(join(dataDir, 'gateway.json'), JSON.stringify({ pid: process.pid, origin: 'http://127.0.0.1:45678', socket }));
    const both = resolveConnection({ values: {}, env: { MCPPROXY_DATA_DIR: dataDir } });
    expect([both.origin, both.socket]).toEqual(['http://127.0.0.1:45678', undefined]);
    rmSync(join(dataDir, 'api-key'));
  });

  it('a record left by a gateway that is gone, or one it cannot read, is passed over', async () => {
    record(await exitedPid(), 'http://127.0.0.1:45678');
    expect(originOf({})).toBe('http://127.0.0.1:8080');
    const exited = await exitedPid();
    for (const text of ['{', '[]', '{"pid":"1","origin":"http://127.0.0.1:1"}', `{"pid":${process.pid},"origin":"ftp://x"}`, `{"pid":${process.pid}}`, `{"pid":${process.pid},"socket":"relative.sock"}`, `{"pid":${exited},"socket":"/tmp/x.sock"}`]) {
      writeFileSync(join(dataDir, 'gateway.json'), text);
      expect(originOf({}), text).toBe('http://127.0.0.1:8080');
    }
  });
});
