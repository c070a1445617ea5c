import type { ServerResponse } from 'node:http';
import type { GatewayEvent } from '@mcpproxy/schema';
import { streamToEvict } from '../http/fair-stream-eviction.js';
import type { GatewayRuntime } from '../state/gateway-runtime.js';
import { GatewayEventDiff } from './gateway-event-diff.js';

export const MAX_EVENT_STREAMS = 16;
/** A comment line this often keeps an idle stream from being cut by a proxy, and finds a dead client. */
export const EVENT_KEEPALIVE_MS = 15_000;
/** Published states are folded for this long, so a burst of connection events is one diff. */
const FOLD_MS = 50;
/** A client that reads slower than this much unsent data is cut off rather than buffered for. */
const MAX_UNSENT_BYTES = 1024 * 1024;

export interface GatewayEventFeedOptions {
  readonly maxStreams?: number;
  readonly keepaliveMs?: number;
}

interface OpenStream {
  readonly holder: string;
  readonly seq: number;
  readonly res: ServerResponse;
}

/**
 * The operators' server-sent event streams (GET /api/v1/events). One subscription to the runtime,
 * held only while a stream is open, feeds every stream the same events; each stream first gets
 * `hello` with the state version it starts from. Bounded: at most `maxStreams` (over it the oldest
 * of the holder with the most is ended), a client that stops reading is cut off, and close() ends all.
 */
export class GatewayEventFeed {
  private readonly streams = new Set<OpenStream>();
  private readonly maxStreams: number;
  private readonly keepaliveMs: number;
  private nextSeq = 0;
  private diff: GatewayEventDiff | undefined;
  private unsubscribe: (() => void) | undefined;
  private fold: NodeJS.Timeout | undefined;
  private keepalive: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly runtime: Pick<GatewayRuntime, 'current' | 'subscribe'>,
    options: GatewayEventFeedOptions = {},
  ) {
    this.maxStreams = options.maxStreams ?? MAX_EVENT_STREAMS;
    this.keepaliveMs = options.keepaliveMs ?? EVENT_KEEPALIVE_MS;
  }

  /** Takes over a response whose event-stream headers are written: sends hello, then every change. */
  open(res: ServerResponse, holder: string): void {
    if (this.closed) {
      res.end();
      return;
    }
    this.start();
    // Changes published but not yet sent go to the streams already open first: this one starts from
    // its hello, whose version includes them.
    this.flush();
    const stream: OpenStream = { holder, seq: this.nextSeq++, res };
    this.streams.add(stream);
    res.once('close', () => this.forget(stream));
    if (this.streams.size > this.maxStreams) {
      const oldest = streamToEvict(this.streams, stream, (candidate) => candidate.holder);
      if (oldest !== undefined) this.end(oldest);
    }
    this.send(stream, `event: hello\ndata: ${JSON.stringify({ type: 'hello', version: this.runtime.current().snapshot.version })}\n\n`);
  }

  get size(): number {
    return this.streams.size;
  }

  /** Ends every stream and stops following the runtime. */
  close(): void {
    this.closed = true;
    for (const stream of [...this.streams]) this.end(stream);
    this.stop();
  }

  private start(): void {
    if (this.unsubscribe !== undefined) return;
    this.diff = new GatewayEventDiff(this.runtime.current());
    this.unsubscribe = this.runtime.subscribe(() => {
      this.fold ??= setTimeout(() => this.flush(), FOLD_MS);
    });
    this.keepalive = setInterval(() => {
      for (const stream of [...this.streams]) this.send(stream, ': keep-alive\n\n');
    }, this.keepaliveMs);
    this.keepalive.unref();
  }

  private stop(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.diff = undefined;
    clearTimeout(this.fold);
    this.fold = undefined;
    clearInterval(this.keepalive);
    this.keepalive = undefined;
  }

  private flush(): void {
    clearTimeout(this.fold);
    this.fold = undefined;
    if (this.diff === undefined) return;
    const events = this.diff.advance(this.runtime.current());
    if (events.length === 0) return;
    const text = events.map(frame).join('');
    for (const stream of [...this.streams]) this.send(stream, text);
  }

  private send(stream: OpenStream, text: string): void {
    if (stream.res.writableLength > MAX_UNSENT_BYTES) {
      this.end(stream);
      return;
    }
    stream.res.write(text);
  }

  private end(stream: OpenStream): void {
    this.forget(stream);
    stream.res.end();
  }

  private forget(stream: OpenStream): void {
    if (!this.streams.delete(stream)) return;
    if (this.streams.size === 0) this.stop();
  }
}

function frame(event: GatewayEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
