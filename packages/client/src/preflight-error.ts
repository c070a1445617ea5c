import type { Verdict } from '@mcpproxy/schema';
import type { Carriage, CarriageAttempt, PreflightResult, UnavailableTool } from './preflight-result.js';

export type PreflightErrorCode =
  /** The ids cannot be checked at all (none given). */
  | 'invalid_request'
  /** Every carriage was skipped or failed; `attempts` says which and why. */
  | 'no_carriage'
  /** requireTools: some required tool is unavailable. */
  | 'tools_unavailable';

/** A preflight that gave no usable answer, or (requireTools) an answer that is not ready. */
export class PreflightError extends Error {
  override readonly name = 'PreflightError';
  constructor(
    readonly code: PreflightErrorCode,
    message: string,
    /** What was tried, in order, and why each carriage did not answer. */
    readonly attempts: readonly CarriageAttempt[] = [],
  ) {
    super(message);
  }
}

/** Thrown by requireTools: the verdict, and every unavailable tool with its reason. */
export class RequiredToolsUnavailableError extends PreflightError {
  readonly verdict: Verdict;
  readonly unavailable: readonly UnavailableTool[];
  readonly carriage: Carriage;
  readonly result: PreflightResult;

  constructor(result: PreflightResult) {
    const unavailable = result.tools.filter((tool): tool is UnavailableTool => tool.status === 'unavailable');
    const list = unavailable.map(describeUnavailable).join('; ');
    super('tools_unavailable', `${unavailable.length} of ${result.tools.length} required tools unavailable (verdict ${result.verdict}): ${list}`, result.attempts);
    this.verdict = result.verdict;
    this.unavailable = unavailable;
    this.carriage = result.carriage;
    this.result = result;
  }
}

/** One unavailable tool for a message: its id, reason, detail and what to do about it. */
function describeUnavailable(tool: UnavailableTool): string {
  const said = [tool.detail, tool.remediation === undefined ? undefined : `remediation: ${tool.remediation}`].filter((part) => part !== undefined);
  return `${tool.id} (${tool.reason}${said.length === 0 ? '' : `: ${said.join(' ')}`})`;
}

/** Why a carriage did not answer, as one line per attempt. */
export function describeAttempts(attempts: readonly CarriageAttempt[]): string {
  return attempts.map((attempt) => `${attempt.carriage} ${attempt.outcome}: ${attempt.reason}`).join('; ');
}
