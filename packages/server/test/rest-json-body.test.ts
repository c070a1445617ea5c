// readBodyText over real HTTP: a body that came whole with its headers is taken in one read, one that
// trickles in is gathered chunk by chunk; both give the text as sent (a character split across writes
// included) and both refuse a body over the limit.
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBodyText } from '../src/rest/json-body.js';

const LIMIT = 64;
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => {
    // After a turn, as the REST route reads it (its credential check comes first).
    setImmediate(() => {
      void readBodyText(req, LIMIT).then((body) => {
        const answer = JSON.stringify(body.ok ? { text: body.text } : { code: body.code });
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
        res.end(answer);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Sends one POST whose bytes are written in the given pieces (a pause between them), returns the parsed answer. */
function post(body: Buffer, cuts: readonly number[]): Promise<{ text?: string; code?: string }> {
  return new Promise((resolve, reject) => {
    const head = Buffer.from(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
    const bytes = Buffer.concat([head, body]);
    const points = [...new Set(cuts.map((c) => head.length + Math.min(c, body.length)))].sort((a, b) => a - b);
    const pieces = [0, ...points].map((start, i) => bytes.subarray(start, [...points, bytes.length][i]));
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('end', () => resolve(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)) as { text?: string; code?: string }));
    socket.on('error', reject);
    const writeFrom = (i: number): void => {
      if (i === pieces.length) return;
      socket.write(pieces[i]!);
      setTimeout(() => writeFrom(i + 1), 5);
    };
    writeFrom(0);
  });
}

describe('readBodyText', () => {
  it('gives the text as sent, whole or in pieces, and refuses a body over the limit either way', async () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 20 });
    await fc.assert(
      fc.asyncProperty(text, fc.array(fc.nat({ max: 80 }), { maxLength: 3 }), async (sent, cuts) => {
        const body = Buffer.from(sent, 'utf8');
        const answer = await post(body, cuts);
        expect(answer).toEqual(body.length > LIMIT ? { code: 'body_too_large' } : { text: sent });
      }),
      { numRuns: 40 },
    );
  });

  it('refuses a body over the limit that arrived whole with its headers', async () => {
    expect(await post(Buffer.from('x'.repeat(LIMIT + 1)), [])).toEqual({ code: 'body_too_large' });
    expect(await post(Buffer.from('x'.repeat(LIMIT)), [])).toEqual({ text: 'x'.repeat(LIMIT) });
    expect(await post(Buffer.alloc(0), [])).toEqual({ text: '' });
  });
});
