import type { ApiErrorCode } from '@mcpproxy/schema';
import { jsonOf } from '../json/frozen-json.js';
import type { PreflightErrorCode } from '../preflight/preflight-error.js';
import type { PreflightSeam } from '../preflight/preflight-seam.js';
import type { TokenScopeByName } from '../auth/token-scope-by-name.js';
import { apiError } from './api-error.js';
import type { RestEndpoint, RestReply, RestRequest } from './rest-endpoint.js';

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

const TOKEN_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Finds an agent token's scope by its name (for `as_token`). */
export type TokenScopeLookup = (name: string) => Promise<TokenScopeByName>;

/**
 * POST /api/v1/preflight: the body goes to the seam as it was sent, as text: a body the seam's memo
 * knows is not even parsed (JSON.parse of a 10-ID body measured ~7% of a repeated preflight's
 * instructions). 200 whatever the verdict. With `?as_token=NAME` (operator only) it is evaluated at
 * the agent tier in that token's scope.
 */
export function preflightEndpoint(preflight: PreflightSeam, tokenScope?: TokenScopeLookup): RestEndpoint {
  return {
    method: 'POST',
    path: '/preflight',
    operatorOnly: false,
    query: ['as_token'],
    async handle(request) {
      const asToken = request.query.get('as_token');
      let caller: Pick<RestRequest['principal'], 'tier' | 'scope'> = request.principal;
      if (asToken !== null) {
        const chosen = await tokenCaller(asToken, request, tokenScope);
        if ('status' in chosen) return chosen;
        caller = chosen;
      }
      const body = await request.bodyText();
      if (!body.ok) return apiError(body.status, body.code, body.message, body.path);
      const outcome = await preflight.run({
        surface: isCliClient(request) ? 'cli' : 'rest',
        text: body.text,
        tier: caller.tier,
        scope: caller.scope,
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
      // with a reused evaluation's tool list serialised once (jsonOf). The three strings need no escaping:
      // a verdict is a lower-case word, checked_at an ISO time, and a request id matches REQUEST_ID_PATTERN.
      const waited = result.waited_ms === undefined ? '' : `,"waited_ms":${JSON.stringify(result.waited_ms)}`;
      return {
        status: 200,
        text: `{"verdict":"${result.verdict}","checked_at":"${result.checked_at}","request_id":"${result.request_id}"${waited},"tools":${jsonOf(result.tools)}}`,
      };
    },
  };
}

/** The agent-tier caller `as_token` names, or the error that refuses it. */
async function tokenCaller(name: string, request: RestRequest, lookup: TokenScopeLookup | undefined): Promise<Pick<RestRequest['principal'], 'tier' | 'scope'> | RestReply> {
  if (request.principal.tier !== 'operator') return apiError(403, 'forbidden', 'as_token needs the admin API key', 'as_token');
  if (!TOKEN_NAME.test(name)) return apiError(400, 'invalid_body', 'Query parameter as_token: expected a token name (1-64 of A-Z a-z 0-9 _ . -)', 'as_token');
  let found: TokenScopeByName | undefined;
  try {
    found = await lookup?.(name);
  } catch {
    return apiError(503, 'state_unavailable', 'The agent tokens could not be read; no verdict was computed', 'as_token');
  }
  if (found === undefined || (!found.ok && found.code === 'unknown_token')) return apiError(404, 'not_found', `No agent token named ${name}`, 'as_token');
  if (!found.ok) return apiError(409, 'conflict', `Token ${name} is revoked: it can use no tool`, 'as_token');
  return { tier: 'agent', scope: found.scope };
}

/** The CLI marks itself with a `cli/<version>` User-Agent or X-Client header (surface `cli`). */
function isCliClient(request: RestRequest): boolean {
  const { headers } = request;
  return isCliMark(headers['user-agent']) || isCliMark(headers['x-client']);
}

function isCliMark(value: string | string[] | undefined): boolean {
  return typeof value === 'string' && value.startsWith('cli/');
}
