// Decision record 0005 (docs/decisions/0005-core-code-mapping.md): the proposal table that moves the
// registry's codes to a small universal core plus namespaced gateway codes. The table is data; this
// test holds it to what the record claims, against the frozen registry of every released settings
// version (spec/released/v<N>.json), so a new settings version that adds a code fails here until
// the table maps it.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EXTENSION_ID, lenientValidators, reasonTreatment, REASON_CODES, worstVerdict, type Verdict } from '../src/index.js';
import { PACKAGE_ROOT, readJson } from './repo-files.js';

const REPO = join(PACKAGE_ROOT, '..', '..');
const RELEASED = join(REPO, 'spec', 'released');

type ReasonClass = 'retryable' | 'fix_state' | 'permanent';
type OldReading = 'known' | 'unknown_same_verdict' | 'unknown_verdict_changed';

interface FrozenReason {
  readonly class: ReasonClass;
  readonly verdict: Verdict;
  readonly retryable?: boolean;
}

interface FrozenRegistry {
  readonly settings_version: number;
  readonly unknown_code: { readonly class: ReasonClass; readonly retryable: boolean; readonly verdict: Verdict };
  readonly reasons: Readonly<Record<string, FrozenReason>>;
}

interface Proposal {
  readonly namespace: string;
  readonly core: Readonly<Record<string, { readonly class: ReasonClass; readonly verdict: Verdict; readonly meaning: string }>>;
  readonly mapping: readonly { readonly code: string; readonly to: string; readonly why: string; readonly old_clients_read: OldReading }[];
  readonly old_clients_read: Readonly<Record<OldReading, string>>;
}

/** What a consumer takes from a code: the class, whether to retry, and the verdict it counts as. */
interface Treatment {
  readonly class: ReasonClass;
  readonly retryable: boolean;
  readonly verdict: Verdict;
}

const proposal = readJson<Proposal>(join(REPO, 'docs', 'decisions', '0005-core-code-mapping.json'));
const released: readonly FrozenRegistry[] = readdirSync(RELEASED)
  .filter((name) => /^v\d+\.json$/.test(name))
  .map((name) => readJson<FrozenRegistry>(join(RELEASED, name)))
  .sort((a, b) => a.settings_version - b.settings_version);
const newest = released[released.length - 1]!;

const rowOf = new Map(proposal.mapping.map((row) => [row.code, row]));

/** The frozen copies spell retryable out (v1) or derive it from the class (v2 on): read either form. */
function frozenTreatment(registry: FrozenRegistry, code: string): Treatment | undefined {
  if (!Object.hasOwn(registry.reasons, code)) return undefined;
  const entry = registry.reasons[code]!;
  return { class: entry.class, retryable: entry.retryable ?? entry.class === 'retryable', verdict: entry.verdict };
}

/** What the code means, as its own registry says: every code of the proposal is in some released registry. */
function sourceTreatment(code: string): Treatment {
  for (const registry of [...released].reverse()) {
    const treatment = frozenTreatment(registry, code);
    if (treatment !== undefined) return treatment;
  }
  throw new Error(`${code} is in no released registry`);
}

/** The target's own treatment: a core code's by the core table, a namespaced code's is its source's (the same code under a prefix). */
function targetTreatment(target: string, source: string): Treatment {
  if (Object.hasOwn(proposal.core, target)) {
    const core = proposal.core[target]!;
    return { class: core.class, retryable: core.class === 'retryable', verdict: core.verdict };
  }
  expect(target, `${source} maps to ${target}: neither a core code nor ${proposal.namespace}/${source}`).toBe(`${proposal.namespace}/${source}`);
  return sourceTreatment(source);
}

/** How a client built for `registry` reads a code it receives: its own entry, or the unknown-code rule. */
function oldClientReading(registry: FrozenRegistry, code: string): Treatment {
  return frozenTreatment(registry, code) ?? registry.unknown_code;
}

