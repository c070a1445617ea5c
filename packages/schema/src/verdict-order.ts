// The set verdict is the worst verdict present; VERDICTS lists them best to worst.
import { VERDICTS, type Verdict } from './generated/registry.js';

export function verdictRank(verdict: Verdict): number {
  return VERDICTS.indexOf(verdict);
}

export function worstVerdict(verdicts: Iterable<Verdict>): Verdict {
  let worst: Verdict = 'ready';
  for (const verdict of verdicts) {
    if (verdictRank(verdict) > verdictRank(worst)) worst = verdict;
  }
  return worst;
}
