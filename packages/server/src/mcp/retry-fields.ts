import type { JSONRPCRequest } from '@modelcontextprotocol/server';

/** The methods whose 2026-07-28 retries carry `inputResponses` and `requestState`. */
const RETRYABLE = new Set(['tools/call', 'prompts/get', 'resources/read']);

/**
 * The fault of a request whose multi-round-trip retry fields have the wrong type, or undefined. The
 * SDK lifts them out of the params before any handler runs and hands on what it can use: an
 * `inputResponses` that is not an object reads like an empty one, an entry that is not an object is
 * dropped. A retry the server cannot read must not be answered as if it carried nothing, so it is
 * refused here, naming the field, before it is served.
 */
export function retryFieldsFault(request: JSONRPCRequest): string | undefined {
  if (!RETRYABLE.has(request.method)) return undefined;
  // Params that are not an object are the schema's to refuse.
  const params: unknown = request.params;
  if (!isObject(params)) return undefined;
  if (Object.hasOwn(params, 'inputResponses')) {
    const responses = params['inputResponses'];
    if (!isObject(responses)) return `params.inputResponses: expected an object of input responses, received ${kindOf(responses)}`;
    for (const [key, response] of Object.entries(responses)) {
      if (!isObject(response)) return `params.inputResponses.${key}: expected an input response object, received ${kindOf(response)}`;
    }
  }
  if (Object.hasOwn(params, 'requestState') && typeof params['requestState'] !== 'string') {
    return `params.requestState: expected string, received ${kindOf(params['requestState'])}`;
  }
  return undefined;
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}
