// Columns the registry can work out for itself: `retryable` follows from the class and
// `exit_code` from the verdict (through the verdicts table). spec/reasons.json leaves them out;
// frozen copies written before that (spec/released/v1.json) still spell them, and stay
// byte-identical, so both forms load. An explicit value is kept as written, and the consistency
// check says when it disagrees with what it would derive to.
import type { ReasonSpec, Registry } from './registry-model.js';

type FileReason = Omit<ReasonSpec, 'retryable' | 'exit_code'> & { readonly retryable?: boolean; readonly exit_code?: number };
export type FileRegistry = Omit<Registry, 'reasons'> & { readonly reasons: Readonly<Record<string, FileReason>> };

/** The exit code a verdict maps to, or undefined when the verdict is not listed. */
export function verdictExitCode(registry: Pick<Registry, 'verdicts'>, verdict: string): number | undefined {
  return registry.verdicts.find((v) => v.verdict === verdict)?.exit_code;
}

export function deriveColumns(file: FileRegistry): Registry {
  const reasons: Record<string, ReasonSpec> = {};
  for (const [code, r] of Object.entries(file.reasons)) {
    // An unlisted verdict derives to no exit code; -1 keeps the entry typed and the consistency
    // check names the verdict.
    const exit = r.exit_code ?? verdictExitCode(file, r.verdict) ?? -1;
    reasons[code] = { ...r, retryable: r.retryable ?? r.class === 'retryable', exit_code: exit };
  }
  return { ...file, reasons };
}

