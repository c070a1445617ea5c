// A repeated rider is validated and deduplicated once: the same rider text gives every check the same
// frozen request (whose text the evaluation memo keeps), without freezing anything of the caller's.
// A refused rider is checked again each time; a pinned reading of the same text is another request.
import type { PreflightRequest } from '@mcpproxy/evaluator';
import type { ServerContext } from '@modelcontextprotocol/server';
import { describe, expect, it, vi } from 'vitest';
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

  it('finds a rider sent again without its text, but only one written the same way, and keeps none of the caller’s objects', async () => {
    const { source, seen } = recordingSource();
    const first = { tools: [{ id: 'memo-c:one' }, { id: 'memo-c:two' }], policy: { read_only_only: true } };
    await check(source, first);
    // The caller changes its own rider afterwards: what was kept is a copy, so the old text still matches.
    first.tools[0]!.id = 'memo-c:changed';
    await check(source, { tools: [{ id: 'memo-c:one' }, { id: 'memo-c:two' }], policy: { read_only_only: true } });
    expect(seen[1]).toBe(seen[0]);
    // Sent a third time, it is found among the recent riders: not even serialized.
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      await check(source, { tools: [{ id: 'memo-c:one' }, { id: 'memo-c:two' }], policy: { read_only_only: true } });
      expect(stringify.mock.calls.filter(([value]) => typeof value === 'object' && value !== null && 'tools' in value)).toHaveLength(0);
    } finally {
      stringify.mockRestore();
    }
    expect(seen.splice(2, 1)[0]).toBe(seen[0]);
    await check(source, first);
    expect(seen[2]).not.toBe(seen[0]);
    expect(seen[2]!.tools.map((t) => t.id)).toEqual(['memo-c:changed', 'memo-c:two']);
    // The same members in another order are another text, and another request object.
    await check(source, { policy: { read_only_only: true }, tools: [{ id: 'memo-c:one' }, { id: 'memo-c:two' }] });
    expect(seen[3]).not.toBe(seen[0]);
    // A value JSON writes differently (undefined dropped) is compared as text: the same request.
    await check(source, { tools: [{ id: 'memo-c:one' }, { id: 'memo-c:two' }], policy: { read_only_only: true }, extra: undefined });
    expect(seen[4]).toBe(seen[0]);
  });

  it('tells apart riders that differ anywhere, after many others', async () => {
    const { source, seen } = recordingSource();
    const rider = (last: string) => ({ tools: [{ id: 'memo-d:one' }, { id: `memo-d:${last}` }] });
    for (let i = 0; i < 12; i++) await check(source, rider(`n${i}`));
    await check(source, rider('n0'));
    await check(source, rider('n11'));
    expect(seen[12]).toBe(seen[0]);
    expect(seen[13]).toBe(seen[11]);
    expect(new Set(seen.slice(0, 12)).size).toBe(12);
    // A pinned reading of a rider just read plainly is checked as a pinned one.
    await check(source, rider('n11'), true);
    expect(seen[14]).not.toBe(seen[11]);
  });
});
