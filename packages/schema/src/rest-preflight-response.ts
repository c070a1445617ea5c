import { lenientValidators } from './generated/validators.js';
import type { LenientRestAgentPreflightResponse, LenientRestPreflightResponse } from './generated/types.js';
import { checkValue, type CheckResult } from './check-value.js';

/**
 * The body of a 200 from POST /api/v1/preflight as a consumer reads it: leniently (a reason code or
 * action this version does not know is accepted), at either tier. The agent tier's shape is tried first; when neither
 * fits, the issues are those against the operator tier's (the wider) shape.
 */
export function checkRestPreflightResponse(value: unknown): CheckResult<LenientRestAgentPreflightResponse | LenientRestPreflightResponse> {
  const agent = checkValue(lenientValidators.RestAgentPreflightResponse, value);
  return agent.ok ? agent : checkValue(lenientValidators.RestPreflightResponse, value);
}
