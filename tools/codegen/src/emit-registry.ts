// packages/schema/src/generated/registry.ts: the registry as `as const` data plus the literal
// union types derived from it, so a code is typed exactly once (in spec/reasons.json).
import { tsBanner } from './generated-banner.js';
import type { Spec } from './load-spec.js';
import {
  emittableCodes,
  reservedCodes,
  SURFACE_NAMES,
  surfaceCodes,
  WORDING_PLACEHOLDERS,
  type Registry,
  type SurfaceName,
} from './registry-model.js';
import { tsLiteral, tsString } from './render-source.js';
import { schemaLimits } from './schema-limits.js';

const SURFACE_CONSTANTS: Readonly<Record<SurfaceName, { constant: string; type: string }>> = {
  rest_operator: { constant: 'REST_OPERATOR_REASON_CODES', type: 'RestOperatorReasonCode' },
  rest_agent: { constant: 'REST_AGENT_REASON_CODES', type: 'RestAgentReasonCode' },
  rider: { constant: 'RIDER_REASON_CODES', type: 'RiderReasonCode' },
  check: { constant: 'CHECK_REASON_CODES', type: 'CheckReasonCode' },
  resolve: { constant: 'RESOLVE_REASON_CODES', type: 'ResolveReasonCode' },
};

/** Registry entries with keys in one fixed order, whatever order reasons.json used. */
function orderedReasons(registry: Registry): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(registry.reasons).map(([code, r]) => [
      code,
      {
        class: r.class,
        retryable: r.retryable,
        action: r.action,
        diagnostic_actions: r.diagnostic_actions,
        verdict: r.verdict,
        exit_code: r.exit_code,
        surfaces: Object.fromEntries(SURFACE_NAMES.map((s) => [s, r.surfaces[s]])),
        status: r.status,
        since: r.since,
        deprecated_in: r.deprecated_in,
        replaced_by: r.replaced_by,
        activated_in: r.activated_in,
        wording: { detail: r.wording.detail, remediation: r.wording.remediation, variants: r.wording.variants },
      },
    ]),
  );
}

function codeList(name: string, type: string, codes: readonly string[], doc: string): string {
  return [
    `/** ${doc} */`,
    `export const ${name} = ${tsLiteral(codes)} as const;`,
    `export type ${type} = (typeof ${name})[number];`,
    '',
  ].join('\n');
}

export function emitRegistry(spec: Spec): string {
  const { registry } = spec;
  const limits = schemaLimits(spec.payloadSchema);
  const verdicts = registry.verdicts.map((v) => v.verdict);
  const exitCodes = Object.fromEntries(registry.verdicts.map((v) => [v.verdict, v.exit_code]));
  const parts: string[] = [
    tsBanner('spec/reasons.json, spec/required-tools.schema.json'),
    `/** The extension identifier ({vendor-prefix}/{name}). */`,
    `export const EXTENSION_ID = ${tsString(registry.extension)} as const;`,
    `/** The settings version of this registry; raised whenever a code is added or deprecated. */`,
    `export const SETTINGS_VERSION = ${registry.settings_version} as const;`,
    `/** Cap of the extension rider and of check mode (RequestRider.tools.maxItems). */`,
    `export const MAX_TOOLS = ${limits.maxTools} as const;`,
    `/** Cap of the REST preflight (RestPreflightRequest.tools.maxItems). */`,
    `export const REST_MAX_TOOLS = ${limits.restMaxTools} as const;`,
    '',
    `/** The health-action vocabulary; no action is the field left out. */`,
    `export const ACTIONS = ${tsLiteral(registry.actions)} as const;`,
    `export type Action = (typeof ACTIONS)[number];`,
    '',
    `/** Set verdicts from best to worst; the set verdict is the worst present. */`,
    `export const VERDICTS = ${tsLiteral(verdicts)} as const;`,
    `export type Verdict = (typeof VERDICTS)[number];`,
    `/** CLI exit code of each set verdict. */`,
    `export const VERDICT_EXIT_CODES = ${tsLiteral(exitCodes)} as const satisfies { readonly [V in Verdict]: number };`,
    '',
    `/** Where a code may appear: REST operator tier, REST agent tier, extension rider, check mode, resolve facet. */`,
    `export const SURFACES = ${tsLiteral(SURFACE_NAMES)} as const;`,
    `export type RegistrySurface = (typeof SURFACES)[number];`,
    '',
    `export const REASON_CLASSES = ['retryable', 'fix_state', 'permanent'] as const;`,
    `export type ReasonClass = (typeof REASON_CLASSES)[number];`,
    `export const REASON_STATUSES = ['active', 'reserved', 'deprecated'] as const;`,
    `export type ReasonStatus = (typeof REASON_STATUSES)[number];`,
    `/** Placeholders the evaluator fills in detail and remediation wording. */`,
    `export const WORDING_PLACEHOLDERS = ${tsLiteral(WORDING_PLACEHOLDERS)} as const;`,
    `export type WordingPlaceholder = (typeof WORDING_PLACEHOLDERS)[number];`,
    '',
    `export interface ReasonWordingText {`,
    `  readonly detail?: string;`,
    `  readonly remediation?: string;`,
    `}`,
    '',
    `export interface ReasonWording {`,
    `  readonly detail: string;`,
    `  readonly remediation: string;`,
    `  /** Named alternatives for one cause (a malformed id, an action from diagnostics, a hash_mismatch cause). */`,
    `  readonly variants?: { readonly [variant: string]: ReasonWordingText };`,
    `}`,
    '',
    `export interface ReasonEntry {`,
    `  readonly class: ReasonClass;`,
    `  readonly retryable: boolean;`,
    `  readonly action?: Action;`,
    `  readonly diagnostic_actions?: readonly Action[];`,
    `  readonly verdict: Verdict;`,
    `  readonly exit_code: number;`,
    `  readonly surfaces: { readonly [S in RegistrySurface]: boolean };`,
    `  readonly status: ReasonStatus;`,
    `  readonly since: number;`,
    `  readonly deprecated_in?: number;`,
    `  /** The code that replaces a deprecated one, if any. */`,
    `  readonly replaced_by?: string;`,
    `  /** The settings version that activated a code first registered as reserved (its surfaces changed then). */`,
    `  readonly activated_in?: number;`,
    `  readonly wording: ReasonWording;`,
    `}`,
    '',
    `/** Every registry code: active, deprecated and reserved. */`,
    `export const REASONS = ${tsLiteral(orderedReasons(registry))} as const satisfies { readonly [code: string]: ReasonEntry };`,
    `export type RegistryCode = keyof typeof REASONS;`,
    '',
    codeList('REASON_CODES', 'ReasonCode', emittableCodes(registry), 'Codes a producer may emit (active or deprecated), in registry order.'),
    codeList('RESERVED_REASON_CODES', 'ReservedReasonCode', reservedCodes(registry), 'Registered but never emitted.'),
    ...SURFACE_NAMES.map((surface) =>
      codeList(
        SURFACE_CONSTANTS[surface].constant,
        SURFACE_CONSTANTS[surface].type,
        surfaceCodes(registry, surface),
        `Emittable codes allowed on the ${surface} surface.`,
      ),
    ),
    `/** How a consumer treats a code it does not know. */`,
    `export const UNKNOWN_CODE = ${tsLiteral({ ...registry.unknown_code })} as const satisfies {`,
    `  readonly class: ReasonClass;`,
    `  readonly retryable: boolean;`,
    `  readonly verdict: Verdict;`,
    `};`,
    '',
  ];
  return parts.join('\n');
}
