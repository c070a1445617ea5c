// The 2026-07-28 flows that hold a forwarded request while its client gathers input: nothing of a
// flow outlives it. A client that does not come back has the request cancelled upstream and the
// upstream's waiting request refused; a dropped round does the same at once. (The request is a
// function here, the upstream side of it; the wire is in passthrough-client-requests.test.ts.)
import type { Result } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { CallRelay } from '../src/upstream/call-relay.js';
import { InputFlows } from '../src/mcp/input-flows.js';

const SAMPLING = { method: 'sampling/createMessage' as const, params: { messages: [], maxTokens: 1 } };

/** A forwarded request that asks its client once and answers with what it got; `cancelled` settles when it is cancelled. */
function askingOnce() {
  let cancelled!: () => void;
  const wasCancelled = new Promise<void>((resolve) => (cancelled = resolve));
  let asked: Promise<Result> | undefined;
  const start = (signal: AbortSignal, relay: CallRelay) => {
    signal.addEventListener('abort', () => cancelled(), { once: true });
    asked = relay.onServerRequest!(SAMPLING, new AbortController().signal);
    return asked.then((answer) => ({ content: [{ type: 'text', text: JSON.stringify(answer) }] }));
  };
  return { start, wasCancelled, asked: () => asked! };
}

describe('InputFlows', () => {
  it('asks, parks, and answers on the retry; the state is then spent', async () => {
    const flows = new InputFlows({ idleMs: 60_000, max: 10 });
    const upstream = askingOnce();
    const flow = flows.open('caller', 'tools/call\nx:y', upstream.start);
    const first = await flow.step({ capabilities: { sampling: {} }, onprogress: undefined }, new AbortController().signal);
    expect(first).toEqual({ kind: 'input', requests: { 'input-1': SAMPLING } });
    flows.park(flow);
    expect(() => flows.resume(flow.token, 'someone else', 'tools/call\nx:y')).toThrow('Invalid or expired requestState');
    const resumed = flows.resume(flow.token, 'caller', 'tools/call\nx:y');
    const done = await resumed.step({ capabilities: { sampling: {} }, onprogress: undefined, responses: { 'input-1': { role: 'assistant' } } }, new AbortController().signal);
    expect(done).toMatchObject({ kind: 'done', result: { content: [{ text: '{"role":"assistant"}' }] } });
    expect(flows.size).toBe(0);
    expect(() => flows.resume(flow.token, 'caller', 'tools/call\nx:y')).toThrow('Invalid or expired requestState');
  });

  it('cancels the request upstream and refuses its waiting request when the client does not come back', async () => {
    const flows = new InputFlows({ idleMs: 20, max: 10 });
    const upstream = askingOnce();
    const flow = flows.open('caller', 'tools/call\nx:y', upstream.start);
    expect((await flow.step({ capabilities: { sampling: {} }, onprogress: undefined }, new AbortController().signal)).kind).toBe('input');
    flows.park(flow);
    await upstream.wasCancelled;
    await expect(upstream.asked()).rejects.toMatchObject({ code: -32600, data: { reason: 'no_answer' } });
    expect(flows.size).toBe(0);
  });

  it('cancels at once when the round is dropped, and refuses what the client did not declare', async () => {
    const flows = new InputFlows({ idleMs: 60_000, max: 10 });
    const upstream = askingOnce();
    const flow = flows.open('caller', 'tools/call\nx:y', upstream.start);
    // No sampling declared: the upstream hears so at once, and the request goes on without the client.
    const step = await flow.step({ capabilities: {}, onprogress: undefined }, new AbortController().signal);
    expect(step).toMatchObject({ kind: 'failed' });
    await expect(upstream.asked()).rejects.toMatchObject({ data: { reason: 'capability_missing' } });

    const dropped = askingOnce();
    const round = new AbortController();
    const second = flows.open('caller', 'tools/call\nx:z', (signal, relay) => {
      round.abort('the client left');
      return dropped.start(signal, relay);
    });
    await second.step({ capabilities: { sampling: {} }, onprogress: undefined }, round.signal);
    await dropped.wasCancelled;
    expect(flows.size).toBe(0);
  });
});
