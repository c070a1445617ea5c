import type { AuthInfo, JSONRPCMessage, MessageExtraInfo, RequestId, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

/** The part of a 2025-11-25 session transport this wrapper needs (PreparedJsonSessionTransport). */
export interface JsonSessionTransport extends Transport {
  handleRequest(request: Request, options: { authInfo: AuthInfo }): Promise<Response>;
}

/** One POST being answered: the requests it carries and, once upgraded, the event stream it is answered on. */
interface Exchange {
  readonly request: Request;
  readonly unanswered: Set<RequestId>;
  upgrade(response: Response): void;
  stream?: EventStreamSink;
}

interface EventStreamSink {
  readonly controller: ReadableStreamDefaultController<Uint8Array>;
  closed: boolean;
}

const encoder = new TextEncoder();

/**
 * A 2025-11-25 session transport that answers each POST with one JSON body, as the session transport
 * beneath it does, unless the server sends a message related to one of the POST's requests before
 * answering it (progress of a forwarded call, a server-to-client request on behalf of an upstream):
 * then that POST is answered with an event stream instead, carrying those messages and then the
 * answers, as the revision asks ("messages SHOULD relate to the originating client request").
 * Without this, a JSON-mode transport drops such messages. Listing and every other local answer keep
 * their JSON body (and the prepared bytes behind it).
 *
 * The transport beneath still sees every message and every answer, so its own bookkeeping settles as
 * usual; its JSON body for an upgraded POST is discarded.
 */
export class EventStreamUpgradeTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  readonly #inner: JsonSessionTransport;
  /** POSTs being answered, by their HTTP request. */
  readonly #exchanges = new Map<Request, Exchange>();
  /** The POST each unanswered request arrived in. */
  readonly #exchangeOf = new Map<RequestId, Request>();

  constructor(inner: JsonSessionTransport) {
    this.#inner = inner;
    inner.onmessage = (message, extra) => {
      this.#track(message, extra?.request);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => {
      for (const exchange of this.#exchanges.values()) this.#end(exchange);
      this.#exchanges.clear();
      this.#exchangeOf.clear();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.#inner.sessionId;
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.#inner.setSupportedProtocolVersions?.(versions);
  }

  start(): Promise<void> {
    return this.#inner.start();
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('method' in message) {
      const exchange = options?.relatedRequestId === undefined ? undefined : this.#pendingExchangeOf(options.relatedRequestId);
      if (exchange !== undefined) {
        this.#write(exchange, message);
        return;
      }
      return this.#inner.send(message, options);
    }
    const id = message.id;
    if (id !== null && id !== undefined) {
      const exchange = this.#pendingExchangeOf(id);
      if (exchange?.stream !== undefined) {
        this.#write(exchange, message);
        this.#answered(exchange, id);
      } else if (exchange !== undefined) {
        this.#exchangeOf.delete(id);
        exchange.unanswered.delete(id);
      }
    }
    // The transport beneath settles its bookkeeping (and writes the JSON body, unless upgraded).
    return this.#inner.send(message, options);
  }

  /** Serves one HTTP exchange of the session; a POST may come back as an event stream (see above). */
  async handleRequest(request: Request, options: { authInfo: AuthInfo }): Promise<Response> {
    if (request.method !== 'POST') return this.#inner.handleRequest(request, options);
    let upgrade!: (response: Response) => void;
    const upgraded = new Promise<Response>((resolve) => (upgrade = resolve));
    const exchange: Exchange = { request, unanswered: new Set(), upgrade };
    this.#exchanges.set(request, exchange);
    const answered = this.#inner.handleRequest(request, options);
    try {
      const first = await Promise.race([answered.then((response) => ({ upgraded: false, response })), upgraded.then((response) => ({ upgraded: true, response }))]);
      if (first.upgraded) {
        // The JSON body beneath is superseded by the stream; let it go.
        answered.then((response) => response.body?.cancel(), () => undefined).catch(() => undefined);
      } else {
        this.#forget(exchange);
      }
      return first.response;
    } catch (error) {
      this.#forget(exchange);
      throw error;
    }
  }

  #track(message: JSONRPCMessage, request: Request | undefined): void {
    if (request === undefined) return;
    const exchange = this.#exchanges.get(request);
    if (exchange === undefined) return;
    if ('method' in message && 'id' in message) {
      exchange.unanswered.add(message.id);
      this.#exchangeOf.set(message.id, request);
    } else if ('method' in message && message.method === 'notifications/cancelled') {
      // A cancelled request is never answered: its place on a stream ends here.
      const cancelled = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      const target = cancelled === undefined ? undefined : this.#pendingExchangeOf(cancelled);
      if (target?.stream !== undefined && cancelled !== undefined) this.#answered(target, cancelled);
    }
  }

  #pendingExchangeOf(id: RequestId): Exchange | undefined {
    const request = this.#exchangeOf.get(id);
    return request === undefined ? undefined : this.#exchanges.get(request);
  }

  #write(exchange: Exchange, message: JSONRPCMessage): void {
    exchange.stream ??= this.#openStream(exchange);
    const sink = exchange.stream;
    if (sink.closed) return;
    try {
      sink.controller.enqueue(encoder.encode(`event: message\ndata: ${JSON.stringify(message)}\n\n`));
    } catch (error) {
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
    }
  }

  #openStream(exchange: Exchange): EventStreamSink {
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        controller = c;
      },
      cancel: () => {
        // The client left; its requests still run (on this revision a dropped stream is not a cancel).
        sink.closed = true;
      },
    });
    const sink: EventStreamSink = { controller, closed: false };
    const headers: Record<string, string> = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', connection: 'keep-alive' };
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    exchange.upgrade(new Response(body, { status: 200, headers }));
    return sink;
  }

  #answered(exchange: Exchange, id: RequestId): void {
    this.#exchangeOf.delete(id);
    exchange.unanswered.delete(id);
    if (exchange.unanswered.size > 0) return;
    this.#end(exchange);
    this.#exchanges.delete(exchange.request);
  }

  #end(exchange: Exchange): void {
    const sink = exchange.stream;
    if (sink === undefined || sink.closed) return;
    sink.closed = true;
    try {
      sink.controller.close();
    } catch {
      // already cancelled by the client
    }
  }

  #forget(exchange: Exchange): void {
    this.#exchanges.delete(exchange.request);
    for (const id of exchange.unanswered) if (this.#exchangeOf.get(id) === exchange.request) this.#exchangeOf.delete(id);
  }
}
