import { reasonTreatment, worstVerdict, type Verdict } from '@mcpproxy/schema';

/** The set verdict: the worst class present; an unknown (or missing) reason code counts as blocked. */
export function aggregateVerdict(results: readonly { status: string; reason?: string }[]): Verdict {
  const verdicts: Verdict[] = [];
  for (const result of results) {
    verdicts.push(result.status === 'ready' ? 'ready' : reasonTreatment(result.reason ?? '').verdict);
  }
  return worstVerdict(verdicts);
}
