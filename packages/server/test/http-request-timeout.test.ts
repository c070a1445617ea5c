// The HTTP server bounds how long a request may take to arrive (a stalled body no longer holds a
// socket for ever), and never how long a response may stream (SSE).
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpRoute } from '../src/http/http-route.js';
import { startHttpServer, type RunningHttpServer } from '../src/http/http-server.js';

const TIMEOUT_MS = 600;

/** /slow reads the whole body before answering; /stream answers for longer than the timeout. */
const routes: HttpRoute[] = [
  {
    match: (pathname) =>
      pathname === '/slow'
        ? (req, res) => {
            req.resume();
            req.on('end', () => res.end('read'));
          }
        : undefined,
  },
  {
    match: (pathname) =>
      pathname === '/stream'
        ? (_req, res) => {
            res.writeHead(200, { 'content-type': 'text/event-stream' });
            let sent = 0;
            const timer = setInterval(() => {
              res.write(`data: ${sent}\n\n`);
              if (++sent === 15) {
                clearInterval(timer);
                res.end();
              }
            }, 100);
          }
        : undefined,
  },
];

describe('request timeout', () => {
  let http: RunningHttpServer;
  beforeAll(async () => {
    http = await startHttpServer({ listen: { host: '127.0.0.1', port: 0 }, routes, requestTimeoutMs: TIMEOUT_MS });
  });
  afterAll(() => http.close());

  it('answers 408 and closes a connection whose body stalls', async () => {
    const started = Date.now();
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(http.port, '127.0.0.1', () => {
        socket.write(`POST /slow HTTP/1.1\r\nHost: 127.0.0.1:${http.port}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"tools":`);
      });
      let received = '';
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(Date.now() - started).toBeLessThan(10 * TIMEOUT_MS);
  });

  it('lets a response stream on past the timeout once the request is in', async () => {
    const response = await fetch(`${http.origin}/stream`);
    const text = await response.text();
    expect(text.match(/^data: \d+$/gm)).toHaveLength(15);
  });
});
