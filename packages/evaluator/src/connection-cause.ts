import { REASONS, type Action } from '@mcpproxy/schema';
import { codePointLength } from './code-points.js';
import type { ConnectionGate } from './connection-gate.js';
import type { WordingValues } from './fill-wording.js';
import type { ServerConnection } from './snapshot.js';
import type { UnavailableCause } from './unavailable-result.js';

/** An upstream error message is shown at most this long, so the detail stays within the wire's Text limit. */
export const LAST_ERROR_LIMIT = 1000;
const NO_ERROR = 'no error recorded';

export function shownLastError(lastError: string | undefined): string {
  if (lastError === undefined || lastError === '') return NO_ERROR;
  if (codePointLength(lastError) <= LAST_ERROR_LIMIT) return lastError;
  return `${Array.from(lastError).slice(0, LAST_ERROR_LIMIT - 1).join('')}…`;
}

function diagnosticAction(connection: ServerConnection): Action | undefined {
  const suggested = connection.diagnostic_action;
  const allowed: readonly Action[] = REASONS.server_unhealthy.diagnostic_actions;
  return suggested !== undefined && allowed.includes(suggested) ? suggested : undefined;
}

/** Gates 11-13 as a cause: server_unhealthy carries the last error and the diagnosed action. */
export function connectionCause(gate: ConnectionGate, connection: ServerConnection, values: WordingValues): UnavailableCause {
  if (gate !== 'server_unhealthy') return { code: gate, values };
  const action = diagnosticAction(connection);
  const filled: WordingValues = { ...values, last_error: shownLastError(connection.last_error) };
  // The remediation follows the action: a wording variant named after it, when the registry has one.
  return action === undefined ? { code: gate, values: filled } : { code: gate, values: filled, action, variant: action };
}
