// HTTP over the gateway's local socket, as the CLI sends it, for the tests: one request, its status,
// headers and JSON body; and the raw upgrade of the stdio relay channel.
import { request, type IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

export interface SocketAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: unknown;
}

export function socketRequest(socketPath: string, method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<SocketAnswer> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const req = request({ socketPath, method, path, headers: { host: 'localhost', ...(text === undefined ? {} : { 'content-type': 'application/json' }), ...headers } });
    req.on('error', reject);
    req.on('response', (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data === '' ? undefined : (JSON.parse(data) as unknown) }));
    });
    if (text !== undefined) req.write(text);
    req.end();
  });
}

/** The relay channel's upgrade: the switched socket, or the refusal's status and body. */
export function upgradeRelay(socketPath: string, headers: Record<string, string>): Promise<{ socket: Socket } | { status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, method: 'GET', path: '/relay/stdio', headers: { host: 'localhost', connection: 'Upgrade', upgrade: 'mcp-stdio', ...headers } });
    req.on('error', reject);
    req.on('upgrade', (_res, socket: Socket) => resolve({ socket }));
    req.on('response', (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (data += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(data) as unknown }));
    });
    req.end();
  });
}
