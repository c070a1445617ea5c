import { randomBytes } from 'node:crypto';
import { ProtocolError, ProtocolErrorCode, type ClientCapabilities, type InputRequest, type Progress, type Result } from '@modelcontextprotocol/server';
import type { CallRelay, UpstreamServerRequest } from '../upstream/call-relay.js';
import { missingCapability } from './client-capability-gap.js';
import { serverRequestRefusal } from './server-request-refusal.js';

/** One round of a 2026-07-28 request: what the client declared on it and where its progress goes. */
export interface InputRound {
  readonly capabilities: ClientCapabilities | undefined;
  readonly onprogress: ((progress: Progress) => void) | undefined;
  /** The retry's answers, by the keys the gateway gave its requests (absent on the first round). */
  readonly responses?: Readonly<Record<string, unknown>>;
}

/** Where a round stands: the forwarded request answered (or failed), or the client must answer these first. */
export type InputStep =
  | { readonly kind: 'done'; readonly result: Result }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'input'; readonly requests: Readonly<Record<string, InputRequest>> };

interface Pending {
  readonly request: UpstreamServerRequest;
  resolve(result: Result): void;
  reject(error: Error): void;
}

export interface InputFlowsOptions {
  /** How long a flow waits for the client to come back with the input before its request is cancelled. */
  readonly idleMs: number;
  /** Flows held at once; over it the oldest of the caller holding the most is cancelled. */
  readonly max: number;
}

/**
 * 2026-07-28 has no server-to-client requests: a request whose upstream asks for sampling, elicitation
 * or roots is answered `input_required` with those requests, and the client retries it with the
 * answers and the `requestState` it was given. Meanwhile the forwarded request stays in flight
 * upstream, held here as a flow under that state: an unguessable token, good only for the caller
 * (identity) and the request (method and name) that started it. A retry answers the upstream's
 * waiting requests and then the round goes on like the first: the upstream's answer, or more input.
 * A flow ends with its request; one whose client stops coming back is cancelled after `idleMs`, and
 * one whose round is cancelled (the client dropped the stream) cancels the request upstream.
 */
export class InputFlows {
  readonly #flows = new Map<string, InputFlow>();

  constructor(private readonly options: InputFlowsOptions) {}

  /** A new flow for a first round; its first step forwards the request (`start`) with the relay the flow gives it. */
  open(identityKey: string, requestKey: string, start: (signal: AbortSignal, relay: CallRelay) => Promise<Result>): InputFlow {
    const flow = new InputFlow(identityKey, requestKey, start, (done) => this.#forget(done));
    this.#flows.set(flow.token, flow);
    this.#admit(flow);
    return flow;
  }

  /** The flow a retry's requestState names, when that caller started it for that same request. */
  resume(token: string, identityKey: string, requestKey: string): InputFlow {
    const flow = this.#flows.get(token);
    if (flow === undefined || flow.identityKey !== identityKey || flow.requestKey !== requestKey) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired requestState', { reason: 'invalid_request_state' });
    }
    return flow;
  }

  /** Parks a flow whose round asked for input: it waits for the retry, at most `idleMs`. */
  park(flow: InputFlow): void {
    flow.park(this.options.idleMs);
  }

  /** Flows held now (tests: none outlives its request). */
  get size(): number {
    return this.#flows.size;
  }

  #forget(flow: InputFlow): void {
    if (this.#flows.get(flow.token) === flow) this.#flows.delete(flow.token);
  }

  #admit(flow: InputFlow): void {
    if (this.#flows.size <= this.options.max) return;
    const held = new Map<string, number>();
    for (const candidate of this.#flows.values()) held.set(candidate.identityKey, (held.get(candidate.identityKey) ?? 0) + 1);
    const most = Math.max(...held.values());
    // Map order is admission order: the first match is the oldest.
    for (const candidate of this.#flows.values()) {
      if (candidate !== flow && held.get(candidate.identityKey) === most) {
        candidate.cancel('too many requests are waiting for input from this caller');
        return;
      }
    }
  }
}

export class InputFlow {
  readonly token = randomBytes(18).toString('base64url');
  readonly #pending = new Map<string, Pending>();
  readonly #abort = new AbortController();
  #round: InputRound | undefined;
  /** What the client declared on its latest round (what a request arriving between rounds is checked against). */
  #capabilities: ClientCapabilities | undefined;
  #outcome: InputStep | undefined;
  #wake: (() => void) | undefined;
  #idle: NodeJS.Timeout | undefined;
  #next = 0;
  #ended = false;
  #started = false;

  constructor(
    readonly identityKey: string,
    readonly requestKey: string,
    private readonly start: (signal: AbortSignal, relay: CallRelay) => Promise<Result>,
    private readonly onEnd: (flow: InputFlow) => void,
  ) {}

