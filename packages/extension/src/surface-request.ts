import type { Policy, RequestedTool } from '@mcpproxy/evaluator';
import { checkValue, formatIssues, MAX_TOOLS, REST_MAX_TOOLS, strictValidators, type Surface, type ValidationIssue } from '@mcpproxy/schema';

/**
 * The request rules of every surface of the preflight, in one place: the in-band surfaces of this
 * extension and the gateway's REST API (which imports them) validate and cap the same way.
 */

/** A surface's request reduced to what the evaluator and the seam need (entries in raw order, not yet deduplicated). */
export interface SurfaceRequest {
  readonly entries: readonly RequestedTool[];
  readonly policy?: Policy;
  /** REST only. */
  readonly profile?: string;
  /** REST only. */
  readonly waitMs?: number;
}

/** Why a request is refused before anything is evaluated: its schema, an empty list, a list over the cap. */
export type SurfaceRequestErrorCode = 'invalid_request' | 'no_tools' | 'too_many_tools';

export interface SurfaceRequestError {
  readonly code: SurfaceRequestErrorCode;
  readonly message: string;
  readonly path: string;
  readonly issues?: readonly ValidationIssue[];
  readonly count?: number;
  readonly max?: number;
}

export interface SurfaceRequestOptions {
  /** mcp-rider: read the rider as a PinnedRequestRider (the `pins` experiment, docs/decisions/0003). */
  readonly pins?: boolean;
}

export type ParsedSurfaceRequest = { readonly ok: true; readonly request: SurfaceRequest } | { readonly ok: false; readonly error: SurfaceRequestError };

/** The raw form of mcp-resolve: the one tool name of a tools/resolve request, and the annotation policy of a negotiated rider. */
export interface ResolveRequest {
  readonly name: string;
  readonly policy?: Policy;
}

/** The member holding the tool list and its cap, per surface (the cap counts the raw array, before dedup). */
const LISTS: Readonly<Record<Exclude<Surface, 'mcp-resolve'>, { readonly key: string; readonly max: number }>> = {
  rest: { key: 'tools', max: REST_MAX_TOOLS },
  cli: { key: 'tools', max: REST_MAX_TOOLS },
  'mcp-rider': { key: 'tools', max: MAX_TOOLS },
  'mcp-check': { key: 'tool_ids', max: MAX_TOOLS },
};

/**
 * Validates the raw request with the strict generated validator of its surface (RestPreflightRequest
 * for rest and cli, RequestRider for mcp-rider, CheckModeArguments for mcp-check, ToolId and Policy for
 * mcp-resolve). Count errors are checked first so a 5,000-entry list is one clear error,
 * not 5,000 schema issues.
 */
export function parseSurfaceRequest(surface: Surface, raw: unknown, options: SurfaceRequestOptions = {}): ParsedSurfaceRequest {
  if (surface === 'mcp-resolve') return parseResolve(raw);
  const list = LISTS[surface];
  const counted = countError(raw, list.key, list.max);
  if (counted !== undefined) return { ok: false, error: counted };
  switch (surface) {
    case 'rest':
    case 'cli': {
      const checked = checkValue(strictValidators.RestPreflightRequest, raw);
      if (!checked.ok) return invalid(checked.issues);
      const body = checked.value;
      return ok({
        entries: body.tools.map(pinnedEntry),
        ...(body.policy === undefined ? {} : { policy: body.policy }),
        ...(body.profile === undefined ? {} : { profile: body.profile }),
        ...(body.wait_ms === undefined ? {} : { waitMs: body.wait_ms }),
      });
    }
    case 'mcp-rider': {
      if (options.pins === true) return parsePinnedRider(raw);
      const checked = checkValue(strictValidators.RequestRider, raw);
      if (!checked.ok) return invalid(checked.issues);
      const rider = checked.value;
      return ok({ entries: rider.tools.map((ref) => ({ id: ref.id })), ...(rider.policy === undefined ? {} : { policy: rider.policy }) });
    }
    case 'mcp-check': {
      const checked = checkValue(strictValidators.CheckModeArguments, raw);
      if (!checked.ok) return invalid(checked.issues);
      const args = checked.value;
      return ok({ entries: args.tool_ids.map((id) => ({ id })), ...(args.filters === undefined ? {} : { policy: args.filters }) });
    }
  }
}

