import { checkValue, lenientValidators } from '@mcpproxy/schema';
import { CliError } from '../cli-error.js';
import type { PreflightAnswer } from './preflight-report.js';

/**
 * The body of a 200 from POST /api/v1/preflight, read leniently (newer gateways may add fields and
 * codes) at either tier. Anything else is invalid_answer: a CI job gated on the exit code must never
 * pass, or crash, on a body it cannot read.
 */
export function restPreflightAnswer(body: unknown): PreflightAnswer {
  const agent = checkValue(lenientValidators.RestAgentPreflightResponse, body);
  const checked = agent.ok ? agent : checkValue(lenientValidators.RestPreflightResponse, body);
  if (!checked.ok) {
    throw new CliError('invalid_answer', `the gateway answered an invalid preflight response: ${checked.issues.map((issue) => `${issue.path || '/'} ${issue.message}`).join('; ')}`);
  }
  return checked.value;
}
