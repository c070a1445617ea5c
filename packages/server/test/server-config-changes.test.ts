// What a reloaded file changes about the servers, against a naive oracle: every name is added, removed,
// reconnected (a key the connection is made from differs), updated (only another key differs) or
// unchanged, exactly one of them; key order never counts. Server names include __proto__ and
// constructor, which are valid names.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResolvedServerConfig } from '../src/config/gateway-config.js';
import { noServerChanges, serverConfigChanges } from '../src/state/server-config-changes.js';

const CONNECTION = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'saturation_error_codes'];

const names = fc.constantFrom('a', 'b', 'c', '__proto__', 'constructor');
const server = (name: string) =>
  fc.record(
    {
      name: fc.constant(name),
      command: fc.constantFrom('node', 'python'),
      args: fc.array(fc.constantFrom('--demo', '-v'), { maxLength: 2 }),
      env: fc.dictionary(fc.constantFrom('A', 'B', '__proto__'), fc.constantFrom('1', '2'), { maxKeys: 2 }),
      cwd: fc.constantFrom('/x', '/y'),
      saturation_error_codes: fc.array(fc.constantFrom(-32000, -32042), { maxLength: 1 }),
      enabled: fc.boolean(),
      quarantined: fc.boolean(),
      enabled_tools: fc.array(fc.constantFrom('t', 'u'), { maxLength: 1 }),
      disabled_tools: fc.array(fc.constantFrom('v'), { maxLength: 1 }),
      auto_approve_tool_changes: fc.boolean(),
    },
    { requiredKeys: ['name', 'command', 'enabled', 'enabled_tools', 'disabled_tools', 'auto_approve_tool_changes', 'saturation_error_codes'] },
  );
const serverList = fc.uniqueArray(names, { maxLength: 5 }).chain((list) => fc.tuple(...list.map(server)));

/** The same object with its keys in reverse order: a reload must not see a change in it. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).reverse()) Object.defineProperty(out, key, { value: reversed((value as Record<string, unknown>)[key]), enumerable: true, writable: true, configurable: true });
  return out;
}

function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => same(item, b[i]));
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return a === b;
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(ra), ...Object.keys(rb)]);
  return [...keys].every((key) => Object.hasOwn(ra, key) === Object.hasOwn(rb, key) && (!Object.hasOwn(ra, key) || same(ra[key], rb[key])));
}

function field(config: object, key: string): unknown {
  return Object.hasOwn(config, key) ? (config as Record<string, unknown>)[key] : undefined;
}

function oracle(before: readonly ResolvedServerConfig[], after: readonly ResolvedServerConfig[]): Record<string, string> {
  const verdicts: Record<string, string> = {};
  const set = (name: string, verdict: string) => Object.defineProperty(verdicts, name, { value: verdict, enumerable: true });
  for (const b of before) if (!after.some((a) => a.name === b.name)) set(b.name, 'removed');
  for (const a of after) {
    const b = before.find((x) => x.name === a.name);
    if (b === undefined) set(a.name, 'added');
    else if (CONNECTION.some((key) => !same(field(a, key), field(b, key)))) set(a.name, 'reconnected');
    else if (!same(a, b)) set(a.name, 'updated');
  }
  return verdicts;
}

function classified(before: readonly ResolvedServerConfig[], after: readonly ResolvedServerConfig[]): Record<string, string> {
  const changes = serverConfigChanges(before, after);
  const verdicts: Record<string, string> = {};
  const set = (name: string, verdict: string) => {
    if (Object.hasOwn(verdicts, name)) throw new Error(`${name} classified twice`);
    Object.defineProperty(verdicts, name, { value: verdict, enumerable: true });
  };
  changes.added.forEach((c) => set(c.name, 'added'));
  changes.removed.forEach((name) => set(name, 'removed'));
  changes.reconnected.forEach((c) => set(c.name, 'reconnected'));
  changes.updated.forEach((c) => set(c.name, 'updated'));
  return verdicts;
}

describe('serverConfigChanges', () => {
  it('classifies every server as the oracle does, each once', () => {
    fc.assert(
      fc.property(serverList, serverList, (before, after) => {
        const b = before as unknown as ResolvedServerConfig[];
        const a = after as unknown as ResolvedServerConfig[];
        expect(classified(b, a)).toEqual(oracle(b, a));
      }),
    );
  });

  it('sees no change in the same servers with their keys in another order', () => {
    fc.assert(
      fc.property(serverList, (servers) => {
        const list = servers as unknown as ResolvedServerConfig[];
        const changes = serverConfigChanges(list, reversed(list) as ResolvedServerConfig[]);
        expect(noServerChanges(changes)).toBe(true);
      }),
    );
  });
});
