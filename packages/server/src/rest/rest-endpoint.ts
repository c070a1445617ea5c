import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { RestPrincipal } from '../auth/rest-principal.js';
import type { BodyText, JsonBody } from './json-body.js';

/** One authenticated call to an endpoint under /api/v1. */
export interface RestRequest {
  /** Path parameters of the endpoint's template, decoded. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly headers: IncomingHttpHeaders;
  readonly principal: RestPrincipal;
  /** The correlation id of this exchange (the caller's X-Request-Id when valid, else fresh). */
  readonly requestId: string;
  /** Aborts when the client goes away before the answer. */
  readonly signal: AbortSignal;
  /** Reads the body as one JSON value (at most 1 MiB). */
  body(): Promise<JsonBody>;
  /** Reads the body as body() does, without parsing it (for an endpoint that may not need its value). */
  bodyText(): Promise<BodyText>;
}

/** What an endpoint answers; errors are ApiError bodies built with apiError(). */
export interface RestReply {
  readonly status: number;
  /** Serialised as JSON; absent = `text` is sent as it is. */
  readonly body?: unknown;
  /** A pre-serialised JSON body, sent as it is (the OpenAPI document, a preflight answer). */
  readonly text?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * A body the endpoint writes itself, for as long as it likes (server-sent events): called once the
   * status and headers are sent, with the response to write to and end.
   */
  readonly stream?: (res: ServerResponse) => void;
}

export type RestMethod = 'GET' | 'POST' | 'DELETE';

export interface RestEndpoint {
  readonly method: RestMethod;
  /** Under /api/v1, e.g. '/servers/{name}/quarantine'; a {param} is one path segment. */
  readonly path: string;
  /** Operator tier only (agent tokens get 403). */
  readonly operatorOnly: boolean;
  /**
   * Answered without a credential (the request carries its own proof, such as an OAuth state); a
   * credential that is sent is still checked and used when it is good, never required.
   */
  readonly public?: boolean;
  /**
   * The query parameters it takes, each at most once (its OpenAPI operation's). Any other, or one given
   * twice, is refused with 400 before it is called.
   */
  readonly query?: readonly string[];
  handle(request: RestRequest): Promise<RestReply> | RestReply;
}
