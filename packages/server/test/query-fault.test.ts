// queryFault against an oracle that counts with own properties: names a caller may choose, the
// prototype's own among them, in any order and any number of times.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queryFault } from '../src/rest/query-fault.js';

const NAMES = ['server', 'limit', 'cursor', '__proto__', 'constructor', 'hasOwnProperty', 'toString', 'a b', 'é', ''];

/** The expected fault, from the names in the order they were sent. */
function expected(sent: readonly string[], accepted: readonly string[]): { name: string; message: string } | undefined {
  const counts: Record<string, number> = {};
  const order: string[] = [];
  for (const name of sent) {
    if (Object.hasOwn(counts, name)) counts[name] = counts[name]! + 1;
    else {
      Object.defineProperty(counts, name, { value: 1, writable: true, enumerable: true, configurable: true });
      order.push(name);
    }
  }
  for (const name of order) {
    if (!accepted.includes(name)) return { name, message: 'unknown parameter' };
    if (counts[name]! > 1) return { name, message: `given ${counts[name]} times; give it once` };
  }
  return undefined;
}

describe('queryFault', () => {
  it('names the first parameter, in the order sent, that is not taken or is repeated', () => {
    const name = fc.oneof(fc.constantFrom(...NAMES), fc.string({ maxLength: 6 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(name, fc.string({ maxLength: 4 })), { maxLength: 6 }), fc.subarray(NAMES), (pairs, accepted) => {
        // As the route has it: the request URL's query, parsed.
        const query = new URL(`/api/v1/tools?${new URLSearchParams(pairs).toString()}`, 'http://gateway.invalid').searchParams;
        const sent = pairs.map(([n]) => n);
        expect(queryFault(query, accepted)).toEqual(expected(sent, accepted));
      }),
      { numRuns: 1000 },
    );
  });

  it('has nothing to say about a URL without a query', () => {
    const query = (url: string) => new URL(url, 'http://gateway.invalid').searchParams;
    expect(queryFault(query('/api/v1/preflight'), [])).toBeUndefined();
    expect(queryFault(query('/api/v1/preflight?'), [])).toBeUndefined();
    expect(queryFault(query('/api/v1/tools?server=a&server=b&x=1'), ['server'])).toEqual({ name: 'server', message: 'given 2 times; give it once' });
  });
});
