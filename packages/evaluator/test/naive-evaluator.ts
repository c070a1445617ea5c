// A deliberately naive reference evaluator, written straight from preflight-facts.md sections
// 1-6 and the evaluator brief: straight-line gates, brute-force suggestions (full Levenshtein
// over every candidate), its own copy of the table's retryable and default action. Only the
// wording text comes from the registry (it is defined nowhere else). The property tests compare
// the real evaluator with it.
import { REASONS } from '@mcpproxy/schema';
import type { GatewaySnapshot, PreflightRequest, EvaluationContext, ServerSnapshot, ToolState } from '../src/index.js';

type Result = Record<string, unknown>;

// preflight-facts.md section 1: retryable and default action (undefined = no action).
const TABLE: Record<string, { retryable: boolean; action: string | undefined; verdict: string }> = {
  server_initializing: { retryable: true, action: undefined, verdict: 'degraded_retryable' },
  server_unhealthy: { retryable: true, action: 'view_logs', verdict: 'degraded_retryable' },
  server_disabled: { retryable: false, action: 'enable', verdict: 'blocked' },
  server_quarantined: { retryable: false, action: 'approve', verdict: 'blocked' },
  tool_pending_approval: { retryable: false, action: 'approve', verdict: 'blocked' },
  tool_changed: { retryable: false, action: 'approve', verdict: 'blocked' },
  tool_blocked_by_user: { retryable: false, action: 'enable', verdict: 'blocked' },
  oauth_required: { retryable: false, action: 'login', verdict: 'blocked' },
  hash_mismatch: { retryable: false, action: 'configure', verdict: 'blocked' },
  server_not_in_scope: { retryable: false, action: 'configure', verdict: 'blocked' },
  tool_denied_by_config: { retryable: false, action: 'configure', verdict: 'blocked' },
  missing_annotation: { retryable: false, action: 'configure', verdict: 'blocked' },
  policy_filtered: { retryable: false, action: undefined, verdict: 'blocked' },
  not_found: { retryable: false, action: 'configure', verdict: 'unknown_ids' },
  server_not_configured: { retryable: false, action: 'configure', verdict: 'unknown_ids' },
  // settings version 2: an upstream that said it is overloaded (retryable, no action)
  server_saturated: { retryable: true, action: undefined, verdict: 'degraded_retryable' },
};
export const NAIVE_TABLE = TABLE;
export const NAIVE_VERDICT_ORDER = ['ready', 'degraded_retryable', 'blocked', 'unknown_ids'];

function wording(code: string, variant: string | undefined, part: 'detail' | 'remediation'): string {
  const entry = (REASONS as Record<string, { wording: { detail: string; remediation: string; variants?: Record<string, { detail?: string; remediation?: string }> } }>)[code]!;
  const fromVariant = variant === undefined ? undefined : entry.wording.variants?.[variant]?.[part];
  return fromVariant ?? entry.wording[part];
}

function fill(template: string, values: Record<string, string>): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    const open = template.indexOf('{', i);
    if (open < 0) break;
    const close = template.indexOf('}', open);
    if (close < 0) break;
    const name = template.slice(open + 1, close);
    out += template.slice(i, open);
    if (/^[a-z_]+$/.test(name) && Object.prototype.hasOwnProperty.call(values, name)) {
      out += values[name];
      i = close + 1;
    } else {
      out += '{';
      i = open + 1;
    }
  }
  return out + template.slice(i);
}

function fail(id: string, code: string, values: Record<string, string>, extra: { variant?: string; action?: string; suggestions?: string[] } = {}): Result {
  const row = TABLE[code]!;
  const result: Result = { id, status: 'unavailable', reason: code, retryable: row.retryable };
  const action = extra.action ?? row.action;
  if (action !== undefined) result['action'] = action;
  result['detail'] = fill(wording(code, extra.variant, 'detail'), values);
  result['remediation'] = fill(wording(code, extra.variant, 'remediation'), values);
  if (extra.suggestions !== undefined && extra.suggestions.length > 0) result['did_you_mean'] = extra.suggestions;
  return result;
}

