// The pigeonhole suggestion index must give exactly what brute force gives: every candidate,
// Levenshtein over code points, prefixes either way, ranked, at most three.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareSnapshot, suggest, type EvaluationContext, type GatewaySnapshot } from '../src/index.js';
import { boundedLevenshtein } from '../src/bounded-levenshtein.js';
import { codePointsOf } from '../src/code-points.js';
import { querySuggestions } from '../src/query-suggestions.js';
import { naiveSuggestions } from './naive-evaluator.js';
import { approval, gateway, server, tool } from './snapshot-builder.js';

// Lone surrogates next to each other pair up; ':' inside server names makes two servers yield one name.
const ALPHABET = ['a', 'b', 'c', '_', ':', 'é', '😀', '\uD83D', '\uDE00'];
const text = (max: number) => fc.array(fc.constantFrom(...ALPHABET), { maxLength: max }).map((chars) => chars.join(''));

const namesArb = fc.record({
  servers: fc.uniqueArray(fc.oneof(fc.constantFrom('s', 'sa', 'ab', 's:a', 'sb'), text(3)), { minLength: 1, maxLength: 4 }),
  tools: fc.array(fc.uniqueArray(fc.oneof(text(22), fc.constantFrom('abcabc_abc', 'abcabc_abd', 'aaaaaaaaaaaa')), { maxLength: 30 }), { minLength: 4, maxLength: 4 }),
});

function snapshotOf(servers: readonly string[], tools: readonly (readonly string[])[]): GatewaySnapshot {
  return gateway(servers.map((name, at) => server(name, { tools: (tools[at] ?? []).map((toolName) => tool(toolName)) })));
}

type Edit = { kind: 'insert' | 'delete' | 'substitute'; at: number; fromEnd: boolean; char: string };
const editArb: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('insert', 'delete', 'substitute'),
  at: fc.nat(),
  // Half the edits land in the last dozen characters, where the index's window is.
  fromEnd: fc.boolean(),
  char: fc.constantFrom(...ALPHABET),
});

function applyEdits(name: string, edits: readonly Edit[]): string {
  const units = [...name];
  for (const edit of edits) {
    const room = units.length + (edit.kind === 'insert' ? 1 : 0);
    const at = units.length === 0 ? 0 : edit.fromEnd ? room - 1 - (edit.at % Math.min(room, 12)) : edit.at % room;
    if (edit.kind === 'insert') units.splice(at, 0, edit.char);
    else if (units.length > 0 && edit.kind === 'delete') units.splice(at, 1);
    else if (units.length > 0) units.splice(at, 1, edit.char);
  }
  return units.join('');
}

function naiveDistance(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  let previous = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const current = [i];
    for (let j = 1; j <= y.length; j++) current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (x[i - 1] === y[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[y.length]!;
}

describe('suggestion index', () => {
  it('equals brute force on adversarial names and near-miss queries', () => {
    fc.assert(
      fc.property(
        namesArb,
        fc.array(fc.tuple(fc.nat(), fc.array(editArb, { maxLength: 3 }), fc.nat(20)), { minLength: 1, maxLength: 4 }),
        fc.array(fc.boolean(), { minLength: 4, maxLength: 4 }),
        ({ servers, tools }, queries, visibleFlags) => {
          const snapshot = snapshotOf(servers, tools);
          const prepared = prepareSnapshot(snapshot);
          const allowed = servers.filter((_, at) => visibleFlags[at]);
          const context: EvaluationContext = { tier: 'agent', scope: { allowed_servers: allowed } };
          const names = servers.flatMap((name, at) => (tools[at] ?? []).map((toolName) => `${name}:${toolName}`));
          for (const [pick, edits, cut] of queries) {
            const base = names.length === 0 ? 's:a' : names[pick % names.length]!;
            // Either an edited name or a code-unit prefix of one (which may split a surrogate pair).
            const query = pick % 3 === 0 ? base.slice(0, Math.max(1, base.length - cut)) : applyEdits(base, edits);
            expect(querySuggestions(prepared.suggestions, query, new Set(allowed))).toEqual(naiveSuggestions(snapshot, context, query));
          }
        },
      ),
      { numRuns: 10_000 },
    );
  });

  it('finds a name whose indexed window needs the widest query suffix (two insertions near the end)', () => {
    // Window 'abcdefghij' against the query's last 12 'abcdefghiXjY': no shorter suffix is within 2.
    const snapshot = gateway([server('s', { tools: [tool('0123456789abcdefghij')] })]);
    expect(suggest(prepareSnapshot(snapshot), 's:0123456789abcdefghiXjY', new Set(['s']))).toEqual(['s:0123456789abcdefghij']);
    expect(suggest(prepareSnapshot(snapshot), 's:0123456789XabcdefghijY', new Set(['s']))).toEqual(['s:0123456789abcdefghij']);
  });

  it('bounded Levenshtein equals the full distance when <= the bound, else bound + 1', () => {
    fc.assert(
      fc.property(text(10), text(10), fc.nat(3), (a, b, max) => {
        const x = codePointsOf(a);
        const y = codePointsOf(b);
        const exact = naiveDistance(a, b);
        expect(boundedLevenshtein(x, 0, x.length, y, 0, y.length, max)).toBe(exact <= max ? exact : max + 1);
      }),
      { numRuns: 10_000 },
    );
  });

  it('suggests only servable names: not quarantined, disabled, denied, blocked or pending', () => {
    const snapshot = gateway([
      server('s', {
        tools: ['read', 'reads', 'readx', 'ready', 'reada'].map((name) => tool(name)),
        disabled_tools: ['readx'],
        approvals: [approval('ready', { user_disabled: true }), approval('reada', { status: 'pending' })],
      }),
      server('t', { quarantined: true, tools: [tool('read')] }),
      server('u', { enabled: false, tools: [tool('read')] }),
    ]);
    const visible = new Set(['s', 't', 'u']);
    expect(suggest(prepareSnapshot(snapshot), 's:rea', visible)).toEqual(['s:read', 's:reads']);
    expect(suggest(prepareSnapshot(snapshot), 's : rea ', visible)).toEqual(['s:read', 's:reads']);
    expect(suggest(prepareSnapshot(snapshot), 'no-colon', visible)).toEqual([]);
    expect(suggest(prepareSnapshot(snapshot), 's:rea', new Set())).toEqual([]);
  });

  it('finds one- and two-edit typos anywhere in long names sharing most of their text', () => {
    const tools = Array.from({ length: 200 }, (_, at) => `shared_prefix_${String(at).padStart(3, '0')}_shared_suffix`);
    const snapshot = gateway([server('srv', { tools: tools.map((name) => tool(name)) })]);
    const prepared = prepareSnapshot(snapshot);
    const context: EvaluationContext = { tier: 'agent', scope: { allowed_servers: '*' } };
    for (const query of ['srv:shared_prefix_042_shared_sufix', 'srv:sharedprefix_042_shared_suffix', 'sv:shared_prefix_042_shared_suffix', 'srv:shared_prefix_0x2_shared_suffiy', 'srv:shared_prefix_04']) {
      const expected = naiveSuggestions(snapshot, context, query);
      expect(expected.length).toBeGreaterThan(0);
      expect(suggest(prepared, query, new Set(['srv']))).toEqual(expected);
    }
  });
});
