// Every gateway's local operator socket: <data_dir>/gateway.sock, mode 0600, serving the REST API of
// the HTTP listener with the same credentials (the admin key is the operator tier, an agent token the
// agent tier, nothing is 401), and the stdio relay channel (admin key only). A socket left by a killed
// gateway is replaced; a data directory whose path is too long for a socket gets one in a private
// directory; something else at the socket's path means no socket, and the gateway still serves.
import { lstatSync, mkdirSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { maxSocketPathBytes } from '../src/local-socket/socket-location.js';
import { cleanupAfterEach } from './cleanup-after-each.js';
import { FIXTURE_MAIN, startTestGateway, TempDir } from './gateway-harness.js';
import { socketRequest, upgradeRelay } from './socket-request.js';

const cleanups = cleanupAfterEach();
const ADMIN = { 'x-api-key': 'test-admin-key-0123456789' };
const AGENT_SECRET = 'agent-token-secret-0123456789';

function tempDir(): TempDir {
  const dir = new TempDir();
  cleanups.defer(() => dir.remove());
  return dir;
}

const demo = { name: 'demo', command: process.execPath, args: [FIXTURE_MAIN, '--demo'], quarantined: false };

describe('the local socket', () => {
  it('serves the REST API in the data directory (0600) with the HTTP listener\'s credentials, and goes on close', async () => {
    const dir = tempDir();
    const gw = await startTestGateway(dir, { servers: [demo], agent_tokens: [{ name: 'agent', token: AGENT_SECRET, allowed_servers: ['demo'] }] });
    cleanups.defer(() => gw.close());
    const path = join(dir.path, 'data', 'gateway.sock');
    expect(gw.gateway.socket).toBe(path);
    const mode = lstatSync(path);
    expect(mode.isSocket()).toBe(true);
    expect(mode.mode & 0o777).toBe(0o600);

    const servers = await socketRequest(path, 'GET', '/api/v1/servers', ADMIN);
    expect(servers.status).toBe(200);
    expect((servers.body as { servers: { name: string }[] }).servers.map((s) => s.name)).toEqual(['demo']);
    expect((await socketRequest(path, 'GET', '/healthz')).body).toEqual({ status: 'ok' });

    const none = await socketRequest(path, 'GET', '/api/v1/servers');
    expect(none.status).toBe(401);
    const wrong = await socketRequest(path, 'GET', '/api/v1/servers', { 'x-api-key': 'not-the-admin-key-0123' });
    expect(wrong.status).toBe(401);
    // An agent token is the agent tier here too: operator-only endpoints stay operator-only.
    const agent = { authorization: `Bearer ${AGENT_SECRET}` };
    expect((await socketRequest(path, 'GET', '/api/v1/servers', agent)).status).toBe(200);
    expect((await socketRequest(path, 'GET', '/api/v1/tokens', agent)).status).toBe(403);
    expect((await socketRequest(path, 'POST', '/api/v1/servers/demo/quarantine', agent)).status).toBe(403);
    const preflight = await socketRequest(path, 'POST', '/api/v1/preflight', agent, { tools: [{ id: 'ghost:x' }] });
    expect((preflight.body as { tools: { reason: string }[] }).tools[0]?.reason).toBe('not_found');
    const operatorPreflight = await socketRequest(path, 'POST', '/api/v1/preflight', ADMIN, { tools: [{ id: 'ghost:x' }] });
    expect((operatorPreflight.body as { tools: { reason: string }[] }).tools[0]?.reason).toBe('server_not_configured');

    await gw.close();
    expect(existsSync(path)).toBe(false);
  });

  it('switches to the stdio relay channel for the admin key only', async () => {
    const dir = tempDir();
    const gw = await startTestGateway(dir, { servers: [], agent_tokens: [{ name: 'agent', token: AGENT_SECRET, allowed_servers: ['*'] }] });
    cleanups.defer(() => gw.close());
    const path = gw.gateway.socket!;
    expect(await upgradeRelay(path, {})).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
    expect(await upgradeRelay(path, { authorization: `Bearer ${AGENT_SECRET}` })).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    const switched = await upgradeRelay(path, ADMIN);
    if (!('socket' in switched)) throw new Error(`not switched: ${JSON.stringify(switched)}`);
    // The switched connection speaks MCP as stdin/stdout do: one JSON-RPC message per line.
    const answer = new Promise<string>((resolve) => {
      let text = '';
      switched.socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.includes('\n')) resolve(text);
      });
    });
    switched.socket.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
    const reply = JSON.parse((await answer).split('\n')[0]!) as { id: number; result: { serverInfo: { name: string } } };
    expect(reply.id).toBe(1);
    expect(reply.result.serverInfo.name).toBe('mcpproxy');
    switched.socket.destroy();
  });

  it('replaces a socket a killed gateway left behind; anything else at its path means no socket, and the gateway serves on', async () => {
    const dir = tempDir();
    mkdirSync(join(dir.path, 'data'), { mode: 0o700 });
    const path = join(dir.path, 'data', 'gateway.sock');
    // The socket file a SIGKILLed process leaves behind (a clean close would remove it).
    const killed = spawn(process.execPath, ['-e', `require('node:net').createServer().listen(${JSON.stringify(path)}, () => process.kill(process.pid, 'SIGKILL'))`]);
    await new Promise((resolve) => killed.once('exit', resolve));
    expect(lstatSync(path).isSocket()).toBe(true);
    const gw = await startTestGateway(dir, { servers: [] });
    expect(gw.gateway.socket).toBe(path);
    expect((await socketRequest(path, 'GET', '/api/v1/servers', ADMIN)).status).toBe(200);
    await gw.close();

    writeFileSync(path, 'not a socket');
    const lines: string[] = [];
    const blocked = await startTestGateway(dir, { servers: [] }, { log: (line) => lines.push(line) });
    cleanups.defer(() => blocked.close());
    expect(blocked.gateway.socket).toBeUndefined();
    expect(lines.join('\n')).toContain(`no local socket: ${path} exists and is not a socket`);
    expect((await fetch(new URL('/healthz', blocked.url))).status).toBe(200);
  });

  it('puts the socket in a private directory when the data directory\'s path is too long for one, and removes both on close', async () => {
    const dir = tempDir();
    const dataDir = join(dir.path, 'd'.repeat(Math.max(1, maxSocketPathBytes() - Buffer.byteLength(dir.path))), 'data');
    expect(Buffer.byteLength(join(dataDir, 'gateway.sock'))).toBeGreaterThan(maxSocketPathBytes());
    const lines: string[] = [];
    const gw = await startTestGateway(dir, { data_dir: dataDir, servers: [] }, { log: (line) => lines.push(line), socketLocation: { tmpDir: dir.path } });
    const path = gw.gateway.socket!;
    expect(path.startsWith(join(dir.path, 'mcpproxy-'))).toBe(true);
    expect(statSync(join(path, '..')).mode & 0o777).toBe(0o700);
    expect(lines.join('\n')).toContain(`over the ${maxSocketPathBytes()}-byte limit of a socket path: the socket is ${path} instead`);
    expect((await socketRequest(path, 'GET', '/api/v1/servers', ADMIN)).status).toBe(200);
    await gw.close();
    expect(existsSync(join(path, '..'))).toBe(false);
  });
});
