// The preflight of a server that is not a gateway: its own tools, as it lists them, and why any of
// them cannot be used right now. Same request, result and verdict as `evaluate`; IDs are the
// server's own tool names (no `server:` prefix), compared by their trimmed form.
import { REASONS, type Action, type ReasonCode, type ReasonEntry } from '@mcpproxy/schema';
import { aggregateVerdict } from './aggregate-verdict.js';
import { checkPolicy } from './check-policy.js';
import type { WordingValues } from './fill-wording.js';
import { toolIdKey } from './parse-tool-id.js';
import { policyCause } from './policy-cause.js';
import { queryScratch, type QueryScratch } from './query-scratch.js';
import { querySuggestions } from './query-suggestions.js';
import type { PreflightRequest, RequestedTool } from './request.js';
import type { Evaluation, ToolResult } from './result.js';
import type { ToolAnnotations } from './snapshot.js';
import { buildNameSuggestionIndex, type SuggestionIndex } from './suggestion-index.js';
import { unavailableResult } from './unavailable-result.js';

/** Why one of a server's own tools cannot be used right now, in the words of the server's author. */
export interface ToolUnavailability {
  readonly reason: ReasonCode;
  /** In place of the code's default action: one of the code's diagnostic actions (server_unhealthy's). */
  readonly action?: Action;
  readonly detail?: string;
  readonly remediation?: string;
}

/** One tool of the server: whether its tools/list lists it, its annotations there, and why it is unavailable. */
export interface ToolState {
  readonly name: string;
  readonly listed: boolean;
  readonly annotations?: ToolAnnotations;
  readonly unavailable?: ToolUnavailability;
}

/** The tool states of one moment, indexed for evaluation. */
export interface PreparedToolStates {
  /** By trimmed name; the first state of a name wins. */
  readonly byName: ReadonlyMap<string, ToolState>;
  /** did_you_mean candidates (the listed names), built on the first not_found. */
  suggestions(): SuggestionIndex;
}

/** The one owner every candidate name of a server has (see buildNameSuggestionIndex). */
const VISIBLE: ReadonlySet<string> = new Set(['']);

export function prepareToolStates(states: Iterable<ToolState>): PreparedToolStates {
  const byName = new Map<string, ToolState>();
  for (const state of states) {
    const key = toolIdKey(state.name);
    if (!byName.has(key)) byName.set(key, state);
  }
  let index: SuggestionIndex | undefined;
  return {
    byName,
    suggestions: () => (index ??= buildNameSuggestionIndex([...byName.values()].filter((state) => state.listed).map((state) => toolIdKey(state.name)))),
  };
}

/**
 * One verdict per requested ID, in request order, and the set verdict. Per ID, the first that holds:
 * not_found (neither listed nor said unavailable; did_you_mean from the listed names, none for a
 * blank ID), the author's reason, the annotation policy on the listed annotations, ready. A tool the server does not list
 * but says why it is unavailable keeps that reason: it exists, it is just not served right now.
 */
export function evaluateToolStates(prepared: PreparedToolStates, request: PreflightRequest): Evaluation {
  let scratch: QueryScratch | undefined;
  const tools = request.tools.map((requested) => evaluateOne(prepared, requested, request, () => (scratch ??= queryScratch())));
  return { verdict: aggregateVerdict(tools), tools };
}

function evaluateOne(prepared: PreparedToolStates, requested: RequestedTool, request: PreflightRequest, scratch: () => QueryScratch): ToolResult {
  const id = requested.id;
  const name = toolIdKey(id);
  const values: WordingValues = { id: name, tool: name };
  const state = prepared.byName.get(name);
  if (state === undefined || (!state.listed && state.unavailable === undefined)) {
    // A blank ID is no near miss of anything (every name would have it as a prefix).
    const suggestions = name === '' ? undefined : querySuggestions(prepared.suggestions(), name, VISIBLE, scratch());
    return unavailableResult(id, { code: 'not_found', variant: 'unlisted', values }, suggestions);
  }
  if (state.unavailable !== undefined) return authoredResult(id, state.unavailable);
  const exclusion = checkPolicy(state.annotations, request.policy);
  if (exclusion !== undefined) return unavailableResult(id, policyCause(exclusion, values));
  return { id, status: 'ready' };
}

/** The author's reason: class, retryable and default action from the registry; the words are the author's. */
function authoredResult(id: string, unavailable: ToolUnavailability): ToolResult {
  const entry: ReasonEntry = REASONS[unavailable.reason];
  const result: ToolResult = { id, status: 'unavailable', reason: unavailable.reason, retryable: entry.retryable };
  const action = unavailable.action ?? entry.action;
  if (action !== undefined) result.action = action;
  if (unavailable.detail !== undefined) result.detail = unavailable.detail;
  if (unavailable.remediation !== undefined) result.remediation = unavailable.remediation;
  return result;
}
