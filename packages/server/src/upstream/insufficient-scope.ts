import { InsufficientScopeError } from '@modelcontextprotocol/client';

/**
 * The scope an upstream's 403 `insufficient_scope` asked for (RFC 6750 §3.1), when `cause` is that
 * answer: the SDK throws it on its own or wrapped, depending on where in the transport it came.
 * Undefined for any other failure; '' when the challenge named no scope.
 */
export function insufficientScope(cause: unknown): string | undefined {
  for (let error = cause, depth = 0; error !== undefined && error !== null && depth < 5; depth += 1) {
    if (error instanceof InsufficientScopeError) return error.requiredScope ?? '';
    error = (error as { cause?: unknown }).cause;
  }
  return undefined;
}
