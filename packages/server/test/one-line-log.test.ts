// What the gateway logs quotes what others sent; each message still reaches the log as one line. A
// client's body with a line break and an escape sequence, quoted by the JSON parse error of /mcp (a real
// gateway over HTTP); a message that fails the SDK's schema, which it reports as a pretty-printed dump
// (the start command as a real process, over stdio).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SERVE_MAIN, startTestGateway, TempDir } from './gateway-harness.js';

const dir = new TempDir();
afterAll(() => dir.remove());

describe('one line per logged message', () => {
  it('keeps a client body that breaks lines inside the one line that quotes it', async () => {
    const lines: string[] = [];
    const gw = await startTestGateway(dir, { data_dir: join(dir.path, 'http-data'), servers: [] }, { log: (line) => lines.push(line) });
    try {
      const answer = await fetch(gw.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: 'ga\nmcpproxy: \u001b[31mforged',
      });
      expect(answer.status).toBe(400);
      await vi.waitFor(() => expect(lines.some((line) => line.startsWith('mcp: '))).toBe(true), { timeout: 10_000 });
    } finally {
      await gw.close();
    }
    const quoted = lines.find((line) => line.startsWith('mcp: '))!;
    expect(quoted).toContain('"ga mcpprox');
    for (const line of lines) expect(line).not.toMatch(/[\n\r\p{Cc}]/u);
  });

  it('writes the SDK schema dump for a line on stdin that is not a JSON-RPC message as one line of the start command', async () => {
    const config = dir.file('stdio.json', JSON.stringify({ data_dir: join(dir.path, 'stdio-data'), api_key: 'a-configured-admin-key-123', servers: [] }));
    const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('MCPPROXY_')));
    const child = spawn(process.execPath, [SERVE_MAIN, '--stdio', '--config', config], { env: inherited, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      await vi.waitFor(() => expect(stderr).toContain('gateway serving MCP on stdio'), { timeout: 30_000 });
      child.stdin.write('{"jsonrpc":"2.0","id":1}\n');
      await vi.waitFor(() => expect(stderr).toContain('mcpproxy: mcp: '), { timeout: 10_000 });
    } finally {
      child.stdin.end();
      await exited;
    }
    const lines = stderr.trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^mcpproxy: /);
    expect(lines.find((line) => line.startsWith('mcpproxy: mcp: '))).toMatch(/^mcpproxy: mcp: \[ \{ "code": "invalid_union", .*"message": "Invalid input" \} \]$/);
  }, 60_000);
});
