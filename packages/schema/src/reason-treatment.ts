// How a consumer treats a reason code: known codes by the registry, unknown ones as
// permanent, non-retryable and blocked (so a v1 client reads a v2 answer without throwing).
import { REASONS, UNKNOWN_CODE, VERDICT_EXIT_CODES, type ReasonClass, type RegistryCode, type Verdict } from './generated/registry.js';

export interface ReasonTreatment {
  readonly known: boolean;
  readonly class: ReasonClass;
  readonly retryable: boolean;
  readonly verdict: Verdict;
  readonly exit_code: number;
}

function isRegistryCode(code: string): code is RegistryCode {
  return Object.prototype.hasOwnProperty.call(REASONS, code);
}

export function reasonTreatment(code: string): ReasonTreatment {
  if (isRegistryCode(code)) {
    const entry = REASONS[code];
    return { known: true, class: entry.class, retryable: entry.retryable, verdict: entry.verdict, exit_code: entry.exit_code };
  }
  return {
    known: false,
    class: UNKNOWN_CODE.class,
    retryable: UNKNOWN_CODE.retryable,
    verdict: UNKNOWN_CODE.verdict,
    exit_code: VERDICT_EXIT_CODES[UNKNOWN_CODE.verdict],
  };
}