  /** Forwards the request, once, after the first round has said what its client can do. */
  #run(): void {
    if (this.#started || this.#ended) return;
    this.#started = true;
    const start = this.start;
    const relay: CallRelay = {
      onprogress: (progress) => this.#round?.onprogress?.(progress),
      onServerRequest: (request, signal) => this.#ask(request, signal),
    };
    start(this.#abort.signal, relay).then(
      (result) => this.#settle({ kind: 'done', result }),
      (error: unknown) => this.#settle({ kind: 'failed', error }),
    );
  }

  /**
   * One round: the answers it brings go upstream, then it waits for the request's outcome or for
   * input the client must give. The round's own cancellation cancels the flow.
   */
  async step(round: InputRound, signal: AbortSignal): Promise<InputStep> {
    this.#clearIdle();
    this.#round = round;
    this.#capabilities = round.capabilities;
    if (round.responses !== undefined) this.#answer(round.responses);
    this.#run();
    const cancelled = () => this.cancel('the client cancelled the request');
    if (signal.aborted) cancelled();
    signal.addEventListener('abort', cancelled, { once: true });
    try {
      for (;;) {
        if (this.#outcome !== undefined) {
          const outcome = this.#outcome;
          this.#end();
          return outcome;
        }
        if (this.#pending.size > 0) {
          const requests: Record<string, InputRequest> = {};
          for (const [key, pending] of this.#pending) requests[key] = inputRequest(pending.request);
          return { kind: 'input', requests };
        }
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      signal.removeEventListener('abort', cancelled);
      this.#wake = undefined;
      this.#round = undefined;
    }
  }

  park(idleMs: number): void {
    if (this.#ended) return;
    this.#clearIdle();
    this.#idle = setTimeout(() => this.cancel(`the client did not come back with the input within ${idleMs} ms`), idleMs);
    this.#idle.unref();
  }

  /** Ends the flow and cancels its request upstream; the upstream's waiting requests are refused. */
  cancel(why: string): void {
    if (this.#ended) return;
    this.#abort.abort(why);
    this.#outcome ??= { kind: 'failed', error: new ProtocolError(ProtocolErrorCode.InternalError, `the request was cancelled: ${why}`) };
    this.#end(why);
    this.#wake?.();
  }

  /** The upstream asks: the client of the current round must have declared what it takes. */
  #ask(request: UpstreamServerRequest, signal: AbortSignal): Promise<Result> {
    if (this.#ended) return Promise.reject(serverRequestRefusal(request.method, 'the request it belongs to has ended', 'client_gone'));
    const missing = missingCapability(request, this.#capabilities);
    if (missing !== undefined) {
      return Promise.reject(serverRequestRefusal(request.method, `the client whose request caused it did not declare the ${missing} capability`, 'capability_missing'));
    }
    const key = `input-${++this.#next}`;
    return new Promise<Result>((resolve, reject) => {
      this.#pending.set(key, { request, resolve, reject });
      // The upstream gave up on it: nothing to ask any more.
      signal.addEventListener('abort', () => this.#pending.delete(key), { once: true });
      this.#wake?.();
    });
  }

  #answer(responses: Readonly<Record<string, unknown>>): void {
    for (const [key, pending] of this.#pending) {
      if (!Object.hasOwn(responses, key)) continue;
      this.#pending.delete(key);
      pending.resolve(responses[key] as Result);
    }
  }

  /** The forwarded request is over; the next round (or this one) answers with it. A parked flow keeps it until then. */
  #settle(outcome: InputStep): void {
    if (this.#outcome !== undefined) return;
    this.#outcome = outcome;
    this.#wake?.();
  }

  /** Nothing of the flow outlives it: its token is forgotten, and what the upstream still waits for is refused. */
  #end(why = 'the request it belongs to has ended'): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#clearIdle();
    for (const [key, pending] of this.#pending) {
      this.#pending.delete(key);
      pending.reject(serverRequestRefusal(pending.request.method, why, 'no_answer'));
    }
    this.onEnd(this);
  }

  #clearIdle(): void {
    if (this.#idle !== undefined) clearTimeout(this.#idle);
    this.#idle = undefined;
  }
}

/** The request as the revision embeds it (a URL elicitation carries no elicitationId on 2026-07-28). */
function inputRequest(request: UpstreamServerRequest): InputRequest {
  if (request.method === 'roots/list') return { method: 'roots/list' } as InputRequest;
  const params = { ...request.params };
  if (request.method === 'elicitation/create' && params['mode'] === 'url') delete params['elicitationId'];
  return { method: request.method, params } as InputRequest;
}
