// The endpoint skips the SDK's routing predicate for bodies it is certain to send to the 2026-07-28
// leg. Held against the SDK's own predicate (isLegacyRequest, the code createMcpHandler routes by)
// over bodies and headers of every shape: whenever the shortcut says "modern", the SDK never says
// "legacy". And it does fire for what 2026-07-28 clients send.
import fc from 'fast-check';
import { isLegacyRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { certainlyModern } from '../src/mcp/modern-envelope-claim.js';

const version = fc.constantFrom('2026-07-28', '2025-11-25', '2025-06-18', '2099-01-01', 'junk');
const claim = fc.oneof(version, fc.constant(null), fc.integer());
const capabilities = fc.oneof(fc.constant({}), fc.constant(null), fc.constant('x'));
/** Envelopes with the claim (valid or not) most of the time, and without it. */
const meta = fc.oneof(
  { weight: 4, arbitrary: fc.record({ [PROTOCOL_VERSION_META_KEY]: claim, 'io.modelcontextprotocol/clientCapabilities': capabilities, other: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [PROTOCOL_VERSION_META_KEY] }) },
  { weight: 1, arbitrary: fc.record({ 'io.modelcontextprotocol/clientCapabilities': capabilities, other: fc.jsonValue({ maxDepth: 1 }) }, { requiredKeys: [] }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) },
);
const params = fc.oneof({ weight: 4, arbitrary: fc.record({ _meta: meta, cursor: fc.string() }, { requiredKeys: ['_meta'] }) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 1 }) });
const message = fc
  .record(
    {
      jsonrpc: fc.constantFrom('2.0', '2.0', '2.0', '1.0'),
      id: fc.option(fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null)), { freq: 4, nil: undefined }),
      method: fc.oneof({ weight: 6, arbitrary: fc.constantFrom('tools/list', 'tools/call', 'initialize', 'server/discover', 'notifications/initialized', 'subscriptions/listen') }, { weight: 1, arbitrary: fc.integer() }),
      params,
      // A posted response's members, now and then.
      response: fc.option(fc.oneof(fc.record({ result: fc.jsonValue({ maxDepth: 1 }) }), fc.record({ error: fc.record({ code: fc.integer(), message: fc.string() }) })), { freq: 6, nil: undefined }),
    },
  )
  .map(({ id, response, ...rest }) => ({ ...rest, ...(id === undefined ? {} : { id }), ...response }));
const body = fc.oneof({ weight: 6, arbitrary: message }, { weight: 1, arbitrary: fc.array(message, { maxLength: 3 }) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });
const headers = fc.record(
  { 'mcp-protocol-version': version, 'mcp-method': fc.constantFrom('tools/list', 'tools/call', 'initialize'), 'mcp-session-id': fc.constant('a-session') },
  { requiredKeys: [] },
);

function post(value: unknown, extra: Record<string, string>): Request {
  return new Request('http://127.0.0.1/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...extra }, body: JSON.stringify(value) });
}

describe('the 2026-07-28 shortcut agrees with the SDK routing predicate', () => {
  it('a body certainly modern is never routed to the legacy leg by the SDK, whatever the headers', async () => {
    let certain = 0;
    await fc.assert(
      fc.asyncProperty(body, headers, async (value, extra) => {
        if (!certainlyModern(value)) return;
        certain++;
        expect(await isLegacyRequest(post(value, extra), value)).toBe(false);
        // The same answer from the bytes, as the predicate reads them when no parsed body is given.
        expect(await isLegacyRequest(post(value, extra))).toBe(false);
      }),
      { numRuns: 3000 },
    );
    // The property is about the shortcut: make sure it was taken often (about 1 in 20 bodies here).
    expect(certain).toBeGreaterThan(50);
  });

  it('fires for what 2026-07-28 clients send, and leaves initialize, claim-less bodies and batches to the predicate', () => {
    const envelope = { [PROTOCOL_VERSION_META_KEY]: '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
    expect(certainlyModern({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } })).toBe(true);
    expect(certainlyModern({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: envelope, requestId: 1 } })).toBe(true);
    expect(certainlyModern({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { _meta: envelope } })).toBe(false);
    expect(certainlyModern({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toBe(false);
    expect(certainlyModern({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { other: 1 } } })).toBe(false);
    expect(certainlyModern([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } }])).toBe(false);
    expect(certainlyModern({ jsonrpc: '2.0', id: 1, result: {}, method: 'tools/list', params: { _meta: envelope } })).toBe(false);
  });
});
