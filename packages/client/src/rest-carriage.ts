import { checkRestPreflightResponse, REST_MAX_TOOLS, type Policy, type RestPreflightRequest } from '@mcpproxy/schema';
import type { CarriageAnswer } from './carriage-answer.js';
import type { RestCarriageOptions } from './preflight-result.js';
import { messageOf } from './message-of.js';

/** POST /api/v1/preflight on the gateway beside the MCP endpoint. */
export async function restPreflight(rest: RestCarriageOptions, ids: readonly string[], policy: Policy | undefined, options: { signal?: AbortSignal; timeoutMs: number }): Promise<CarriageAnswer> {
  if (ids.length > REST_MAX_TOOLS) return { ok: false, reason: `REST takes at most ${REST_MAX_TOOLS} ids (${ids.length} given)` };
  let endpoint: string;
  try {
    const url = new URL(rest.url);
    endpoint = `${url.origin}${url.pathname.replace(/\/+$/, '').replace(/\/mcp(\/p\/[^/]+)?$/, '')}/api/v1/preflight`;
  } catch {
    return { ok: false, reason: `not a URL: ${JSON.stringify(rest.url)}` };
  }
  const body: RestPreflightRequest = {
    tools: ids.map((id) => ({ id })) as unknown as RestPreflightRequest['tools'],
    ...(policy === undefined ? {} : { policy }),
    ...(rest.profile === undefined ? {} : { profile: rest.profile }),
  };
  const signals = [AbortSignal.timeout(options.timeoutMs), ...(options.signal === undefined ? [] : [options.signal])];
  let response: Response;
  try {
    response = await (rest.fetch ?? fetch)(endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...(rest.token === undefined ? {} : { authorization: `Bearer ${rest.token}` }) },
      body: JSON.stringify(body),
      signal: AbortSignal.any(signals),
    });
  } catch (error) {
    return { ok: false, reason: `POST ${endpoint} failed: ${messageOf(error)}` };
  }
  const text = await response.text().catch(() => '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, reason: `POST ${endpoint} answered ${response.status} without JSON` };
  }
  if (response.status !== 200) {
    const said = typeof parsed === 'object' && parsed !== null && typeof (parsed as { message?: unknown }).message === 'string' ? (parsed as { message: string; code?: string }) : undefined;
    return { ok: false, reason: `POST ${endpoint} answered ${response.status}${said === undefined ? '' : ` (${said.code ?? 'error'}: ${said.message})`}` };
  }
  const checked = checkRestPreflightResponse(parsed);
  if (!checked.ok) return { ok: false, reason: `POST ${endpoint} answered an invalid preflight response: ${checked.issues.map((i) => `${i.path || '/'} ${i.message}`).join('; ')}` };
  const { verdict, checked_at, request_id, tools } = checked.value;
  return { ok: true, answer: { verdict, checked_at, request_id, tools } };
}
