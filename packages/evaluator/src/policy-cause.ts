import type { PolicyExclusion } from './check-policy.js';
import type { WordingValues } from './fill-wording.js';
import type { UnavailableCause } from './unavailable-result.js';

/** The reason and wording values of a tool the annotation policy excludes. */
export function policyCause(exclusion: PolicyExclusion, values: WordingValues): UnavailableCause {
  const filled: WordingValues = { ...values, annotation: exclusion.annotation, policy_rule: exclusion.rule };
  if (exclusion.value !== undefined) return { code: exclusion.reason, values: { ...filled, annotation_value: String(exclusion.value) } };
  return { code: exclusion.reason, values: filled };
}
