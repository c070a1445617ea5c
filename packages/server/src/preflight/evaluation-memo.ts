import type { Evaluation, Scope, Tier } from '@mcpproxy/evaluator';
import type { Surface } from '@mcpproxy/schema';
import { deepFreeze } from '../json/frozen-json.js';
import type { SurfaceRequest } from '@mcpproxy/extension';

/** What one request text evaluated to on one published snapshot. */
export interface MemoEntry {
  readonly surfaceRequest: SurfaceRequest;
  readonly evaluation: Evaluation;
}

/** Distinct request texts kept per snapshot version; past it the memo starts over (a flood of distinct texts costs nothing more). */
export const MEMO_CAPACITY = 256;

/**
 * The longest request text the memo keeps (UTF-16 code units). A valid body may be 1 MiB (whitespace is
 * legal JSON), and 256 of those would pin 256 MiB for any token holder; 100 IDs with pins fit in ~15 KB.
 */
export const MEMO_MAX_TEXT_LENGTH = 32 * 1024;

/**
 * The evaluations of the current snapshot version, by request text. The evaluator is a pure function of
 * (snapshot, request, tier, scope), so the same text from the same caller on the same version has the
 * same verdict: an agent harness that preflights its fixed tool set before every job skips validation,
 * dedup and evaluation, and shares the result objects: frozen once reused, so their renderings are
 * computed once too (jsonOf).
 * A new version empties the memo; only requests without wait_ms are kept (a wait depends on time).
 */
export class EvaluationMemo {
  private version = -1;
  private readonly entries = new Map<string, MemoEntry>();
  private readonly scopeKeys = new WeakMap<Scope, string>();

  constructor(private readonly capacity: number = MEMO_CAPACITY) {}

  /** Whether a request text may be kept at all (see MEMO_MAX_TEXT_LENGTH). */
  accepts(text: string): boolean {
    return text.length <= MEMO_MAX_TEXT_LENGTH;
  }

  /** The memo key of a request text from this caller; a scope object seen before costs nothing. */
  key(surface: Surface, tier: Tier, scope: Scope, text: string): string {
    let scopeKey = this.scopeKeys.get(scope);
    if (scopeKey === undefined) {
      scopeKey = JSON.stringify([scope.allowed_servers, scope.profile_pin ?? null, scope.active_profile ?? null]);
      this.scopeKeys.set(scope, scopeKey);
    }
    return `${surface}\u0000${tier}\u0000${scopeKey}\u0000${text}`;
  }

  /** The entry for `key` on `version`; its evaluation is deep-frozen from its first reuse on (see jsonOf). */
  get(version: number, key: string): MemoEntry | undefined {
    this.turnTo(version);
    const entry = this.entries.get(key);
    if (entry !== undefined && !Object.isFrozen(entry.evaluation)) deepFreeze(entry.evaluation);
    return entry;
  }

  set(version: number, key: string, entry: MemoEntry): void {
    this.turnTo(version);
    if (this.entries.size >= this.capacity) this.entries.clear();
    this.entries.set(key, entry);
  }

  get size(): number {
    return this.entries.size;
  }

  private turnTo(version: number): void {
    if (version === this.version) return;
    this.entries.clear();
    this.version = version;
  }
}
