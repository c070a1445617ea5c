import { checkValue, type ValidationIssue } from '@mcpproxy/schema';
import type { ValidateFunction } from 'ajv';
import { apiError } from './api-error.js';
import type { RestReply, RestRequest } from './rest-endpoint.js';

export type ValidatedBody<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly reply: RestReply };

/**
 * The request body as one JSON value that passes a strict generated validator, or the 400 that
 * says why not (the first issue's path; `explain` words the message for the endpoint).
 */
export async function validatedBody<T>(request: RestRequest, validator: ValidateFunction<T>, explain: (issue: ValidationIssue | undefined) => string): Promise<ValidatedBody<T>> {
  const body = await request.body();
  if (!body.ok) return { ok: false, reply: apiError(body.status, body.code, body.message, body.path) };
  const checked = checkValue(validator, body.value);
  if (!checked.ok) return { ok: false, reply: apiError(400, 'invalid_body', explain(checked.issues[0]), checked.issues[0]?.path ?? '') };
  return { ok: true, value: checked.value };
}
