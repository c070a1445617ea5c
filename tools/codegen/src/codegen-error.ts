// Codegen fails with values, not stack traces: each problem has a code the CLI and tests
// branch on, and a message that says what to do.

export type CodegenErrorCode =
  | 'spec_unreadable'
  | 'spec_invalid'
  | 'unknown_placeholder'
  | 'registry_inconsistent'
  | 'compat_broken'
  | 'version_bump_needed'
  | 'released_copy_missing'
  | 'released_chain_broken'
  | 'released_copy_edited'
  | 'baseline_unverifiable'
  | 'changeset_missing'
  | 'drift'
  | 'emit_failed';

export interface CodegenProblem {
  readonly code: CodegenErrorCode;
  readonly message: string;
}

/** Thrown only where a problem makes generation itself impossible; the CLI turns it into a problem. */
export class CodegenError extends Error {
  constructor(
    readonly code: CodegenErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CodegenError';
  }
}
