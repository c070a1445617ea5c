import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/upstream/canonical-json.js';
import { toolHash } from '../src/upstream/tool-hash.js';

/** Rebuilds a JSON value with every object's keys in reverse insertion order. */
function reorderKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reorderKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).reverse();
    return Object.fromEntries(entries.map(([k, v]) => [k, reorderKeys(v)]));
  }
  return value;
}

const jsonValue = fc.jsonValue({ maxDepth: 4 });

describe('canonicalJson', () => {
  it('sorts keys recursively and drops whitespace', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: 'x' } })).toBe('{"a":{"c":"x","d":[3,{"y":2,"z":1}]},"b":1}');
  });

  it('sorts by UTF-16 code units, not by locale', () => {
    expect(canonicalJson({ b: 1, B: 2, 'é': 3, a: 4 })).toBe('{"B":2,"a":4,"b":1,"é":3}');
  });

  it('round-trips: parsing the canonical form gives an equal value', () => {
    fc.assert(
      fc.property(jsonValue, (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('does not depend on key order', () => {
    fc.assert(fc.property(jsonValue, (value) => canonicalJson(value) === canonicalJson(reorderKeys(value))));
  });

  it('refuses what is not JSON', () => {
    expect(() => canonicalJson(Number.NaN)).toThrow(TypeError);
    expect(() => canonicalJson(() => 1)).toThrow(TypeError);
  });
});

describe('toolHash (sha256/v1)', () => {
  const echo = {
    name: 'echo',
    description: 'Echoes its input',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
  };

  it('matches the documented test vector', () => {
    const bytes = '["echo","Echoes its input",{"properties":{"text":{"type":"string"}},"type":"object"}]';
    const expected = createHash('sha256').update(bytes, 'utf8').digest('hex');
    expect(expected).toBe('df5efbdf64c2cf149efb11a938f4b448ed8a868327083258ba2d4d758c2eeb6d');
    expect(toolHash(echo)).toBe(`sha256/v1:${expected}`);
  });

  it('covers outputSchema only when present, and a missing description as null', () => {
    const withOutput = { ...echo, outputSchema: { type: 'object' } };
    const bytes = '["echo","Echoes its input",{"properties":{"text":{"type":"string"}},"type":"object"},{"type":"object"}]';
    expect(toolHash(withOutput)).toBe(`sha256/v1:${createHash('sha256').update(bytes).digest('hex')}`);
    const noDescription = { name: 'echo', inputSchema: { type: 'object' } };
    expect(toolHash(noDescription)).toBe(
      `sha256/v1:${createHash('sha256').update('["echo",null,{"type":"object"}]').digest('hex')}`,
    );
    expect(toolHash(noDescription)).not.toBe(toolHash({ ...noDescription, description: '' }));
  });

  it('has the wire form sha256/v1:<64 hex>', () => {
    expect(toolHash(echo)).toMatch(/^sha256\/v1:[0-9a-f]{64}$/);
  });

  it('is stable under key order and changes with every covered field', () => {
    fc.assert(
      fc.property(fc.string(), fc.option(fc.string(), { nil: undefined }), jsonValue, fc.string(), (name, description, schema, suffix) => {
        const tool = { name, description, inputSchema: schema };
        expect(toolHash({ ...tool, inputSchema: reorderKeys(schema) })).toBe(toolHash(tool));
        expect(toolHash({ ...tool, name: `${name}${suffix}x` })).not.toBe(toolHash(tool));
        expect(toolHash({ ...tool, description: `${description ?? ''}${suffix}x` })).not.toBe(toolHash(tool));
        expect(toolHash({ ...tool, inputSchema: { wrapped: schema } })).not.toBe(toolHash(tool));
        expect(toolHash({ ...tool, outputSchema: schema })).not.toBe(toolHash(tool));
      }),
    );
  });
});
