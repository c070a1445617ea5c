import { checkRestPreflightResponse } from '@mcpproxy/schema';
import { CliError } from '../cli-error.js';
import type { PreflightAnswer } from './preflight-report.js';

/**
 * The body of a 200 from POST /api/v1/preflight (checkRestPreflightResponse: lenient, either tier).
 * Anything else is invalid_answer: a CI job gated on the exit code must never pass, or crash, on a
 * body it cannot read.
 */
export function restPreflightAnswer(body: unknown): PreflightAnswer {
  const checked = checkRestPreflightResponse(body);
  if (!checked.ok) {
    throw new CliError('invalid_answer', `the gateway answered an invalid preflight response: ${checked.issues.map((issue) => `${issue.path || '/'} ${issue.message}`).join('; ')}`);
  }
  return checked.value;
}
