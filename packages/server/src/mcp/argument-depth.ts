import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';

/**
 * The deepest nesting of tools/call arguments the gateway forwards (the arguments object is level 1).
 * Real arguments nest a few levels, JSON Schema documents a few dozen at the most; 64 leaves room for
 * both, and stays far below the thousands of levels at which a recursive walker (JSON.stringify when
 * the call is sent to the upstream, the SDK's own serialisers) overflows the stack.
 */
export const MAX_ARGUMENT_DEPTH = 64;

/** Whether `value` nests containers (objects, arrays) deeper than `limit` levels. Iterative: any depth is safe. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: { readonly value: unknown; readonly depth: number }[] = [{ value, depth: 1 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    if (typeof next.value !== 'object' || next.value === null) continue;
    if (next.depth > limit) return true;
    for (const member of Array.isArray(next.value) ? next.value : Object.values(next.value)) {
      if (typeof member === 'object' && member !== null) stack.push({ value: member, depth: next.depth + 1 });
    }
  }
  return false;
}

/** The invalid-params error for tools/call arguments nested past MAX_ARGUMENT_DEPTH; undefined when they are not. */
export function argumentDepthError(args: unknown): ProtocolError | undefined {
  if (!nestsDeeperThan(args, MAX_ARGUMENT_DEPTH)) return undefined;
  return new ProtocolError(
    ProtocolErrorCode.InvalidParams,
    `Invalid params: params.arguments nests deeper than ${MAX_ARGUMENT_DEPTH} levels, the gateway's limit for tool arguments; nothing was sent to the upstream`,
  );
}
