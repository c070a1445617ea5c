import type { JSONRPCMessage, Server, Transport, TransportSendOptions } from '@modelcontextprotocol/server';
import { jsonRpcError } from './json-rpc-error-response.js';
import { answersStandIn, standInResult, withPreparedBody } from './prepared-json-response.js';
import { splicedJson } from './prepared-json-splice.js';

/**
 * The 2026-07-28 answers built on prepared JSON (a tools/list page, with or without a rider's facet).
 * The SDK's handler (`createMcpHandler`) runs every check of that revision (the envelope, the
 * standard headers, the protocol version, required client capabilities) and its encode steps
 * (`resultType`, `ttlMs`, `cacheScope`, serverInfo in `_meta`) as for any request; only the last step,
 * turning the encoded message into the response body, takes the prepared bytes and serializes just
 * what the message adds to them (prepared-json-splice.ts), where the SDK would serialize the whole
 * listing again for every request.
 *
 * How: the per-request server instance is watched from the factory, which is handed the exchange's
 * Request; the transport the SDK connects it to gets a stand-in for the answer and the exchange keeps
 * the real bytes (prepared-json-response.ts), which {@link answer} puts in the SDK's response.
 */
export class PreparedModernAnswers {
  readonly #bodies = new WeakMap<Request, readonly Buffer[]>();

  /** Makes the answer `server` gives in `exchange` go out as prepared bytes when it is built on them. */
  watch(server: Server, exchange: Request): void {
    const connect = server.connect.bind(server);
    server.connect = (transport: Transport) => {
      this.#intercept(transport, exchange);
      return connect(transport);
    };
  }

  /** The SDK's response to `exchange`, with the prepared answer as its body when there is one. */
  async answer(exchange: Request, response: Response): Promise<Response> {
    const body = this.#bodies.get(exchange);
    if (body === undefined) return response;
    this.#bodies.delete(exchange);
    if (!answersStandIn(response)) {
      // The stand-in went out some other way (never for a request answered with a plain result): say
      // so rather than let an empty result pass for the answer.
      await response.body?.cancel();
      return jsonRpcError(500, -32603, 'Internal error: the answer could not be sent');
    }
    return withPreparedBody(response, body);
  }

  #intercept(transport: Transport, exchange: Request): void {
    const send = transport.send.bind(transport);
    const close = transport.close.bind(transport);
    let answered = false;
    // The SDK tears the per-request instance down (closing it, settling and aborting what it held) in
    // the same turn that settles the answer, before the response can reach the socket. Once the
    // answer is a prepared body, the teardown waits for the next turn: the bytes go out first.
    transport.close = () => (answered ? new Promise<void>((resolve, reject) => setImmediate(() => close().then(resolve, reject))) : close());
    let sent = 0;
    transport.send = (message: JSONRPCMessage, options?: TransportSendOptions) => {
      // Only an answer that is the exchange's first message goes out as one JSON body: anything sent
      // before it (a notification) makes the SDK stream the exchange, and the stream carries messages as given.
      sent++;
      if (sent !== 1 || !('result' in message)) return send(message, options);
      const body = splicedJson(message);
      if (body === undefined) return send(message, options);
      this.#bodies.set(exchange, body);
      answered = true;
      return send(standInResult(message.id), options);
    };
  }
}
