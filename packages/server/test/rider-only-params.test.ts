// A 2025-11-25 request whose params are a rider and nothing else reaches the SDK's session transport
// without them and gets them back before the server sees it (rider-only-params.ts): the split gives
// back exactly the request it was made from, and nothing else is ever split. The endpoint's routing
// predicate (the SDK's isLegacyRequest) gives the same route with or without them. On the wire, a rider's
// answer is unchanged (prepared-listing-answers.test.ts, extension-rider.test.ts).
import { EXTENSION_ID } from '@mcpproxy/schema';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutRiderOnlyParams } from '../src/mcp/rider-only-params.js';

const rider = { tools: [{ id: 'alpha:echo' }], policy: { read_only_only: true } };

describe('rider-only params', () => {
  it('splits a rider-only request into the request without params and its params', () => {
    const body = { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { [EXTENSION_ID]: rider } } };
    const split = withoutRiderOnlyParams(body);
    expect(split?.body).toEqual({ jsonrpc: '2.0', id: 3, method: 'tools/list' });
    expect(split?.params).toBe(body.params);
  });

  it('leaves every other request whole: a cursor, another _meta member, a notification, a batch, odd params', () => {
    const meta = { [EXTENSION_ID]: rider };
    for (const body of [
      { jsonrpc: '2.0', id: 3, method: 'tools/list' },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta, cursor: 'x' } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: { ...meta, progressToken: 1 } } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: {} } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: [rider] } },
      { jsonrpc: '2.0', id: 3, method: 'tools/list', params: [meta] },
      { jsonrpc: '2.0', method: 'notifications/x', params: { _meta: meta } },
      [{ jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: meta } }],
      null,
      'tools/list',
    ]) {
      expect(withoutRiderOnlyParams(body)).toBeUndefined();
    }
  });

  it('for any JSON value: split or not, the request given back is the one given', () => {
    const body = fc.oneof(
      fc.jsonValue(),
      fc.record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.integer(), fc.string()), method: fc.string(), params: fc.oneof(fc.jsonValue(), fc.record({ _meta: fc.dictionary(fc.constantFrom(EXTENSION_ID, 'progressToken', '__proto__', 'x'), fc.jsonValue(), { maxKeys: 2 }) })) }, { requiredKeys: ['method'] }),
    );
    fc.assert(
      fc.property(body, (value) => {
        const split = withoutRiderOnlyParams(value);
        if (split === undefined) return;
        const params = split.params;
        expect(Object.keys(params)).toEqual(['_meta']);
        expect(Object.keys(params['_meta'] as object)).toEqual([EXTENSION_ID]);
        expect(Object.hasOwn(split.body, 'params')).toBe(false);
        expect({ ...split.body, params }).toEqual(value);
      }),
    );
  });

  it("routes a rider-only request as the SDK's predicate routes it with its params (the endpoint classifies it without them)", async () => {
    const header = fc.option(fc.constantFrom('2025-11-25', '2026-07-28', '2025-06-18', ' 2026-07-28 ', 'bogus'), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('tools/list', 'tools/call', 'initialize', 'resources/list', 'subscriptions/listen'),
        header,
        fc.option(fc.constantFrom('tools/list', 'tools/call'), { nil: undefined }),
        fc.jsonValue({ maxDepth: 3 }),
        fc.oneof(fc.integer(), fc.string({ maxLength: 8 })),
        async (method, protocolVersion, methodHeader, riderValue, id) => {
          const body = { jsonrpc: '2.0', id, method, params: { _meta: { [EXTENSION_ID]: riderValue } } };
          const split = withoutRiderOnlyParams(body);
          expect(split).toBeDefined();
          const request = () =>
            new Request('http://127.0.0.1/mcp', {
              method: 'POST',
              headers: {
                'content-type': 'application/json',
                ...(protocolVersion === undefined ? {} : { 'mcp-protocol-version': protocolVersion }),
                ...(methodHeader === undefined ? {} : { 'mcp-method': methodHeader }),
              },
              body: JSON.stringify(body),
            });
          expect(await isLegacyRequest(request(), split!.body)).toBe(await isLegacyRequest(request(), body));
        },
      ),
      { numRuns: 300 },
    );
  });
});
