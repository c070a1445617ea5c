import type { ConnectionState, Saturation } from '@mcpproxy/evaluator';
import { Client, ProtocolError, ProtocolErrorCode, SdkError, SdkErrorCode, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { AuthProvider, CallToolResult, ClientCapabilities, ClientContext, RequestId, RequestMethod, Result, ResultTypeMap, ServerCapabilities, Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { REAL_CLOCK } from '../preflight/wait-clock.js';
import type { WaitClock } from '../preflight/wait-clock.js';
import { RuntimeError } from '../state/runtime-error.js';
import { listUpstreamTools, type InvalidTool } from './list-upstream-tools.js';
import { captureOverload } from './overload-capture.js';
import type { HttpOverload } from './overload-capture.js';
import type { ListedTool } from './list-upstream-tools.js';
import { MAX_BACKOFF_EXPONENT, reconnectDelay } from './reconnect-backoff.js';
import type { BackoffPolicy } from './reconnect-backoff.js';
import { parseRetryAfter } from './retry-after.js';
import { SaturationWindow } from './saturation-window.js';
import type { OverloadSignal } from './saturation-window.js';
import type { CallRelay, UpstreamServerRequest } from './call-relay.js';
import { InFlightRequests, type InFlightRequest } from './in-flight-requests.js';
import { insufficientScope } from './insufficient-scope.js';
import { PausableDeadline } from './pausable-deadline.js';
import { relateServerRequests } from './related-request-streams.js';
import { StderrTail } from './stderr-tail.js';
import { releaseReadMessages } from './stdio-read-buffer-release.js';
import { captureUnauthorized } from './unauthorized-capture.js';
import type { UnauthorizedCapture } from './unauthorized-capture.js';
import type { UpstreamNotification } from './upstream-notification.js';
import type { UpstreamSpec } from './upstream-spec.js';

export type DiagnosticAction = 'restart' | 'login' | 'view_logs';

/** One upstream as the runtime sees it. Replaced (never mutated) on every change. */
export interface UpstreamStatus {
  /** undefined = not started yet (initializing). */
  readonly state: ConnectionState | undefined;
  readonly last_error?: string;
  readonly diagnostic_action?: DiagnosticAction;
  readonly ever_ready: boolean;
  /** The upstream's WWW-Authenticate from its last 401 (pending_auth). */
  readonly www_authenticate?: string;
  /** The last known index; kept while the connection is down. */
  readonly tools: ReadonlyMap<string, ListedTool>;
  /** Entries of that listing it does not serve (malformed, or a name listed twice), and why. */
  readonly invalid_tools: readonly InvalidTool[];
  /** While ready: the upstream said it is overloaded, and no call goes to it until the window ends. */
  readonly saturation?: Saturation;
}

export interface UpstreamConnectionOptions {
  /** Timeout of every request the gateway makes on its own (initialize, each tools/list page). */
  readonly requestTimeoutMs: number;
  readonly callTimeoutMs: number;
  readonly backoff: BackoffPolicy;
  readonly clientInfo: { readonly name: string; readonly version: string };
  /** The stored bearer credential of an HTTP upstream (`auth login`), read at each attempt. */
  readonly credential?: () => Promise<string | undefined>;
  /**
   * The OAuth login of an HTTP upstream (`auth login <server>`): its access token goes on every
   * request (over a static credential), and a 401 gets one refresh before it stands.
   */
  readonly auth?: AuthProvider;
  /** The upstream answered 403 insufficient_scope: the next login must ask for this scope too. */
  readonly onInsufficientScope?: (scope: string) => void;
  /** Called for every JSON-RPC message sent to the upstream. */
  readonly onMessageSent: () => void;
  /** Called after every status change. */
  readonly onChange: (status: UpstreamStatus) => void;
  readonly random?: () => number;
  /** JSON-RPC error codes with which this upstream says it is overloaded (besides HTTP 429 and 503). */
  readonly saturationErrorCodes?: readonly number[];
  /** What ends an overload window (tests move it by hand). */
  readonly clock?: WaitClock;
  /** Resource and prompt list changes, resource updates and log messages the upstream sends on its own. */
  readonly onNotification?: (notification: UpstreamNotification) => void;
}

/** The requests a downstream client's request is forwarded as, besides tools/call. */
export type ForwardedMethod = Extract<
  RequestMethod,
  'resources/list' | 'resources/templates/list' | 'resources/read' | 'prompts/list' | 'prompts/get' | 'completion/complete'
>;

export interface ForwardOptions {
  readonly signal?: AbortSignal;
  readonly relay?: CallRelay;
}

/**
 * What the gateway's client declares to every upstream: the server-to-client requests it can route to
 * a downstream client (the one whose call caused them, when that client declared the same).
 */
export const ROUTED_CLIENT_CAPABILITIES: ClientCapabilities = { sampling: { tools: {} }, elicitation: { form: {}, url: {} }, roots: {} };

/** Server-to-client requests the upstream related to a call: the request's id -> the id of the POST's call (HTTP). */
const RELATED_LIMIT = 1000;

interface Attempt {
  readonly generation: number;
  readonly client: Client;
  /** HTTP: which call's stream each server-to-client request arrived on (server request id -> call id). */
  readonly related: Map<RequestId, RequestId>;
  readonly unauthorized?: UnauthorizedCapture;
  readonly stderr?: StderrTail;
  lost: boolean;
  /** Why the transport gave up on a message too large for it, and what the connection was doing then. */
  oversized?: string;
}

const EMPTY_TOOLS: ReadonlyMap<string, ListedTool> = new Map();

/**
 * One connection to one upstream through the SDK client, with its state machine:
 * connecting (or authenticating, when a stored credential is tried) -> discovering -> ready;
 * a failed attempt is `error` (or `pending_auth` after a 401); a lost ready connection is
 * `disconnected`; both keep their last error and retry with capped exponential backoff.
 * The tool index is refreshed on notifications/tools/list_changed and on every reconnect.
 * Nothing here waits without a timeout, so a hanging upstream never holds anything up.
 *
 * The client speaks the 2025-11-25 handshake (the SDK's default): every 2026-era server also
 * answers it, and list_changed then arrives unsolicited, without a subscriptions/listen stream.
 */
export class UpstreamConnection {
  private current: UpstreamStatus = { state: undefined, ever_ready: false, tools: EMPTY_TOOLS, invalid_tools: [] };
  private generation = 0;
  private attempt: Attempt | undefined;
  private failures = 0;
  private timer: NodeJS.Timeout | undefined;
  private running = false;
  private refreshing = false;
  private refreshAgain = false;
  private probing = false;
  private readonly saturation: SaturationWindow;
  /** Forwarded requests awaiting their answer, across attempts (each ends with its request). */
  private readonly inFlight = new InFlightRequests();
  /** Upstream resource URIs some downstream client is subscribed to; subscribed again on every reconnect. */
  private readonly subscribed = new Set<string>();

  constructor(
    readonly spec: UpstreamSpec,
    private readonly options: UpstreamConnectionOptions,
  ) {
    this.saturation = new SaturationWindow({
      clock: options.clock ?? REAL_CLOCK,
      backoff: options.backoff,
      ...(options.random === undefined ? {} : { random: options.random }),
      onEnd: () => this.saturationEnded(),
    });
  }

  status(): UpstreamStatus {
    return this.current;
  }

  /** The last lines the upstream process wrote to stderr (stdio only). */
  logs(): readonly string[] {
    return this.attempt?.stderr?.all() ?? [];
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.failures = 0;
    void this.connect(false);
  }

  /** Closes the connection and stops retrying; the last index and error stay visible. */
  async stop(): Promise<void> {
    this.running = false;
    this.generation += 1;
    this.clearTimer();
    this.saturation.reset();
    const attempt = this.attempt;
    if (attempt !== undefined) {
      attempt.lost = true;
      await closeQuietly(attempt.client);
    }
    if (this.current.state !== undefined) this.replace({ ...withoutSaturation(this.current), state: 'disconnected' });
  }

  async restart(): Promise<void> {
    await this.stop();
    this.start();
  }

  /** What the upstream declared at its initialize on the live connection (undefined while not connected). */
  capabilities(): ServerCapabilities | undefined {
    const attempt = this.attempt;
    if (attempt === undefined || attempt.lost || this.current.state !== 'ready') return undefined;
    return attempt.client.getServerCapabilities();
  }

  /**
   * Forwards one downstream request (resources, prompts, completion) and returns the upstream's
   * answer. The same cancellation and progress relay as a tool call; no overload window applies
   * (that one is about tool calls). A JSON-RPC error of the upstream comes back as that error.
   * A listing may take the timeout of the gateway's own requests; a read, get or completion that
   * of a tool call.
   */
  async forward<M extends ForwardedMethod>(method: M, params: Record<string, unknown>, options: ForwardOptions): Promise<ResultTypeMap[M]> {
    const timeoutMs = method.endsWith('/list') ? this.options.requestTimeoutMs : this.options.callTimeoutMs;
    const attempt = this.attempt;
    if (attempt === undefined || attempt.lost || this.current.state !== 'ready') {
      throw new RuntimeError('server_not_connected', `server ${this.spec.name} is not connected (${this.current.state ?? 'initializing'})`);
    }
    const deadline = new PausableDeadline(timeoutMs);
    const entry = this.inFlight.open(options.relay, deadline);
    try {
      const meta = entry.progressToken === undefined ? {} : { _meta: { progressToken: entry.progressToken } };
      const stop = options.signal === undefined ? deadline.signal : AbortSignal.any([options.signal, deadline.signal]);
      return await this.inFlight.sending(entry, () =>
        attempt.client.request({ method, params: { ...params, ...meta } } as { method: M; params: Record<string, unknown> }, { timeout: NO_SDK_TIMEOUT, signal: stop }),
      );
    } catch (cause) {
      if (cause instanceof ProtocolError) throw cause;
      if (!this.isStale(attempt)) this.probe(attempt);
      if (cause instanceof SdkError && cause.code === SdkErrorCode.RequestTimeout) {
        throw new RuntimeError('upstream_timeout', `${this.spec.name}: ${method} did not answer within ${timeoutMs} ms`, { cause });
      }
      throw new RuntimeError('upstream_failed', `${this.spec.name}: ${method} failed: ${errorText(cause)}`, { cause });
    } finally {
      this.inFlight.close(entry);
    }
  }

  /**
   * Keeps the upstream subscribed to `uri` (resources/subscribe) or not, now and across reconnects.
   * The gateway counts its own subscribers; this sees only the first and the last of them.
   */
  setResourceSubscribed(uri: string, on: boolean): void {
    if (on === this.subscribed.has(uri)) return;
    if (on) this.subscribed.add(uri);
    else this.subscribed.delete(uri);
    const attempt = this.attempt;
    if (attempt !== undefined && !attempt.lost && this.current.state === 'ready') this.sendSubscription(attempt, uri, on);
  }

  /** Forwarded requests in flight now (tests: a cancelled or failed one leaves nothing behind). */
  inFlightCount(): number {
    return this.inFlight.size;
  }

  /**
   * The stored login can no longer be used (a refresh the authorization server refused): the server
   * waits for a new login now (pending_auth, preflight oauth_required) instead of failing calls one by
   * one. The background retries go on; each meets the 401 until someone logs in.
   */
  loginNeeded(reason: string): void {
    if (!this.running || this.spec.transport !== 'http') return;
    this.generation += 1;
    this.clearTimer();
    this.saturation.close();
    const attempt = this.attempt;
    if (attempt !== undefined) {
      attempt.lost = true;
      void closeQuietly(attempt.client);
    }
    const { saturation: _saturation, ...rest } = this.current;
    this.replace({ ...rest, state: 'pending_auth', last_error: reason, diagnostic_action: 'login' });
    this.scheduleReconnect();
  }

  /**
   * `signal` cancels the call upstream (the SDK sends notifications/cancelled with the id it gave the
   * call there); `relay` gets the upstream's progress, asked for only when the relay wants it.
   */
  async callTool(tool: string, args: Record<string, unknown> | undefined, signal?: AbortSignal, relay?: CallRelay): Promise<CallToolResult> {
    const attempt = this.attempt;
    if (attempt === undefined || attempt.lost || this.current.state !== 'ready') {
      throw new RuntimeError('server_not_connected', `server ${this.spec.name} is not connected (${this.current.state ?? 'initializing'})`);
    }
    if (this.current.saturation !== undefined) throw this.saturatedError(tool);
    const deadline = new PausableDeadline(this.options.callTimeoutMs);
    const call = this.inFlight.open(relay, deadline);
    try {
      const meta = call.progressToken === undefined ? {} : { _meta: { progressToken: call.progressToken } };
      const stop = signal === undefined ? deadline.signal : AbortSignal.any([signal, deadline.signal]);
      const result = await this.inFlight.sending(call, () =>
        attempt.client.request({ method: 'tools/call', params: { name: tool, ...(args === undefined ? {} : { arguments: args }), ...meta } }, { timeout: NO_SDK_TIMEOUT, signal: stop }),
      );
      if (!this.isStale(attempt)) this.saturation.answered();
      return result as CallToolResult;
    } catch (cause) {
      // The upstream saying it is overloaded (a 429/503 the transport saw, or a listed JSON-RPC code).
      if (this.sawOverload(attempt, cause)) throw this.saturatedError(tool, cause);
      if (cause instanceof ProtocolError && !this.isStale(attempt)) this.saturation.answered();
      // The upstream answering with an error is its business; failing to reach it is ours.
      if (!(cause instanceof ProtocolError)) this.probe(attempt);
      if (!this.isStale(attempt) && attempt.unauthorized?.last() !== undefined) {
        // A 401 the login could not get past (no refresh token, or a refused one): the server waits
        // for a new login now, rather than failing each call the same way.
        this.loginNeeded(`${this.describe()} answered 401 Unauthorized`);
        throw new RuntimeError('upstream_failed', `${this.spec.name}:${tool} was refused: the upstream answered 401 and the login could not be renewed; log in again with mcpproxy auth login ${this.spec.name}`, { cause });
      }
      const scope = insufficientScope(cause);
      if (scope !== undefined) {
        // A call the login's scope does not cover; the server's other tools go on working.
        this.options.onInsufficientScope?.(scope);
        throw new RuntimeError('upstream_failed', `${this.spec.name}:${tool} needs ${scope === '' ? 'more scope' : `the scope ${scope}`} than the login granted: log in again with mcpproxy auth login ${this.spec.name}`, { cause });
      }
      if (cause instanceof SdkError && cause.code === SdkErrorCode.RequestTimeout) {
        throw new RuntimeError('upstream_timeout', `${this.spec.name}:${tool} did not answer within ${this.options.callTimeoutMs} ms`, { cause });
      }
      throw new RuntimeError('upstream_failed', `${this.spec.name}:${tool} failed: ${errorText(cause)}`, { cause });
    } finally {
      this.inFlight.close(call);
    }
  }

  /** `retry`: a background retry after a failed or lost connection (not a start or restart). */
  private async connect(retry: boolean): Promise<void> {
    this.clearTimer();
    const generation = ++this.generation;
    const credential = this.spec.transport === 'http' ? await this.readCredential() : undefined;
    const oauthToken = this.spec.transport === 'http' ? await this.readOAuthToken() : undefined;
    if (generation !== this.generation) return;
    // A background retry after a 401 keeps reporting pending_auth: without a new credential the
    // answer will not change, and showing `connecting` would flip a blocked verdict (oauth_required)
    // into a retryable one (server_initializing) for the length of every attempt. A login restarts
    // the connection (stop -> disconnected), so a fresh credential is shown as authenticating.
    // Likewise a retry after an error or a lost connection keeps that state and its last_error until
    // an attempt succeeds: an upstream that hangs reads server_unhealthy from its first timeout on,
    // not server_initializing during each attempt and server_unhealthy between them.
    const failed = this.current.state === 'pending_auth' || (retry && (this.current.state === 'error' || this.current.state === 'disconnected'));
    if (!failed) this.update({ state: credential === undefined && oauthToken === undefined ? 'connecting' : 'authenticating' });

    const client = new Client(
      { name: this.options.clientInfo.name, version: this.options.clientInfo.version },
      { capabilities: ROUTED_CLIENT_CAPABILITIES },
    );
    const related = new Map<RequestId, RequestId>();
    let created: ReturnType<UpstreamConnection['createTransport']>;
    try {
      created = this.createTransport(credential, generation, related);
    } catch (cause) {
      // e.g. a URL the WHATWG parser refuses: nothing was started, but report it like any failure
      this.lose({ generation, client, related, lost: false }, cause);
      return;
    }
    const { transport, unauthorized, stderr } = created;
    const attempt: Attempt = { generation, client, related, lost: false, ...(unauthorized === undefined ? {} : { unauthorized }), ...(stderr === undefined ? {} : { stderr }) };
    this.attempt = attempt;
    client.onclose = () => this.lose(attempt, undefined);
    // Over HTTP nothing closes when the upstream goes away; a failing event stream is the sign.
    client.onerror = (error) => {
      const limit = oversizedMessageLimit(error);
      if (limit !== undefined && attempt.oversized === undefined) attempt.oversized = this.oversizedText(limit);
      this.probe(attempt);
    };
    client.setNotificationHandler('notifications/tools/list_changed', () => this.refresh(attempt));
    // Progress is routed by the gateway's own tokens (in-flight-requests.ts), not the SDK's.
    client.setNotificationHandler('notifications/progress', (notification) => {
      if (!this.isStale(attempt)) this.inFlight.progress(notification.params);
    });
    const tell = (notification: UpstreamNotification) => {
      if (!this.isStale(attempt)) this.options.onNotification?.(notification);
    };
    client.setNotificationHandler('notifications/resources/list_changed', () => tell({ kind: 'resources_list_changed' }));
    client.setNotificationHandler('notifications/prompts/list_changed', () => tell({ kind: 'prompts_list_changed' }));
    client.setNotificationHandler('notifications/resources/updated', (notification) => tell({ kind: 'resource_updated', uri: notification.params.uri }));
    client.setNotificationHandler('notifications/message', (notification) => tell({ kind: 'log', params: notification.params }));
    // Requests on a call's behalf go to the client whose call it is (or are refused, saying why).
    // (The SDK checks the answers to sampling and elicitation against their schemas before they leave.)
    client.setRequestHandler('sampling/createMessage', (request, ctx) => this.answerServerRequest(attempt, { method: request.method, params: request.params }, ctx));
    client.setRequestHandler('elicitation/create', (request, ctx) => this.answerServerRequest(attempt, { method: request.method, params: request.params }, ctx));
    client.setRequestHandler('roots/list', (request, ctx) => this.answerServerRequest(attempt, { method: request.method, ...(request.params === undefined ? {} : { params: request.params }) }, ctx));

    try {
      await client.connect(transport, { timeout: this.options.requestTimeoutMs });
      if (this.isStale(attempt)) return;
      if (!failed) this.update({ state: 'discovering' });
      const listing = await listUpstreamTools(client, this.options.requestTimeoutMs);
      if (this.isStale(attempt)) return;
      this.failures = 0;
      this.current = { state: 'ready', ever_ready: true, tools: listing.tools, invalid_tools: listing.invalid };
      for (const uri of this.subscribed) this.sendSubscription(attempt, uri, true);
      this.options.onChange(this.current);
      if (this.refreshAgain) this.refresh(attempt);
    } catch (cause) {
      this.lose(attempt, cause);
    }
  }

  private createTransport(credential: string | undefined, generation: number, related: Map<RequestId, RequestId>): { transport: Transport; unauthorized?: UnauthorizedCapture; stderr?: StderrTail } {
    const spec = this.spec;
    let transport: Transport;
    let unauthorized: UnauthorizedCapture | undefined;
    let stderr: StderrTail | undefined;
    if (spec.transport === 'stdio') {
      const stdio = new StdioClientTransport({
        command: spec.command,
        args: [...spec.args],
        env: { ...getDefaultEnvironment(), ...spec.env },
        ...(spec.cwd === undefined ? {} : { cwd: spec.cwd }),
        stderr: 'pipe',
      });
      releaseReadMessages(stdio);
      stderr = new StderrTail();
      stderr.attach(stdio.stderr);
      transport = stdio;
    } else {
      unauthorized = captureUnauthorized();
      const hasAuthorization = Object.keys(spec.headers).some((name) => name.toLowerCase() === 'authorization');
      const headers = { ...spec.headers, ...(credential !== undefined && !hasAuthorization ? { Authorization: `Bearer ${credential}` } : {}) };
      const watched = captureOverload(unauthorized.fetch, (overload) => this.httpOverload(generation, overload));
      const relating = relateServerRequests(watched, (serverRequestId, callId) => remember(related, serverRequestId, callId));
      transport = new StreamableHTTPClientTransport(new URL(spec.url), {
        requestInit: { headers },
        fetch: relating,
        ...(this.options.auth === undefined ? {} : { authProvider: this.options.auth }),
      });
    }
    // Count at the one place every outgoing message passes through.
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      this.options.onMessageSent();
      this.inFlight.sent(message as { id?: RequestId; method?: string });
      return send(message, options);
    };
    return { transport, ...(unauthorized === undefined ? {} : { unauthorized }), ...(stderr === undefined ? {} : { stderr }) };
  }

  /** The attempt failed or its connection went away: record why, then retry later. */
  private lose(attempt: Attempt, cause: unknown): void {
    if (attempt.lost || attempt.generation !== this.generation) return;
    attempt.lost = true;
    void closeQuietly(attempt.client);
    // A window belongs to the connection that saw it; a reconnect starts with calls allowed.
    this.saturation.close();
    const wasReady = this.current.state === 'ready';
    const keep = { ever_ready: this.current.ever_ready, tools: this.current.tools, invalid_tools: this.current.invalid_tools };
    const challenge = attempt.unauthorized?.last();
    const scope = insufficientScope(cause);
    if (scope !== undefined) {
      // Connected, but listing the tools needs more scope than the login has: a new login, asking for it.
      this.options.onInsufficientScope?.(scope);
      this.current = {
        ...keep,
        state: 'pending_auth',
        last_error: `${this.describe()} answered 403 insufficient_scope${scope === '' ? '' : ` (needs ${scope})`}`,
        diagnostic_action: 'login',
      };
    } else if (challenge !== undefined) {
      this.current = {
        ...keep,
        state: 'pending_auth',
        last_error: `${this.describe()} answered 401 Unauthorized`,
        diagnostic_action: 'login',
        ...(challenge.wwwAuthenticate === undefined ? {} : { www_authenticate: challenge.wwwAuthenticate }),
      };
    } else if (attempt.oversized !== undefined) {
      this.current = { ...keep, state: wasReady ? 'disconnected' : 'error', last_error: attempt.oversized, diagnostic_action: 'view_logs' };
    } else if (cause === undefined || isConnectionClosed(cause)) {
      const said = attempt.stderr?.last();
      const what = this.spec.transport === 'stdio' ? 'the upstream process exited' : 'the connection closed';
      this.current = {
        ...keep,
        state: wasReady ? 'disconnected' : 'error',
        last_error: said === undefined ? what : `${what}: ${said}`,
        diagnostic_action: this.spec.transport === 'stdio' ? 'restart' : 'view_logs',
      };
    } else {
      this.current = { ...keep, state: wasReady ? 'disconnected' : 'error', last_error: this.explain(cause), diagnostic_action: 'view_logs' };
    }
    this.options.onChange(this.current);
    // The same answer will be too large again: no reason to read it again soon.
    this.scheduleReconnect(attempt.oversized !== undefined);
  }

  /** `longest`: wait the policy's longest delay now, not after the doublings up to it. */
  private scheduleReconnect(longest = false): void {
    if (!this.running) return;
    this.clearTimer();
    if (longest) this.failures = Math.max(this.failures, MAX_BACKOFF_EXPONENT);
    const delay = reconnectDelay(this.options.backoff, this.failures, this.options.random);
    this.failures += 1;
    this.timer = setTimeout(() => void this.connect(true), delay);
    this.timer.unref();
  }

  /** Re-index after tools/list_changed; overlapping notifications collapse into one more walk. */
  private refresh(attempt: Attempt): void {
    if (this.isStale(attempt)) return;
    if (this.refreshing || this.current.state !== 'ready' || this.current.saturation !== undefined) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = true;
    this.refreshAgain = false;
    void (async () => {
      try {
        const listing = await listUpstreamTools(attempt.client, this.options.requestTimeoutMs);
        if (!this.isStale(attempt) && this.current.state === 'ready') this.update({ tools: listing.tools, invalid_tools: listing.invalid });
      } catch (cause) {
        if (this.sawOverload(attempt, cause)) {
          // Walk again once the window ends (saturationEnded), not now.
          this.refreshAgain = true;
          return;
        }
        // A dead connection is reported by onclose; anything else leaves the old index in place.
        if (!this.isStale(attempt) && !isConnectionClosed(cause)) this.update({ last_error: `re-listing tools failed: ${this.explain(cause)}` });
      } finally {
        this.refreshing = false;
        if (this.refreshAgain && !this.isStale(attempt) && this.current.saturation === undefined) this.refresh(attempt);
      }
    })();
  }

  /**
   * A sampling, elicitation or roots request from the upstream: to the client whose call caused it,
   * when the request ties to exactly one call, and while that client is being asked the call's
   * timeout stands still. Over HTTP the upstream says which call (it sends the request on that call's
   * stream); stdio carries no relation, so there only a request while exactly one call that can ask
   * its client is in flight is tied to that call. Anything else is refused with an error saying why.
   */
  private async answerServerRequest<T extends Result>(attempt: Attempt, request: UpstreamServerRequest, ctx: ClientContext): Promise<T> {
    const caller = this.callerOf(attempt, ctx.mcpReq.id, request.method);
    if (typeof caller === 'string') throw new ProtocolError(ProtocolErrorCode.InvalidRequest, caller, { reason: 'not_routable' });
    const ask = caller.relay?.onServerRequest;
    if (ask === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidRequest, `mcpproxy: ${request.method} cannot be answered for this call`, { reason: 'not_routable' });
    caller.deadline?.pause();
    try {
      return (await ask(request, ctx.mcpReq.signal)) as T;
    } finally {
      caller.deadline?.resume();
    }
  }

  /** The in-flight call a server-to-client request belongs to, or why there is none. */
  private callerOf(attempt: Attempt, id: RequestId, method: string): InFlightRequest | string {
    if (this.spec.transport === 'http') {
      const callId = attempt.related.get(id);
      attempt.related.delete(id);
      const caller = callId === undefined ? undefined : this.inFlight.byUpstreamId(callId);
      if (caller?.relay?.onServerRequest !== undefined) return caller;
      return `mcpproxy: ${method} did not arrive on the stream of a call a client made through the gateway, so no client can be asked`;
    }
    const askable = this.inFlight.askable();
    if (askable.length === 1) return askable[0]!;
    if (askable.length === 0) return `mcpproxy: ${method} came while no call a client made through the gateway is in flight, so no client can be asked`;
    return `mcpproxy: ${method} cannot be tied to one call: ${askable.length} calls of clients are in flight on this stdio connection, which does not say which one a request belongs to`;
  }

  /** One resources/subscribe or unsubscribe; a refusal is the upstream's business and changes nothing here. */
  private sendSubscription(attempt: Attempt, uri: string, on: boolean): void {
    if (attempt.client.getServerCapabilities()?.resources?.subscribe !== true) return;
    attempt.client
      .request({ method: on ? 'resources/subscribe' : 'resources/unsubscribe', params: { uri } }, { timeout: this.options.requestTimeoutMs })
      .catch(() => undefined);
  }

  /** Is a ready HTTP upstream still there? A ping that cannot get through loses the connection. */
  private probe(attempt: Attempt): void {
    // While saturated the upstream is known to be there and asked to be left alone.
    if (this.isStale(attempt) || this.probing || this.current.state !== 'ready' || this.current.saturation !== undefined || this.spec.transport !== 'http') return;
    this.probing = true;
    attempt.client
      .ping({ timeout: this.options.requestTimeoutMs })
      .then(
        () => undefined,
        (cause: unknown) => {
          if (!(cause instanceof ProtocolError) && !this.sawOverload(attempt, cause)) this.lose(attempt, cause);
        },
      )
      .finally(() => {
        this.probing = false;
      });
  }

  private async readCredential(): Promise<string | undefined> {
    try {
      return await this.options.credential?.();
    } catch {
      return undefined;
    }
  }

  private async readOAuthToken(): Promise<string | undefined> {
    try {
      return await this.options.auth?.token();
    } catch {
      return undefined;
    }
  }

  private isStale(attempt: Attempt): boolean {
    return attempt.lost || attempt.generation !== this.generation;
  }

  private update(patch: Partial<UpstreamStatus>): void {
    this.replace({ ...this.current, ...patch });
  }

  private replace(status: UpstreamStatus): void {
    this.current = status;
    this.options.onChange(this.current);
  }

  /** A 429 or 503 to a JSON-RPC POST of this connection (seen before the SDK turns it into an error). */
  private httpOverload(generation: number, overload: HttpOverload): void {
    if (generation !== this.generation) return;
    const retryAfterMs = parseRetryAfter(overload.retryAfter, (this.options.clock ?? REAL_CLOCK).now());
    this.overloaded({ kind: 'http', status: overload.status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) });
  }

  /**
   * Whether a failed request means the upstream is overloaded: the transport already saw a 429/503
   * (the window is open), or it answered a JSON-RPC error code listed for it.
   */
  private sawOverload(attempt: Attempt, cause: unknown): boolean {
    if (this.isStale(attempt)) return false;
    if (cause instanceof ProtocolError && (this.options.saturationErrorCodes ?? []).includes(cause.code)) {
      this.overloaded({ kind: 'json_rpc', code: cause.code });
    }
    return this.current.saturation !== undefined;
  }

  /** Only a ready connection can be saturated: before that, an overload is one more failed attempt. */
  private overloaded(signal: OverloadSignal): void {
    const attempt = this.attempt;
    if (attempt === undefined || this.isStale(attempt) || this.current.state !== 'ready') return;
    const outcome = this.saturation.overloaded(signal);
    if (outcome.kind === 'saturated') this.update({ saturation: outcome.saturation });
    else if (outcome.kind === 'unhealthy') this.lose(attempt, new Error(`${this.describe()} ${outcome.reason}`));
  }

  private saturationEnded(): void {
    if (this.current.saturation === undefined) return;
    this.replace(withoutSaturation(this.current));
    const attempt = this.attempt;
    if (attempt !== undefined && this.refreshAgain) this.refresh(attempt);
  }

  private saturatedError(tool: string, cause?: unknown): RuntimeError {
    const said = this.current.saturation?.signal ?? 'overloaded';
    return new RuntimeError('server_saturated', `${this.spec.name}:${tool} was not called: the upstream said it is overloaded (${said})`, cause === undefined ? undefined : { cause });
  }

  private clearTimer(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * The upstream as last_error names it. last_error reaches agent tokens (GET /api/v1/servers), so an
   * HTTP upstream is named without userinfo, query or fragment, where credentials are often put.
   */
  private describe(): string {
    if (this.spec.transport !== 'http') return this.spec.command;
    try {
      const url = new URL(this.spec.url);
      return `${url.origin}${url.pathname}`;
    } catch {
      return 'the upstream URL';
    }
  }

  private oversizedText(limit: number): string {
    const during =
      this.current.state === 'discovering'
        ? 'its tool list (tools/list) is'
        : this.current.state === 'ready'
          ? 'a message (a re-listed tool list or a tool result) is'
          : 'its answer to initialize is';
    return `${during} larger than the stdio transport's limit of ${limit} bytes, so the gateway closed the connection; it retries after the longest reconnect delay (${this.options.backoff.maxDelayMs} ms)`;
  }

  private explain(cause: unknown): string {
    if (cause instanceof SdkError && cause.code === SdkErrorCode.RequestTimeout) {
      return `${this.describe()} did not answer within ${this.options.requestTimeoutMs} ms`;
    }
    return errorText(cause);
  }
}

/** The SDK's own timer is replaced by a PausableDeadline (the largest delay a Node timer takes). */
const NO_SDK_TIMEOUT = 2_147_483_647;

function remember(related: Map<RequestId, RequestId>, serverRequestId: RequestId, callId: RequestId): void {
  related.set(serverRequestId, callId);
  // A request the client never handles (a ping) leaves its entry: keep the newest only.
  if (related.size > RELATED_LIMIT) related.delete(related.keys().next().value as RequestId);
}

function withoutSaturation(status: UpstreamStatus): UpstreamStatus {
  const { saturation: _saturation, ...rest } = status;
  return rest;
}

/**
 * The byte limit when `error` is the stdio transport refusing to buffer more of one message. The SDK
 * reports it only in words ("ReadBuffer exceeded maximum size of N bytes"), then closes the transport.
 */
function oversizedMessageLimit(error: unknown): number | undefined {
  const match = error instanceof Error ? /ReadBuffer exceeded maximum size of (\d+) bytes/.exec(error.message) : null;
  return match === null ? undefined : Number(match[1]);
}

function isConnectionClosed(cause: unknown): boolean {
  return cause instanceof SdkError && cause.code === SdkErrorCode.ConnectionClosed;
}

async function closeQuietly(client: Client): Promise<void> {
  try {
    await client.close();
  } catch {
    // already closed
  }
}

function errorText(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}
