// The endpoint reads a POST's JSON body itself, once: the text it parses must be the text the SDK's
// own reader (a TextDecoder) would have given, byte order mark, split characters and bad bytes alike.
import { DEFAULT_MAX_REQUEST_BODY_SIZE } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { readJsonRequestBody } from '../src/mcp/json-request-body.js';

/** A POST whose body arrives as these chunks, with its Content-Length declared. */
function post(chunks: readonly Uint8Array[]): Request {
  const length = chunks.reduce((sum, c) => sum + c.byteLength, 0);
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (next < chunks.length) controller.enqueue(chunks[next++]!);
      else controller.close();
    },
  });
  return new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(length) }, body, duplex: 'half' } as RequestInit);
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe('readJsonRequestBody', () => {
  it('parses a body that starts with a byte order mark, as the SDK reader does', async () => {
    const read = await readJsonRequestBody(post([new Uint8Array([0xef, 0xbb, 0xbf]), bytes('{"id":1}')]));
    expect(read).toEqual({ kind: 'parsed', value: { id: 1 } });
  });

  it('decodes a character split across chunks', async () => {
    const whole = bytes('{"name":"Grüße ✓"}');
    const cut = whole.indexOf(0xc3) + 1;
    const read = await readJsonRequestBody(post([whole.subarray(0, cut), whole.subarray(cut)]));
    expect(read).toEqual({ kind: 'parsed', value: { name: 'Grüße ✓' } });
  });

  it('gives malformed bytes as the replacement characters a TextDecoder gives', async () => {
    const malformed = new Uint8Array([...bytes('{"v":"a'), 0xff, 0xc3, 0x28, 0xe2, 0x82, ...bytes('b"}')]);
    const read = await readJsonRequestBody(post([malformed]));
    expect(read).toEqual({ kind: 'parsed', value: JSON.parse(new TextDecoder().decode(malformed)) as unknown });
  });

  it('hands a body that is not JSON on as the same text', async () => {
    const read = await readJsonRequestBody(post([bytes('not json ✓')]));
    expect(read.kind).toBe('unparsed');
    if (read.kind === 'unparsed') expect(await read.request.text()).toBe('not json ✓');
  });

  it('leaves a body declared over the limit to the SDK', async () => {
    const request = new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(DEFAULT_MAX_REQUEST_BODY_SIZE + 1) }, body: '{}' });
    expect(await readJsonRequestBody(request)).toEqual({ kind: 'untouched' });
  });
});
