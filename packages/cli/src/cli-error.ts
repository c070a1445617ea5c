/**
 * Why a command failed, as a value the entry point prints on one line (never a stack trace).
 * Every CLI failure exits 1; verdict exit codes (10, 11, 12) are not failures and never pass here.
 */
export type CliErrorCode =
  | 'usage'
  | 'config'
  | 'connection'
  | 'unauthorized'
  | 'gateway'
  | 'invalid_answer'
  | 'in_band'
  | 'io';

export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly code: CliErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export function usageError(message: string): CliError {
  return new CliError('usage', message);
}

/** One line of text for whatever was thrown. */
export function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.replace(/\s*\n\s*/g, '; ');
}
