// sameJsonValue says true only where JSON.stringify writes both values alike; anything it is not
// sure of is false (the caller then compares the texts).
import { describe, expect, it } from 'vitest';
import { knownJson, sameJsonValue } from '../src/same-json-value.js';

/** The kept form of a value's JSON text, as the memo keeps a rider it checked. */
const parsed = (value: unknown) => knownJson(JSON.parse(JSON.stringify(value ?? null)));

describe('sameJsonValue', () => {
  it('is true for JSON data equal to a parsed copy, and then the texts are equal', () => {
    const values = [{ tools: [{ id: 'a:b', pin_hash: 'x' }], policy: { read_only_only: true } }, [1, 'two', null, false, { n: -0 }], 'text', 0, null, { '2': 1, '1': 2, b: [] }];
    for (const value of values) {
      expect(sameJsonValue(value, parsed(value))).toBe(true);
      expect(JSON.stringify(value)).toBe(JSON.stringify(JSON.parse(JSON.stringify(value))));
    }
  });

  it('is false for another value, another key order, or another array length', () => {
    expect(sameJsonValue({ a: 1, b: 2 }, parsed({ b: 2, a: 1 }))).toBe(false);
    expect(sameJsonValue({ a: 1 }, parsed({ a: 1, b: 2 }))).toBe(false);
    expect(sameJsonValue([1, 2], parsed([1, 2, 3]))).toBe(false);
    expect(sameJsonValue({ a: '1' }, parsed({ a: 1 }))).toBe(false);
    expect(sameJsonValue([{ a: 1 }], parsed({ 0: { a: 1 } }))).toBe(false);
    expect(sameJsonValue({ 0: { a: 1 } }, parsed([{ a: 1 }]))).toBe(false);
  });

  it('is false for what JSON writes otherwise or not at all: it never claims equal texts it has not checked', () => {
    expect(sameJsonValue({ a: undefined }, parsed({}))).toBe(false);
    expect(sameJsonValue(Number.NaN, parsed(null))).toBe(false);
    expect(sameJsonValue({ a: Number.POSITIVE_INFINITY }, parsed({ a: null }))).toBe(false);
    expect(sameJsonValue(new Date(0), parsed(new Date(0)))).toBe(false);
    expect(sameJsonValue({ toJSON: 'x' }, parsed({ toJSON: 'x' }))).toBe(false);
    expect(sameJsonValue(Object.assign(Object.create(null) as object, { a: 1 }), parsed({ a: 1 }))).toBe(false);
    expect(sameJsonValue(10n, parsed(10))).toBe(false);
    expect(sameJsonValue(undefined, parsed(null))).toBe(false);
    expect(sameJsonValue(Object.assign(Object.create({ inherited: 1 }) as object, { a: 1 }), parsed({ a: 1 }))).toBe(false);
    let deep: unknown = 'end';
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(sameJsonValue(deep, parsed(deep))).toBe(false);
  });
});
