// A validator's verdict as a value: the typed value, or issues that each name the JSON pointer
// at fault and the rule (ajv keyword) it broke.
import type { ErrorObject, ValidateFunction } from 'ajv';

export interface ValidationIssue {
  /** JSON pointer of the offending value ('' is the whole document). */
  readonly path: string;
  /** The JSON Schema keyword that failed (type, required, const, enum, additionalProperties, ...). */
  readonly rule: string;
  readonly message: string;
}

export type CheckResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

function pointerSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** Where an error points: for a property that should not be there, the property itself. */
function issuePath(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const extra =
    params['additionalProperty'] ?? params['unevaluatedProperty'] ?? params['missingProperty'] ?? params['propertyName'];
  return typeof extra === 'string' ? `${error.instancePath}/${pointerSegment(extra)}` : error.instancePath;
}

function toIssue(error: ErrorObject): ValidationIssue {
  return { path: issuePath(error), rule: error.keyword, message: error.message ?? error.keyword };
}

/**
 * Validates and, on failure, lists the issues. ajv reports an if/then failure twice (the
 * branch's own error and an `if` summary); the summary carries no extra information and is dropped.
 */
export function checkValue<T>(validator: ValidateFunction<T>, value: unknown): CheckResult<T> {
  if (validator(value)) return { ok: true, value };
  const errors = validator.errors ?? [];
  const specific = errors.filter((e) => e.keyword !== 'if');
  return { ok: false, issues: (specific.length > 0 ? specific : errors).map(toIssue) };
}

/** One readable line per issue: `<path or /> <rule>: <message>`. */
export function formatIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => `${issue.path === '' ? '/' : issue.path} ${issue.rule}: ${issue.message}`).join('\n');
}
