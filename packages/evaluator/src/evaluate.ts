import { checkPolicy } from './check-policy.js';
import { classifyTool } from './classify-tool.js';
import { connectionCause } from './connection-cause.js';
import { connectionGate } from './connection-gate.js';
import { aggregateVerdict } from './aggregate-verdict.js';
import type { WordingValues } from './fill-wording.js';
import { parseToolId } from './parse-tool-id.js';
import { policyCause } from './policy-cause.js';
import { checkPin } from './pin-check.js';
import type { PreparedSnapshot } from './prepare-snapshot.js';
import { queryScratch, type QueryScratch } from './query-scratch.js';
import { querySuggestions } from './query-suggestions.js';
import type { EvaluationContext, Policy, PreflightRequest, RequestedTool } from './request.js';
import { isServerInScope, resolveScope } from './resolve-scope.js';
import { saturationCause } from './saturation-cause.js';
import type { Evaluation, ToolResult } from './result.js';
import { isWireToolHash } from './tool-hash.js';
import { unavailableResult, type UnavailableCause } from './unavailable-result.js';

interface Evaluator {
  readonly prepared: PreparedSnapshot;
  readonly context: EvaluationContext;
  readonly policy: Policy | undefined;
  /** Computed at most once per request, and only when a suggestion is needed. */
  visible(): ReadonlySet<string>;
  /** Suggestion working memory, shared by the request's IDs. */
  scratch(): QueryScratch;
}

function notFound(evaluator: Evaluator, id: string, canonical: string, values: WordingValues): ToolResult {
  return unavailableResult(id, { code: 'not_found', values }, querySuggestions(evaluator.prepared.suggestions, canonical, evaluator.visible(), evaluator.scratch()));
}

function evaluateOne(evaluator: Evaluator, requested: RequestedTool): ToolResult {
  const { snapshot } = evaluator.prepared;
  const { tier, scope } = evaluator.context;
  const id = requested.id;
  const parsed = parseToolId(id);
  if (!parsed.ok) return unavailableResult(id, { code: 'not_found', variant: 'malformed', values: {} });
  const { server: serverName, tool } = parsed;
  const canonical = `${serverName}:${tool}`;
  const values: WordingValues = { id: canonical, server: serverName, tool };
  // Gates 1-2. The agent tier must not learn which servers exist outside its scope, so both
  // collapse into the very not_found an unknown tool gets.
  const server = snapshot.servers.get(serverName);
  if (server === undefined) return tier === 'operator' ? unavailableResult(id, { code: 'server_not_configured', values }) : notFound(evaluator, id, canonical, values);
  if (!isServerInScope(snapshot, scope, serverName)) {
    return tier === 'operator' ? unavailableResult(id, { code: 'server_not_in_scope', values }) : notFound(evaluator, id, canonical, values);
  }
  if (server.quarantined) return unavailableResult(id, { code: 'server_quarantined', values });
  if (!server.enabled) return unavailableResult(id, { code: 'server_disabled', values });

  const indexed = server.tools.get(tool);
  const approval = server.approvals.get(tool);
  const connection = connectionGate(server.connection.state);
  // Gate 5. On a ready server the upstream's current listing alone decides: an approval record
  // of a tool it no longer lists would otherwise promise a call the upstream cannot serve. A
  // server that is not ready cannot tell whether the tool exists, so its connection verdict
  // answers instead of not_found, and a tool it listed before (an approval record) still exists.
  if (indexed === undefined && (connection === undefined || approval === undefined)) {
    if (connection !== undefined) return unavailableResult(id, connectionCause(connection, server.connection, values));
    // Listed, but not servable: say so rather than suggest look-alikes of a name that exists.
    if (server.invalid_tools?.has(tool) === true) return unavailableResult(id, { code: 'not_found', variant: 'invalid_definition', values });
    return notFound(evaluator, id, canonical, values);
  }
  const gate = classifyTool(server, tool, snapshot.tool_quarantine);
  if (gate !== undefined) return unavailableResult(id, { code: gate, values });
  const stored = indexed?.hash ?? approval?.current_hash ?? approval?.approved_hash;
  if (requested.pin !== undefined) {
    const mismatch = checkPin(requested.pin, stored, tier);
    if (mismatch !== undefined) {
      const cause: UnavailableCause = { code: 'hash_mismatch', values: { ...values, ...mismatch.values } };
      return unavailableResult(id, mismatch.variant === undefined ? cause : { ...cause, variant: mismatch.variant });
    }
  }
  if (connection !== undefined) return unavailableResult(id, connectionCause(connection, server.connection, values));
  // After the connection gates (it only means something on a ready connection), before the policy.
  const saturation = server.connection.saturation;
  if (saturation !== undefined) return unavailableResult(id, saturationCause(saturation, values));
  const exclusion = checkPolicy(indexed?.annotations, evaluator.policy);
  if (exclusion !== undefined) return unavailableResult(id, policyCause(exclusion, values));

  const ready: ToolResult = { id, status: 'ready' };
  if (tier === 'operator' && stored !== undefined && isWireToolHash(stored)) ready.hash = stored;
  return ready;
}

/**
 * One verdict per requested ID, in request order, and the set verdict. Pure: the same prepared
 * snapshot, request and context always give byte-identical output.
 */
export function evaluate(prepared: PreparedSnapshot, request: PreflightRequest, context: EvaluationContext): Evaluation {
  let visible: ReadonlySet<string> | undefined;
  let scratch: QueryScratch | undefined;
  const evaluator: Evaluator = {
    prepared,
    context,
    policy: request.policy,
    visible: () => (visible ??= resolveScope(prepared.snapshot, context.scope)),
    scratch: () => (scratch ??= queryScratch()),
  };
  const tools = request.tools.map((requested) => evaluateOne(evaluator, requested));
  return { verdict: aggregateVerdict(tools), tools };
}
