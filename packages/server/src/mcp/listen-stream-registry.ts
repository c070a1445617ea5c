import { streamToEvict } from '../http/fair-stream-eviction.js';
import type { McpIdentity } from './mcp-identity.js';

/** What a watcher of listen requests says about one: the body to use instead (if any) and what to undo at its end. */
export type ListenWatch = (request: Request, identity: McpIdentity) => Promise<{ readonly body?: string; readonly release: () => void }>;

interface ListenStream {
  readonly identity: McpIdentity;
  readonly controller: AbortController;
  /** Admission order: the lowest is the oldest. */
  readonly seq: number;
}

/**
 * The open 2026-07-28 `subscriptions/listen` streams, by who opened them. The SDK's router only
 * knows one global cap, so a caller holding every slot would lock out everyone else; here, over the
 * cap, the oldest stream of the identity that holds the most is ended (as legacy sessions are), and
 * every stream of a revoked token can be ended. A stream is ended through the signal its request
 * carries into the SDK, which then closes it cleanly.
 */
export class ListenStreamRegistry {
  private readonly streams = new Set<ListenStream>();
  private nextSeq = 0;

  /**
   * @param watch told of each stream's request before it opens (a copy of it, body unread); it may
   * give the body to open the stream with instead, and `release` is called once the stream ends,
   * whatever ends it.
   */
  constructor(
    private readonly maxStreams: number,
    private readonly watch?: ListenWatch,
  ) {}

  /** Opens one listen stream through `forward`, keeping track of it until its body ends. */
  async open(request: Request, identity: McpIdentity, forward: (request: Request) => Promise<Response>): Promise<Response> {
    const stream: ListenStream = { identity, controller: new AbortController(), seq: this.nextSeq++ };
    this.admit(stream);
    const watched = await this.watch?.(request.clone(), identity);
    const release = watched?.release ?? (() => undefined);
    if (watched?.body !== undefined) {
      const headers = new Headers(request.headers);
      headers.delete('content-length');
      request = new Request(request, { body: watched.body, headers });
    }
    let released = false;
    const forget = () => {
      this.streams.delete(stream);
      if (released) return;
      released = true;
      release();
    };
    request.signal.addEventListener('abort', forget, { once: true });
    let response: Response;
    try {
      response = await forward(new Request(request, { signal: AbortSignal.any([request.signal, stream.controller.signal]) }));
    } catch (error) {
      forget();
      throw error;
    }
    // A refusal (bad params, a missing capability) is a JSON answer: no stream stays open.
    if (response.body === null || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
      forget();
      return response;
    }
    return new Response(untilEnd(response.body, forget), { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /** Ends every stream opened with this agent token; how many there were. */
  closeToken(tokenName: string): number {
    const matching = [...this.streams].filter((stream) => stream.identity.tokenName === tokenName);
    for (const stream of matching) this.end(stream);
    return matching.length;
  }

  get size(): number {
    return this.streams.size;
  }

  private admit(stream: ListenStream): void {
    this.streams.add(stream);
    if (this.streams.size <= this.maxStreams) return;
    const oldest = streamToEvict(this.streams, stream, (candidate) => candidate.identity.key);
    if (oldest !== undefined) this.end(oldest);
  }

  private end(stream: ListenStream): void {
    this.streams.delete(stream);
    stream.controller.abort();
  }
}

/** The same bytes, calling `done` once the stream ends, fails or is cancelled by the client. */
function untilEnd(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          done();
          controller.close();
        } else {
          controller.enqueue(chunk.value);
        }
      } catch (error) {
        done();
        controller.error(error);
      }
    },
    async cancel(reason) {
      done();
      await reader.cancel(reason);
    },
  });
}