function levenshtein(a: string[], b: string[]): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([]);
    for (let j = 0; j <= b.length; j++) {
      if (i === 0) rows[i]![j] = j;
      else if (j === 0) rows[i]![j] = i;
      else {
        rows[i]![j] = Math.min(
          rows[i - 1]![j]! + 1,
          rows[i]![j - 1]! + 1,
          rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
        );
      }
    }
  }
  return rows[a.length]![b.length]!;
}

function startsWithRunes(long: string[], short: string[]): boolean {
  if (short.length > long.length) return false;
  for (let i = 0; i < short.length; i++) if (long[i] !== short[i]) return false;
  return true;
}

export function naiveInScope(snapshot: GatewaySnapshot, context: EvaluationContext, name: string): boolean {
  const scope = context.scope;
  if (scope.allowed_servers !== '*' && scope.allowed_servers.indexOf(name) === -1) return false;
  for (const profile of [scope.profile_pin, scope.active_profile]) {
    if (profile === undefined) continue;
    const members = snapshot.profiles.get(profile);
    if (members === undefined || members.indexOf(name) === -1) return false;
  }
  return true;
}

function naiveGate(server: ServerSnapshot, toolName: string, quarantine: boolean): string | undefined {
  if (server.enabled_tools.length > 0 && server.enabled_tools.indexOf(toolName) === -1) return 'tool_denied_by_config';
  if (server.disabled_tools.indexOf(toolName) !== -1) return 'tool_denied_by_config';
  const record = server.approvals.get(toolName);
  if (record && record.user_disabled) return 'tool_blocked_by_user';
  if (record && quarantine && !server.auto_approve_tool_changes && record.status === 'changed') return 'tool_changed';
  if (record && quarantine && !server.auto_approve_tool_changes && record.status === 'pending') return 'tool_pending_approval';
  return undefined;
}

export function naiveSuggestions(snapshot: GatewaySnapshot, context: EvaluationContext, query: string): string[] {
  const names = new Set<string>();
  for (const [serverName, server] of snapshot.servers) {
    if (!server.enabled || server.quarantined || !naiveInScope(snapshot, context, serverName)) continue;
    for (const toolName of server.tools.keys()) {
      if (naiveGate(server, toolName, snapshot.tool_quarantine) === undefined) names.add(`${serverName}:${toolName}`);
    }
  }
  return naiveRank(names, query);
}

