import { aggregateVerdict, evaluate, type Evaluation, type EvaluationContext, type PreflightRequest, type PreparedSnapshot, type ToolResult } from '@mcpproxy/evaluator';

/** Whether any entry of the request carries a pin (only a pinned rider, experiment `pins`, can). */
export function hasPins(request: PreflightRequest): boolean {
  return request.tools.some((tool) => tool.pin !== undefined);
}

/**
 * Evaluation of in-band pins (docs/decisions/0003-in-band-hash-pinning.md): every gate but the pin
 * decides first, and a pin is compared only for a tool that is ready without it. A ready tool is one
 * this caller is served right now, in its own scope, so a pin is only ever compared with a
 * definition the caller can read (and hash) itself: for a quarantined, pending, changed, disabled,
 * denied, out-of-scope or not-connected tool the answer is the same whatever the pin says, and
 * guessing pins teaches nothing. (REST compares the pin before the connection gates, gate 10.)
 */
export function evaluatePinsLast(prepared: PreparedSnapshot, request: PreflightRequest, context: EvaluationContext): Evaluation {
  const unpinned = evaluate(prepared, { ...request, tools: request.tools.map(({ id }) => ({ id })) }, context);
  const tools = unpinned.tools.map((result, i): ToolResult => {
    const requested = request.tools[i];
    if (result.status !== 'ready' || requested?.pin === undefined) return result;
    // Every other gate passed on this same snapshot: the answer is ready or hash_mismatch.
    return evaluate(prepared, { ...request, tools: [requested] }, context).tools[0] ?? result;
  });
  return { verdict: aggregateVerdict(tools), tools };
}
