// What every release check reports. Callers branch on `code`; `subject` names the package (or
// the file) at fault so one run can list every problem at once instead of stopping at the first.
export type ReleaseProblemCode =
  | 'codegen'
  | 'generated_changeset_missing'
  | 'changesets_pending'
  | 'changeset_wording'
  | 'pack_failed'
  | 'readme_missing'
  | 'license_missing'
  | 'leftover_file'
  | 'manifest_field'
  | 'workspace_range'
  | 'internal_range_stale'
  | 'range_floats'
  | 'publint'
  | 'attw';

export interface ReleaseProblem {
  readonly code: ReleaseProblemCode;
  readonly subject: string;
  readonly message: string;
}

export function formatProblem(problem: ReleaseProblem): string {
  return `[${problem.code}] ${problem.subject}: ${problem.message}`;
}
