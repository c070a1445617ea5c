// readBodyText over real HTTP: a body that came whole with its headers is taken in one read, one that
// trickles in is gathered chunk by chunk; both give the text as sent (a character split across writes
// included, a leading byte order mark dropped) and both refuse a body over the limit, bytes that are not
// UTF-8 (naming where) and a compressed body.
import { isUtf8 } from 'node:buffer';
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
        const answer = JSON.stringify(body.ok ? { text: body.text } : { status: body.status, code: body.code, message: body.message, path: body.path });
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

interface Answer {
  text?: string;
  status?: number;
  code?: string;
  message?: string;
  path?: string;
}

/** Sends one POST whose bytes are written in the given pieces (a pause between them), returns the parsed answer. */
function post(body: Buffer, cuts: readonly number[], headers = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const head = Buffer.from(`POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${headers}Content-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
    const bytes = Buffer.concat([head, body]);
    const points = [...new Set(cuts.map((c) => head.length + Math.min(c, body.length)))].sort((a, b) => a - b);
    const pieces = [0, ...points].map((start, i) => bytes.subarray(start, [...points, bytes.length][i]));
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('utf8')));
    socket.on('end', () => resolve(JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4)) as Answer));
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
        expect(answer).toEqual(body.length > LIMIT ? expect.objectContaining({ code: 'body_too_large' }) : { text: sent });
      }),
      { numRuns: 40 },
    );
  });

  it('refuses a body over the limit that arrived whole with its headers', async () => {
    expect(await post(Buffer.from('x'.repeat(LIMIT + 1)), [])).toMatchObject({ code: 'body_too_large' });
    expect(await post(Buffer.from('x'.repeat(LIMIT)), [])).toEqual({ text: 'x'.repeat(LIMIT) });
    expect(await post(Buffer.alloc(0), [])).toEqual({ text: '' });
  });

  it('refuses bytes that are not UTF-8, naming the first byte where no character starts, whole or in pieces', async () => {
    const bytes = fc.tuple(fc.string({ unit: 'grapheme', maxLength: 10 }), fc.uint8Array({ maxLength: 6 }), fc.string({ maxLength: 5 }));
    await fc.assert(
      fc.asyncProperty(bytes, fc.array(fc.nat({ max: 40 }), { maxLength: 2 }), async ([before, middle, after], cuts) => {
        const body = Buffer.concat([Buffer.from(before), middle, Buffer.from(after)]);
        const answer = await post(body, cuts);
        if (body.length > LIMIT) {
          expect(answer).toMatchObject({ code: 'body_too_large' });
          return;
        }
        if (isUtf8(body)) {
          expect(answer).toEqual({ text: body.toString('utf8', body.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])) ? 3 : 0) });
          return;
        }
        const offset = Number(/at byte (\d+) /.exec(answer.message ?? '')?.[1]);
        expect(answer).toMatchObject({ status: 400, code: 'invalid_json', path: '' });
        expect(answer.message).toBe(`The body is not UTF-8: no UTF-8 character starts at byte ${offset} (0x${body[offset]!.toString(16).toUpperCase().padStart(2, '0')})`);
        expect(isUtf8(body.subarray(0, offset))).toBe(true);
        expect(offset).toBeGreaterThanOrEqual(Buffer.byteLength(before));
      }),
      { numRuns: 40 },
    );
    expect(await post(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d]), [])).toMatchObject({ code: 'invalid_json', message: 'The body is not UTF-8: no UTF-8 character starts at byte 6 (0xFF)' });
  });

  it('drops a leading byte order mark', async () => {
    expect(await post(Buffer.from('\ufeff{"a":1}'), [])).toEqual({ text: '{"a":1}' });
    expect(await post(Buffer.from('\ufeff{"a":1}'), [1])).toEqual({ text: '{"a":1}' });
    expect(await post(Buffer.from('{"a":"\ufeff"}'), [])).toEqual({ text: '{"a":"\ufeff"}' });
  });

  it('refuses a compressed body with 415, naming Content-Encoding, and takes identity as no coding', async () => {
    const body = Buffer.from('{"a":1}');
    expect(await post(body, [], 'Content-Encoding: gzip\r\n')).toEqual({ status: 415, code: 'unsupported_media_type', message: 'Send the body uncompressed (got Content-Encoding: gzip)', path: 'Content-Encoding' });
    expect(await post(body, [], 'Content-Encoding: br\r\n')).toMatchObject({ status: 415, path: 'Content-Encoding' });
    expect(await post(body, [], 'Content-Encoding: Identity\r\n')).toEqual({ text: '{"a":1}' });
  });
});
