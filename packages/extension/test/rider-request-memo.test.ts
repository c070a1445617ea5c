// A repeated rider is validated and deduplicated once: the same rider text gives every check the same
// frozen request (whose text the evaluation memo keeps), without freezing anything of the caller's.
// A refused rider is checked again each time; a pinned reading of the same text is another request.
import type { PreflightRequest } from '@mcpproxy/evaluator';
import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { runInBandCheck } from '../src/in-band-check.js';
import type { StateSource } from '../src/state-source.js';

const ctx = {} as ServerContext;
const noListing = () => Promise.resolve([]);

function recordingSource(): { source: StateSource; seen: PreflightRequest[] } {
  const seen: PreflightRequest[] = [];
  const source: StateSource = {
    evaluate: (request) => {
      seen.push(request);
      return { verdict: 'ready', tools: request.tools.map((tool) => ({ id: tool.id, status: 'ready' as const })) };
    },
    servedTool: () => undefined,
  };
  return { source, seen };
}

const check = (source: StateSource, raw: unknown, pins = false) => runInBandCheck(source, () => undefined, 'mcp-rider', raw, ctx, noListing, pins ? { pins: true } : {});

describe('rider request memo', () => {
  it('gives the same frozen, deduplicated request for the same rider text, and leaves the caller’s rider as it was', async () => {
    const { source, seen } = recordingSource();
    const rider = () => ({ tools: [{ id: 'memo-a:one' }, { id: 'memo-a:two' }, { id: 'memo-a:one' }], policy: { read_only_only: true } });
    const first = rider();
    expect((await check(source, first)).ok).toBe(true);
    expect((await check(source, rider())).ok).toBe(true);
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBe(seen[0]);
    expect(Object.isFrozen(seen[0]) && Object.isFrozen(seen[0]!.tools) && Object.isFrozen(seen[0]!.policy)).toBe(true);
    expect(seen[0]!.tools.map((t) => t.id)).toEqual(['memo-a:one', 'memo-a:two']);
    expect(Object.isFrozen(first) || Object.isFrozen(first.policy) || Object.isFrozen(first.tools[0])).toBe(false);
    // Another text (another order) is another request.
    await check(source, { tools: [{ id: 'memo-a:two' }, { id: 'memo-a:one' }], policy: { read_only_only: true } });
    expect(seen[2]).not.toBe(seen[0]);
    expect(seen[2]!.tools.map((t) => t.id)).toEqual(['memo-a:two', 'memo-a:one']);
  });

  it('checks a refused rider again each time, and reads a pinned rider apart from the plain one', async () => {
    const { source, seen } = recordingSource();
    const bad = { tools: [{ id: 'memo-b:one', extra: 1 }] };
    for (let i = 0; i < 2; i++) {
      const outcome = await check(source, bad);
      expect(outcome.ok ? undefined : outcome.error.code).toBe('invalid_request');
    }
    const pinned = { tools: [{ id: 'memo-b:one' }] };
    await check(source, pinned);
    await check(source, pinned, true);
    expect(seen).toHaveLength(2);
    expect(seen[1]).not.toBe(seen[0]);
  });
});