/** The `pins` experiment: a rider whose entries may carry pin_hash, read as REST reads its pins. */
function parsePinnedRider(raw: unknown): ParsedSurfaceRequest {
  const checked = checkValue(strictValidators.PinnedRequestRider, raw);
  if (!checked.ok) return invalid(checked.issues);
  const rider = checked.value;
  return ok({
    entries: rider.tools.map(pinnedEntry),
    ...(rider.policy === undefined ? {} : { policy: rider.policy }),
  });
}

function parseResolve(raw: unknown): ParsedSurfaceRequest {
  // The batch_resolve experiment (docs/decisions/0004): { names, policy? }, built only by the extension.
  if (isRecord(raw) && Object.hasOwn(raw, 'names') && !Object.hasOwn(raw, 'name')) return parseResolveBatch(raw);
  if (!isRecord(raw) || typeof raw['name'] !== 'string') {
    return invalid([{ path: isRecord(raw) ? '/name' : '', rule: isRecord(raw) ? 'required' : 'type', message: 'expected { name: string, policy?: Policy }' }]);
  }
  const extra = Object.keys(raw).find((key) => key !== 'name' && key !== 'policy');
  if (extra !== undefined) return invalid([{ path: `/${extra}`, rule: 'additionalProperties', message: 'must NOT have additional properties' }]);
  const checked = checkValue(strictValidators.ToolId, raw['name']);
  if (!checked.ok) return invalid(checked.issues.map((issue) => ({ ...issue, path: `/name${issue.path}` })));
  if (!('policy' in raw)) return ok({ entries: [{ id: checked.value }] });
  const policy = checkValue(strictValidators.Policy, raw['policy']);
  if (!policy.ok) return invalid(policy.issues.map((issue) => ({ ...issue, path: `/policy${issue.path}` })));
  return ok({ entries: [{ id: checked.value }], policy: policy.value });
}

function parseResolveBatch(raw: Readonly<Record<string, unknown>>): ParsedSurfaceRequest {
  const names = raw['names'];
  if (!Array.isArray(names)) return invalid([{ path: '/names', rule: 'type', message: 'must be array' }]);
  const counted = countError(raw, 'names', MAX_TOOLS);
  if (counted !== undefined) return { ok: false, error: counted };
  const extra = Object.keys(raw).find((key) => key !== 'names' && key !== 'policy');
  if (extra !== undefined) return invalid([{ path: `/${extra}`, rule: 'additionalProperties', message: 'must NOT have additional properties' }]);
  const entries: RequestedTool[] = [];
  for (const [i, name] of names.entries()) {
    const checked = checkValue(strictValidators.ToolId, name);
    if (!checked.ok) return invalid(checked.issues.map((issue) => ({ ...issue, path: `/names/${i}${issue.path}` })));
    entries.push({ id: checked.value });
  }
  if (!Object.hasOwn(raw, 'policy')) return ok({ entries });
  const policy = checkValue(strictValidators.Policy, raw['policy']);
  if (!policy.ok) return invalid(policy.issues.map((issue) => ({ ...issue, path: `/policy${issue.path}` })));
  return ok({ entries, policy: policy.value });
}

function countError(raw: unknown, key: string, max: number): SurfaceRequestError | undefined {
  if (!isRecord(raw)) return undefined;
  const list = raw[key];
  if (!Array.isArray(list)) return undefined;
  if (list.length === 0) return { code: 'no_tools', message: `provide 1-${max} tools in ${key}`, path: `/${key}`, count: 0, max };
  if (list.length > max) {
    return { code: 'too_many_tools', message: `too many tools in ${key}: ${list.length} (max ${max})`, path: `/${key}`, count: list.length, max };
  }
  return undefined;
}

/** A REST or pinned-rider entry as the evaluator reads it: pin_hash becomes the pin. */
function pinnedEntry(ref: { readonly id: string; readonly pin_hash?: string }): RequestedTool {
  return ref.pin_hash === undefined ? { id: ref.id } : { id: ref.id, pin: ref.pin_hash };
}

function invalid(issues: readonly ValidationIssue[]): ParsedSurfaceRequest {
  return { ok: false, error: { code: 'invalid_request', message: `invalid request: ${formatIssues(issues.slice(0, 3)).replace(/\n/g, '; ')}`, path: issues[0]?.path ?? '', issues } };
}

function ok(request: SurfaceRequest): ParsedSurfaceRequest {
  return { ok: true, request };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
