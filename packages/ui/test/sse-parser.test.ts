// The event-stream parser the UI reads GET /api/v1/events with: the events must not depend on where
// the network cut the body into chunks, whatever the line ends (fast-check over random cuts).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseParser, type ServerSentEvent } from '../src/api/sse-parser.js';

const field = fc.string({ maxLength: 12 }).filter((text) => !/[\r\n]/.test(text));
const eventArb = fc.record({ event: fc.constantFrom('', 'hello', 'server', 'tool'), data: fc.array(field, { minLength: 1, maxLength: 3 }) });
const lineEnd = fc.constantFrom('\n', '\r\n', '\r');

function encode(events: readonly { event: string; data: readonly string[] }[], end: string, comment: boolean): string {
  return events.map((e) => `${comment ? `: keep-alive${end}` : ''}${e.event === '' ? '' : `event: ${e.event}${end}`}${e.data.map((d) => `data: ${d}${end}`).join('')}${end}`).join('');
}

function parseInChunks(text: string, cuts: readonly number[]): ServerSentEvent[] {
  const parser = new SseParser();
  const points = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  const out: ServerSentEvent[] = [];
  let from = 0;
  for (const point of [...points, text.length]) {
    out.push(...parser.push(text.slice(from, point)));
    from = point;
  }
  return out;
}

describe('SseParser', () => {
  it('yields the same events however the stream is cut, for LF, CRLF and CR line ends', () => {
    fc.assert(
      fc.property(fc.array(eventArb, { maxLength: 6 }), lineEnd, fc.boolean(), fc.array(fc.nat(), { maxLength: 20 }), (events, end, comment, cuts) => {
        const expected = events.map((e) => ({ event: e.event === '' ? 'message' : e.event, data: e.data.join('\n') }));
        expect(parseInChunks(encode(events, end, comment), cuts)).toEqual(expected);
      }),
    );
  });

  it('reads what the gateway sends', () => {
    const parser = new SseParser();
    expect(parser.push('event: hello\ndata: {"type":"hello","version":3}\n\n: keep-alive\n\nevent: server\nda')).toEqual([{ event: 'hello', data: '{"type":"hello","version":3}' }]);
    expect(parser.push('ta: {"type":"server"}\n\n')).toEqual([{ event: 'server', data: '{"type":"server"}' }]);
  });
});
