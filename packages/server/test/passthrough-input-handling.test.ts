// Property tests (fast-check) of what the gateway reads from callers on the new pass-through paths:
// the namespaced resource URI (reversible for every upstream URI and server name), the aggregated
// listing cursor (a caller's string is a page or -32602, never anything else), and the retry fields
// of a 2026-07-28 request (refused exactly when they are not what the revision defines).
import { ProtocolError } from '@modelcontextprotocol/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { catalogPage } from '../src/mcp/catalog-page.js';
import { namespacedName, namespacedUri, upstreamName, upstreamUri } from '../src/mcp/namespaced-uri.js';
import { retryFieldsFault } from '../src/mcp/retry-fields.js';

const serverName = fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/);

describe('namespaced names', () => {
  it('a resource URI reads back to its server and the upstream URI, byte for byte, whatever the URI holds', () => {
    fc.assert(
      fc.property(serverName, fc.string({ minLength: 1, unit: 'binary' }), (server, uri) => {
        expect(upstreamUri(namespacedUri(server, uri))).toEqual({ server, uri });
      }),
    );
  });

  it('a template expands to a URI that reads back to the upstream expansion', () => {
    fc.assert(
      fc.property(serverName, fc.string(), fc.string(), fc.string({ minLength: 1 }), (server, before, after, value) => {
        const template = `${before}{id}${after}`;
        // A function replacer: a string one would read `$&`, `$\`` and the like in the value as patterns.
        const expand = (text: string) => text.replace('{id}', () => value);
        expect(upstreamUri(expand(namespacedUri(server, template)))).toEqual({ server, uri: expand(template) });
      }),
    );
  });

  it('a URI that is not the gateway\u2019s reads as none (no server taken from it)', () => {
    fc.assert(
      fc.property(fc.string(), (uri) => {
        const read = upstreamUri(uri);
        if (!uri.startsWith('mcpproxy://')) expect(read).toBeUndefined();
        else if (read !== undefined) expect(namespacedUri(read.server, read.uri)).toBe(uri);
      }),
    );
  });

  it('server:name splits on the first colon and round-trips', () => {
    fc.assert(
      fc.property(serverName, fc.string({ minLength: 1 }), (server, name) => {
        expect(upstreamName(namespacedName(server, name))).toEqual({ server, name });
      }),
    );
  });
});

describe('the aggregated listing cursor', () => {
  const page = (server: string, cursor: string | undefined) =>
    Promise.resolve(cursor === undefined ? { items: [`${server}-1`], nextCursor: 'more' } : { items: [`${server}-${cursor}`] });

  it('walks every server to the end, in server order', async () => {
    const first = await catalogPage(['a', 'b'], undefined, page);
    expect(first.items).toEqual(['a-1', 'b-1']);
    const second = await catalogPage(['a', 'b'], first.nextCursor, page);
    expect(second).toEqual({ items: ['a-more', 'b-more'] });
  });

  it("answers a caller's cursor with a page or -32602, never anything else", async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string(), fc.base64String(), fc.jsonValue().map((v) => Buffer.from(JSON.stringify(v) ?? '', 'utf8').toString('base64url'))), async (cursor) => {
        try {
          const result = await catalogPage(['a', 'b'], cursor, page);
          expect(Array.isArray(result.items)).toBe(true);
        } catch (error) {
          expect(error).toBeInstanceOf(ProtocolError);
          expect((error as ProtocolError).code).toBe(-32602);
        }
      }),
    );
  });
});

describe('retry fields of 2026-07-28', () => {
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

  it('are refused exactly when inputResponses is not an object of objects or requestState not a string', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('tools/call', 'prompts/get', 'resources/read', 'tools/list'),
        fc.option(fc.oneof(fc.jsonValue(), fc.dictionary(fc.string(), fc.oneof(fc.object(), fc.jsonValue()))), { nil: undefined }),
        fc.option(fc.oneof(fc.string(), fc.jsonValue()), { nil: undefined }),
        (method, inputResponses, requestState) => {
          const params: Record<string, unknown> = { name: 'x' };
          if (inputResponses !== undefined) params['inputResponses'] = inputResponses;
          if (requestState !== undefined) params['requestState'] = requestState;
          const fault = retryFieldsFault({ jsonrpc: '2.0', id: 1, method, params });
          const badResponses = Object.hasOwn(params, 'inputResponses') && (!isObject(inputResponses) || !Object.values(inputResponses).every(isObject));
          const badState = Object.hasOwn(params, 'requestState') && typeof requestState !== 'string';
          const retryable = method !== 'tools/list';
          expect(fault !== undefined).toBe(retryable && (badResponses || badState));
          if (fault !== undefined) expect(fault).toMatch(/^params\.(inputResponses|requestState)/);
        },
      ),
    );
  });
});