describe('the core-code mapping proposal (decision 0005)', () => {
  it('maps every code of every released settings version, and nothing else, exactly once', () => {
    const codes = new Set(released.flatMap((registry) => Object.keys(registry.reasons)));
    expect(released.length).toBeGreaterThanOrEqual(2);
    expect(proposal.mapping.map((row) => row.code).sort()).toEqual([...codes].sort());
    expect(rowOf.size).toBe(proposal.mapping.length);
    // The registry this package ships is one of them (or the next, not yet released, adds nothing unmapped).
    for (const code of REASON_CODES) expect(rowOf.has(code), `${code} has no row`).toBe(true);
  });

  it('keeps each code\'s class, retryability and set verdict', () => {
    for (const row of proposal.mapping) {
      expect(targetTreatment(row.to, row.code), `${row.code} -> ${row.to}`).toEqual(sourceTreatment(row.code));
    }
  });

  it('keeps the core small and every core code used, and namespaces only under the extension\'s vendor prefix', () => {
    const targets = new Set(proposal.mapping.map((row) => row.to));
    for (const core of Object.keys(proposal.core)) expect(targets.has(core), `core code ${core} is never a target`).toBe(true);
    expect(Object.keys(proposal.core).length).toBeLessThanOrEqual(proposal.mapping.length / 2);
    expect(EXTENSION_ID.startsWith(`${proposal.namespace}/`)).toBe(true);
    for (const core of Object.keys(proposal.core)) expect(core).toMatch(/^[a-z][a-z0-9_]{0,63}$/);
  });

  it('sends only codes an old consumer\'s lenient validator accepts (an unknown code is read, not rejected)', () => {
    for (const row of proposal.mapping) {
      const { retryable } = sourceTreatment(row.code);
      const verdict = { id: 'srv:tool', status: 'unavailable', reason: row.to, retryable };
      expect(lenientValidators.ToolVerdict(verdict), `${row.to}: ${JSON.stringify(lenientValidators.ToolVerdict.errors)}`).toBe(true);
      expect(lenientValidators.ResolveFacet({ status: 'unavailable', reason: row.to, retryable })).toBe(true);
    }
  });

  it('cannot carry the new code beside the old one: a released consumer rejects a verdict with a member it does not know', () => {
    // The rejected alternative of the record: keep `reason` and add the core code in a new member.
    const today = { id: 'srv:tool', status: 'unavailable', reason: 'server_initializing', retryable: true };
    expect(lenientValidators.ToolVerdict(today)).toBe(true);
    expect(lenientValidators.ToolVerdict({ ...today, core_reason: 'initializing' })).toBe(false);
    expect(lenientValidators.ResolveFacet({ status: 'unavailable', reason: 'server_initializing', retryable: true, core_reason: 'initializing' })).toBe(false);
  });

  it.each(released.map((registry) => [registry.settings_version, registry] as const))(
    'says what a client of settings version %i reads when it gets the new code',
    (_version, registry) => {
      for (const row of proposal.mapping) {
        const source = sourceTreatment(row.code);
        const read = oldClientReading(registry, row.to);
        const known = frozenTreatment(registry, row.to) !== undefined;
        const stated: OldReading = known ? 'known' : read.retryable === source.retryable && read.verdict === source.verdict ? 'unknown_same_verdict' : 'unknown_verdict_changed';
        expect(row.old_clients_read, `${row.code} -> ${row.to} for a settings version ${registry.settings_version} client`).toBe(stated);
        // Whatever it reads, it never reads a wait-and-retry where it should stop, nor a ready.
        if (!source.retryable) expect(read.retryable).toBe(false);
        expect(read.verdict).not.toBe('ready');
      }
    },
  );

  it('this package\'s consumer rule (reasonTreatment) agrees with the newest frozen registry about every target', () => {
    for (const row of proposal.mapping) {
      const treatment = reasonTreatment(row.to);
      const frozen = oldClientReading(newest, row.to);
      expect({ class: treatment.class, retryable: treatment.retryable, verdict: treatment.verdict }, row.to).toEqual(frozen);
    }
  });

  it('property: any set of codes gets the same set verdict before and after the mapping, and an old client never reads it as better than it is', () => {
    const rows = proposal.mapping;
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...rows), { minLength: 1, maxLength: 50 }), (picked) => {
        const before = worstVerdict(picked.map((row) => sourceTreatment(row.code).verdict));
        const after = worstVerdict(picked.map((row) => targetTreatment(row.to, row.code).verdict));
        expect(after).toBe(before);
        for (const registry of released) {
          const old = worstVerdict(picked.map((row) => oldClientReading(registry, row.to).verdict));
          // Never ready where the truth is not, never "just wait" where the truth says stop.
          expect(old).not.toBe('ready');
          if (before !== 'degraded_retryable') expect(old).not.toBe('degraded_retryable');
        }
      }),
    );
  });
});
