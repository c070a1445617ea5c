import {
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
  type JSONRPCMessage,
  type MessageExtraInfo,
  type RequestId,
  type Transport,
  type TransportSendOptions,
  type WebStandardStreamableHTTPServerTransportOptions,
} from '@modelcontextprotocol/server';
import { answersStandIn, standInResult, withPreparedBody } from './prepared-json-response.js';
import { splicedJson } from './prepared-json-splice.js';
import { withoutRiderOnlyParams } from './rider-only-params.js';

export type SessionTransportOptions = Omit<WebStandardStreamableHTTPServerTransportOptions, 'enableJsonResponse'>;

/**
 * One 2025-11-25 session's Streamable HTTP transport, as its server sees it: the SDK's transport in
 * JSON-response mode, except that a result built on prepared JSON (a tools/list page, or a page with
 * a rider's `_meta`) goes out as those bytes, with only what the result adds to them serialized
 * (prepared-json-splice.ts), instead of the whole listing being serialized again for every request.
 *
 * Why JSON bodies: every answer here is computed locally with no related messages on the way (no
 * progress, no server->client requests during a call), so one `application/json` body per POST is
 * all a client needs and cheaper for both sides than an SSE stream; notifications (list_changed)
 * still reach the client on its GET stream, which the SDK transport serves as before.
 *
 * How the bytes get in: the SDK transport answers a POST from what its `send` is given, so for an
 * exchange that is a single request this wrapper hands it a stand-in result (prepared-json-response.ts)
 * and keeps the answer's bytes for that exchange; {@link handleRequest} then answers with them in
 * place of the stand-in body. Batches and everything else pass through as is.
 */
export class PreparedJsonSessionTransport implements Transport {
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  onmessage?: (<T extends JSONRPCMessage>(message: T, extra?: MessageExtraInfo) => void) | undefined;

  readonly #http: WebStandardStreamableHTTPServerTransport;
  /** The HTTP exchange each in-flight request arrived in, by JSON-RPC id (as long as the SDK's own maps keep it). */
  readonly #exchangeOf = new Map<RequestId, Request>();
  /** The ids of each exchange, so that an exchange that ends unanswered (a cancelled request) takes them along. */
  readonly #idsOf = new WeakMap<Request, RequestId[]>();
  /** Messages per exchange; prepared bytes replace a body only when it answers exactly one. */
  readonly #messageCount = new WeakMap<Request, number>();
  readonly #preparedBody = new WeakMap<Request, readonly Buffer[]>();
  /** The params of a rider-only request, kept aside while the SDK transport checks it (rider-only-params.ts). */
  readonly #paramsAside = new WeakMap<Request, Readonly<Record<string, unknown>>>();

  constructor(options: SessionTransportOptions) {
    this.#http = new WebStandardStreamableHTTPServerTransport({ ...options, enableJsonResponse: true });
    this.#http.onmessage = (received, extra) => {
      const exchange = extra?.request;
      let message = received;
      const params = exchange === undefined ? undefined : this.#paramsAside.get(exchange);
      if (params !== undefined && 'method' in message) {
        this.#paramsAside.delete(exchange!);
        message = { ...message, params } as typeof received;
      }
      if (exchange !== undefined) {
        // The SDK hands over every message of a POST before any handler can answer (handlers run
        // asynchronously), so the count is complete by the time a result is sent.
        this.#messageCount.set(exchange, (this.#messageCount.get(exchange) ?? 0) + 1);
        if ('method' in message && 'id' in message) {
          this.#exchangeOf.set(message.id, exchange);
          const ids = this.#idsOf.get(exchange);
          if (ids === undefined) {
            this.#idsOf.set(exchange, [message.id]);
            exchange.signal.addEventListener('abort', () => this.#forget(exchange), { once: true });
          } else ids.push(message.id);
        }
      }
      this.onmessage?.(message, extra);
    };
    this.#http.onclose = () => {
      this.#exchangeOf.clear();
      this.onclose?.();
    };
    this.#http.onerror = (error) => this.onerror?.(error);
  }

  get sessionId(): string | undefined {
    return this.#http.sessionId;
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.#http.setSupportedProtocolVersions(versions);
  }

  start(): Promise<void> {
    return this.#http.start();
  }

  close(): Promise<void> {
    return this.#http.close();
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const related = options?.relatedRequestId === undefined ? undefined : { relatedRequestId: options.relatedRequestId };
    // Structural checks, not the SDK's schema guards: the message comes from our own server, and a
    // schema check of a 1,000-tool result costs a tenth of a millisecond per answer.
    const id = 'method' in message ? undefined : message.id;
    const exchange = id === undefined ? undefined : this.#exchangeOf.get(id);
    if (id !== undefined && exchange !== undefined) {
      this.#exchangeOf.delete(id);
      const prepared = 'result' in message && this.#messageCount.get(exchange) === 1 ? splicedJson(message) : undefined;
      if (prepared !== undefined) {
        this.#preparedBody.set(exchange, prepared);
        return this.#http.send(standInResult(id), related);
      }
    }
    return this.#http.send(message, related);
  }

  /** Drops what is kept for an exchange that is over, answered or not (a cancelled request never is). */
  #forget(exchange: Request): void {
    for (const id of this.#idsOf.get(exchange) ?? []) if (this.#exchangeOf.get(id) === exchange) this.#exchangeOf.delete(id);
    this.#idsOf.delete(exchange);
  }

  /** Serves one HTTP exchange of the session (POST, GET stream, DELETE) through the SDK transport. */
  async handleRequest(request: Request, options: { authInfo: AuthInfo; parsedBody?: unknown }): Promise<Response> {
    let response: Response;
    const aside = request.method === 'POST' ? withoutRiderOnlyParams(options.parsedBody) : undefined;
    if (aside !== undefined) this.#paramsAside.set(request, aside.params);
    try {
      response = await this.#http.handleRequest(request, aside === undefined ? options : { ...options, parsedBody: aside.body });
    } finally {
      this.#forget(request);
      this.#paramsAside.delete(request);
    }
    const body = this.#preparedBody.get(request);
    if (body === undefined || !answersStandIn(response)) return response;
    this.#preparedBody.delete(request);
    return withPreparedBody(response, body);
  }
}
