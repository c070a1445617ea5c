// The shape of spec/reasons.json as codegen sees it (checked against spec/reasons.schema.json
// when loaded, so these types describe validated data).

export type ReasonClass = 'retryable' | 'fix_state' | 'permanent';
export type ReasonStatus = 'active' | 'reserved' | 'deprecated';

export const SURFACE_NAMES = ['rest_operator', 'rest_agent', 'rider', 'check', 'resolve'] as const;
export type SurfaceName = (typeof SURFACE_NAMES)[number];

export const WORDING_PLACEHOLDERS = [
  'id',
  'server',
  'tool',
  'last_error',
  'pinned',
  'current',
  'pinned_version',
  'current_version',
  'annotation',
  'annotation_value',
  'policy_rule',
  'overload_signal',
  'retry_after',
] as const;

export interface WordingText {
  readonly detail?: string;
  readonly remediation?: string;
}

export interface ReasonWording {
  readonly detail: string;
  readonly remediation: string;
  readonly variants?: Readonly<Record<string, WordingText>>;
}

/**
 * A registry entry as codegen uses it. `retryable` and `exit_code` are always present here:
 * the loader derives them (see derive-columns.ts) when the file leaves them out.
 */
export interface ReasonSpec {
  readonly class: ReasonClass;
  readonly retryable: boolean;
  readonly action?: string;
  readonly diagnostic_actions?: readonly string[];
  readonly verdict: string;
  readonly exit_code: number;
  readonly surfaces: Readonly<Record<SurfaceName, boolean>>;
  readonly status: ReasonStatus;
  readonly since: number;
  readonly deprecated_in?: number;
  /** The settings version that activated a code first registered as reserved. */
  readonly activated_in?: number;
  /** The code a deprecated one is replaced by, if any. */
  readonly replaced_by?: string;
  readonly wording: ReasonWording;
}

export interface Registry {
  readonly extension: string;
  readonly settings_version: number;
  readonly actions: readonly string[];
  readonly verdicts: readonly { readonly verdict: string; readonly exit_code: number }[];
  readonly unknown_code: { readonly class: ReasonClass; readonly retryable: boolean; readonly verdict: string };
  readonly reasons: Readonly<Record<string, ReasonSpec>>;
}

/** Codes a producer may emit: active or deprecated (reserved codes are registered, never emitted). */
export function emittableCodes(registry: Registry): string[] {
  return Object.entries(registry.reasons)
    .filter(([, reason]) => reason.status !== 'reserved')
    .map(([code]) => code);
}

export function reservedCodes(registry: Registry): string[] {
  return Object.entries(registry.reasons)
    .filter(([, reason]) => reason.status === 'reserved')
    .map(([code]) => code);
}

export function surfaceCodes(registry: Registry, surface: SurfaceName): string[] {
  return emittableCodes(registry).filter((code) => registry.reasons[code]?.surfaces[surface] === true);
}