/** Brute force: every name, prefix either way or distance <= 2, never the query; prefix, distance, name; three. */
export function naiveRank(names: Iterable<string>, query: string): string[] {
  const q = Array.from(query);
  const ranked: { prefix: boolean; distance: number; name: string }[] = [];
  for (const name of names) {
    if (name === query) continue;
    const n = Array.from(name);
    const prefix = startsWithRunes(n, q) || startsWithRunes(q, n);
    const distance = levenshtein(q, n);
    if (prefix || distance <= 2) ranked.push({ prefix, distance, name });
  }
  ranked.sort((a, b) => {
    if (a.prefix !== b.prefix) return a.prefix ? -1 : 1;
    if (a.distance !== b.distance) return a.distance - b.distance;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
  return ranked.slice(0, 3).map((entry) => entry.name);
}

const PIN = /^sha256\/v([1-9][0-9]*):([0-9a-f]{64})$/;
const WIRE_HASH = /^sha256\/v[1-9][0-9]{0,8}:[0-9a-f]{64}$/;

function shownError(lastError: string | undefined): string {
  if (!lastError) return 'no error recorded';
  const runes = Array.from(lastError);
  return runes.length <= 1000 ? lastError : runes.slice(0, 999).join('') + '…';
}

export function naiveEvaluateOne(snapshot: GatewaySnapshot, id: string, pin: string | undefined, policy: PreflightRequest['policy'], context: EvaluationContext): Result {
  const colon = id.indexOf(':');
  const serverName = colon === -1 ? '' : id.slice(0, colon).trim();
  const toolName = colon === -1 ? '' : id.slice(colon + 1).trim();
  if (serverName === '' || toolName === '') return fail(id, 'not_found', {}, { variant: 'malformed' });
  const canonical = serverName + ':' + toolName;
  const values: Record<string, string> = { id: canonical, server: serverName, tool: toolName };
  const notFound = (): Result => fail(id, 'not_found', values, { suggestions: naiveSuggestions(snapshot, context, canonical) });
  const agent = context.tier === 'agent';

  const server = snapshot.servers.get(serverName);
  if (!server) return agent ? notFound() : fail(id, 'server_not_configured', values);
  if (!naiveInScope(snapshot, context, serverName)) return agent ? notFound() : fail(id, 'server_not_in_scope', values);
  if (server.quarantined) return fail(id, 'server_quarantined', values);
  if (!server.enabled) return fail(id, 'server_disabled', values);

  const state = server.connection.state;
  const connectionVerdict = (): Result | undefined => {
    if (state === 'ready') return undefined;
    if (state === 'pending_auth') return fail(id, 'oauth_required', values);
    if (state === 'error' || state === 'disconnected') {
      const diagnosed = server.connection.diagnostic_action;
      const withError = { ...values, last_error: shownError(server.connection.last_error) };
      if (diagnosed === 'restart' || diagnosed === 'login' || diagnosed === 'view_logs') {
        return fail(id, 'server_unhealthy', withError, { action: diagnosed, variant: diagnosed });
      }
      return fail(id, 'server_unhealthy', withError);
    }
    return fail(id, 'server_initializing', values);
  };

  const indexed = server.tools.get(toolName);
  const record = server.approvals.get(toolName);
  // Gate 5: on a ready server only the current listing makes a tool exist; on one that is not
  // ready an approval record does too, and the connection answers for a tool with neither.
  if (!indexed && state === 'ready') return server.invalid_tools?.has(toolName) ? fail(id, 'not_found', values, { variant: 'invalid_definition' }) : notFound();
  if (!indexed && !record) return connectionVerdict() ?? notFound();

  const gate = naiveGate(server, toolName, snapshot.tool_quarantine);
  if (gate) return fail(id, gate, values);

  let stored: string | undefined;
  if (indexed) stored = indexed.hash;
  else if (record && record.current_hash !== undefined) stored = record.current_hash;
  else if (record) stored = record.approved_hash;

  if (pin !== undefined) {
    const pinned = PIN.exec(pin);
    const current = stored === undefined ? null : PIN.exec(stored);
    if (!pinned) return fail(id, 'hash_mismatch', values, { variant: 'unparseable' });
    if (!current) return fail(id, 'hash_mismatch', values, { variant: 'no_stored_hash' });
    if (pinned[1] !== current[1]) {
      return fail(id, 'hash_mismatch', { ...values, pinned_version: pinned[1]!, current_version: current[1]! }, { variant: 'hash_schema_version' });
    }
    if (pinned[2] !== current[2]) {
      if (agent) return fail(id, 'hash_mismatch', values);
      return fail(id, 'hash_mismatch', { ...values, pinned: pin, current: stored! }, { variant: 'differs_operator' });
    }
  }

  const connection = connectionVerdict();
  if (connection) return connection;

  // Only a ready connection gets this far; the upstream said it is overloaded.
  const saturation = server.connection.saturation;
  if (saturation) {
    const said = { ...values, overload_signal: saturation.signal };
    if (saturation.retry_after_s === undefined) return fail(id, 'server_saturated', said);
    return fail(id, 'server_saturated', { ...said, retry_after: String(saturation.retry_after_s) }, { variant: 'retry_after' });
  }

  const hints = indexed?.annotations ?? {};
  const exclude = (rule: string, annotation: string, value: unknown, wanted: boolean): Result | undefined => {
    if (value !== true && value !== false) return fail(id, 'missing_annotation', { ...values, annotation, policy_rule: rule });
    if (value !== wanted) return fail(id, 'policy_filtered', { ...values, annotation, policy_rule: rule, annotation_value: String(value) });
    return undefined;
  };
  if (policy?.read_only_only === true) {
    const out = exclude('read_only_only', 'readOnlyHint', hints.readOnlyHint, true);
    if (out) return out;
  }
  if (policy?.exclude_destructive === true && hints.readOnlyHint !== true) {
    const out = exclude('exclude_destructive', 'destructiveHint', hints.destructiveHint, false);
    if (out) return out;
  }
  if (policy?.exclude_open_world === true) {
    const out = exclude('exclude_open_world', 'openWorldHint', hints.openWorldHint, false);
    if (out) return out;
  }

  const ready: Result = { id, status: 'ready' };
  if (!agent && stored !== undefined && WIRE_HASH.test(stored)) ready['hash'] = stored;
  return ready;
}

export function naiveEvaluate(snapshot: GatewaySnapshot, request: PreflightRequest, context: EvaluationContext): { verdict: string; tools: Result[] } {
  const tools = request.tools.map((entry) => naiveEvaluateOne(snapshot, entry.id, entry.pin, request.policy, context));
  let worst = 0;
  for (const result of tools) {
    const verdict = result['status'] === 'ready' ? 'ready' : (TABLE[result['reason'] as string]?.verdict ?? 'blocked');
    worst = Math.max(worst, NAIVE_VERDICT_ORDER.indexOf(verdict));
  }
  return { verdict: NAIVE_VERDICT_ORDER[worst]!, tools };
}

/**
 * A server that is not a gateway (tool-states.ts), straight from its rules: the first state of a
 * trimmed name; not listed and no reason = not_found (unlisted wording, suggestions from the listed
 * names); the author's reason with the author's words; the annotation policy; ready.
 */
export function naiveToolStates(states: readonly ToolState[], request: PreflightRequest): { verdict: string; tools: Result[] } {
  const trim = (name: string): string => {
    const colon = name.indexOf(':');
    return colon === -1 ? name.trim() : `${name.slice(0, colon).trim()}:${name.slice(colon + 1).trim()}`;
  };
  const tools = request.tools.map(({ id }): Result => {
    const name = trim(id);
    const values = { id: name, tool: name };
    const state = states.find((candidate) => trim(candidate.name) === name);
    if (state === undefined || (!state.listed && state.unavailable === undefined)) {
      // The first state of a name is the name's state: a later one listing it does not count.
      const listed = states.filter((candidate, at) => candidate.listed && states.findIndex((other) => trim(other.name) === trim(candidate.name)) === at).map((candidate) => trim(candidate.name));
      return fail(id, 'not_found', values, { variant: 'unlisted', suggestions: name === '' ? [] : naiveRank(new Set(listed), name) });
    }
    const said = state.unavailable;
    if (said !== undefined) {
      const row = TABLE[said.reason]!;
      const result: Result = { id, status: 'unavailable', reason: said.reason, retryable: row.retryable };
      const action = said.action ?? row.action;
      if (action !== undefined) result['action'] = action;
      if (said.detail !== undefined) result['detail'] = said.detail;
      if (said.remediation !== undefined) result['remediation'] = said.remediation;
      return result;
    }
    const hints = state.annotations ?? {};
    const policy = request.policy;
    const exclude = (rule: string, annotation: string, value: unknown, wanted: boolean): Result | undefined => {
      if (value !== true && value !== false) return fail(id, 'missing_annotation', { ...values, annotation, policy_rule: rule });
      if (value !== wanted) return fail(id, 'policy_filtered', { ...values, annotation, policy_rule: rule, annotation_value: String(value) });
      return undefined;
    };
    if (policy?.read_only_only === true) {
      const out = exclude('read_only_only', 'readOnlyHint', hints.readOnlyHint, true);
      if (out) return out;
    }
    if (policy?.exclude_destructive === true && hints.readOnlyHint !== true) {
      const out = exclude('exclude_destructive', 'destructiveHint', hints.destructiveHint, false);
      if (out) return out;
    }
    if (policy?.exclude_open_world === true) {
      const out = exclude('exclude_open_world', 'openWorldHint', hints.openWorldHint, false);
      if (out) return out;
    }
    return { id, status: 'ready' };
  });
  let worst = 0;
  for (const result of tools) {
    const verdict = result['status'] === 'ready' ? 'ready' : TABLE[result['reason'] as string]!.verdict;
    worst = Math.max(worst, NAIVE_VERDICT_ORDER.indexOf(verdict));
  }
  return { verdict: NAIVE_VERDICT_ORDER[worst]!, tools };
}
