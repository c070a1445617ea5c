import { RuntimeError } from '../state/runtime-error.js';
import { apiError } from './api-error.js';
import type { RestReply } from './rest-endpoint.js';

/**
 * Runs an operator action on the runtime and maps its failure: what does not exist is 404, what
 * the current state forbids is 409, and anything else (the store refused the write, the gateway is
 * shutting down) is 503: the change was not made.
 */
export async function runRuntimeAction(action: () => Promise<void>, path: string): Promise<RestReply | undefined> {
  try {
    await action();
    return undefined;
  } catch (error) {
    if (error instanceof RuntimeError) {
      switch (error.code) {
        case 'unknown_server':
        case 'unknown_tool':
          return apiError(404, 'not_found', error.message, path);
        case 'server_disabled':
        case 'server_quarantined':
        case 'server_not_connected':
          return apiError(409, 'conflict', error.message, path);
        default:
          return apiError(503, 'state_unavailable', error.message, path);
      }
    }
    return apiError(503, 'state_unavailable', 'The gateway state could not be changed; nothing was done', path);
  }
}
