import type { ApiErrorCode } from '@mcpproxy/schema';
import { jsonOf } from '../json/frozen-json.js';
import type { PreflightErrorCode } from '../preflight/preflight-error.js';
import type { PreflightSeam } from '../preflight/preflight-seam.js';
import { apiError } from './api-error.js';
import type { RestEndpoint, RestRequest } from './rest-endpoint.js';

const ERROR_CODES: Readonly<Record<PreflightErrorCode, ApiErrorCode>> = {
  invalid_json: 'invalid_json',
  invalid_request: 'invalid_body',
  no_tools: 'invalid_body',
  too_many_tools: 'invalid_body',
  conflicting_pins: 'conflicting_pins',
  unknown_profile: 'unknown_profile',
  state_unavailable: 'state_unavailable',
  activity_unavailable: 'activity_unavailable',
};

/**
 * POST /api/v1/preflight: the body goes to the seam as it was sent, as text: a body the seam's memo
 * knows is not even parsed (JSON.parse of a 10-ID body measured ~7% of a repeated preflight's
 * instructions). 200 whatever the verdict.
 */
export function preflightEndpoint(preflight: PreflightSeam): RestEndpoint {
  return {
    method: 'POST',
    path: '/preflight',
    operatorOnly: false,
    async handle(request) {
      const body = await request.bodyText();
      if (!body.ok) return apiError(body.status, body.code, body.message, body.path);
      const outcome = await preflight.run({
        surface: isCliClient(request) ? 'cli' : 'rest',
        text: body.text,
        tier: request.principal.tier,
        scope: request.principal.scope,
        requestId: request.requestId,
        // Only a wait can outlive the client: the signal is built only for a request that waits.
        signal: () => request.signal,
      });
      if (!outcome.ok) {
        const { error } = outcome;
        return apiError(error.kind === 'request' ? 400 : 503, ERROR_CODES[error.code], error.message, error.path);
      }
      const { result } = outcome;
      // The same document JSON.stringify would give for { verdict, checked_at, request_id, waited_ms?, tools },
      // with a reused evaluation's tool list serialised once (jsonOf).
      const waited = result.waited_ms === undefined ? '' : `,"waited_ms":${JSON.stringify(result.waited_ms)}`;
      return {
        status: 200,
        text: `{"verdict":${JSON.stringify(result.verdict)},"checked_at":${JSON.stringify(result.checked_at)},"request_id":${JSON.stringify(result.request_id)}${waited},"tools":${jsonOf(result.tools)}}`,
      };
    },
  };
}

/** The CLI marks itself with a `cli/<version>` User-Agent or X-Client header (surface `cli`). */
function isCliClient(request: RestRequest): boolean {
  return [request.headers['user-agent'], request.headers['x-client']].some((value) => typeof value === 'string' && value.startsWith('cli/'));
}
