import type { Policy } from './request.js';
import type { ToolAnnotations } from './snapshot.js';

export type PolicyRule = keyof Policy;

export interface PolicyExclusion {
  readonly reason: 'missing_annotation' | 'policy_filtered';
  readonly rule: PolicyRule;
  readonly annotation: string;
  /** The annotation's value when it is present (policy_filtered). */
  readonly value?: boolean;
}

function excludes(rule: PolicyRule, annotation: keyof ToolAnnotations, value: unknown, passes: boolean): PolicyExclusion | undefined {
  // Only a real boolean counts as declared; anything else is a missing annotation.
  if (typeof value !== 'boolean') return { reason: 'missing_annotation', rule, annotation };
  if (value !== passes) return { reason: 'policy_filtered', rule, annotation, value };
  return undefined;
}

/**
 * The annotation policy, rules in fixed order; the first that excludes the tool decides.
 * Annotations come from the upstream's own listing (undefined when the tool declares none,
 * which therefore misses every annotation).
 */
export function checkPolicy(annotations: ToolAnnotations | undefined, policy: Policy | undefined): PolicyExclusion | undefined {
  if (policy === undefined) return undefined;
  const readOnly = annotations?.readOnlyHint;
  if (policy.read_only_only === true) {
    const exclusion = excludes('read_only_only', 'readOnlyHint', readOnly, true);
    if (exclusion !== undefined) return exclusion;
  }
  if (policy.exclude_destructive === true && readOnly !== true) {
    const exclusion = excludes('exclude_destructive', 'destructiveHint', annotations?.destructiveHint, false);
    if (exclusion !== undefined) return exclusion;
  }
  if (policy.exclude_open_world === true) {
    const exclusion = excludes('exclude_open_world', 'openWorldHint', annotations?.openWorldHint, false);
    if (exclusion !== undefined) return exclusion;
  }
  return undefined;
}
