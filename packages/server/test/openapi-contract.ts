// Checks REST answers against the generated OpenAPI document (@mcpproxy/schema/openapi.json): the
// operation is looked up by method and path template, the status must be one it documents, and the
// body is validated with ajv against that response's schema. ajv compiles here, at test time.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

interface OpenApiResponse {
  readonly $ref?: string;
  readonly content?: Record<string, { schema?: unknown }>;
}
interface OpenApiOperation {
  readonly operationId: string;
  readonly responses: Record<string, OpenApiResponse>;
}
interface OpenApiDocument {
  readonly paths: Record<string, Record<string, OpenApiOperation>>;
  readonly components: { readonly responses: Record<string, OpenApiResponse> };
}

export const OPENAPI_TEXT = readFileSync(createRequire(import.meta.url).resolve('@mcpproxy/schema/openapi.json'), 'utf8');
export const OPENAPI = JSON.parse(OPENAPI_TEXT) as OpenApiDocument;

const DOC_ID = 'https://mcpproxy.test/openapi.json';
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
ajv.addSchema(OPENAPI as object, DOC_ID);

const templates = Object.keys(OPENAPI.paths).map((template) => ({
  template,
  regex: new RegExp(`^${template.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
}));

export interface OperationRef {
  readonly method: string;
  readonly template: string;
  readonly operationId: string;
}

/** The documented operation for this method and (encoded) path, if any. */
export function findOperation(method: string, pathname: string): OperationRef | undefined {
  for (const { template, regex } of templates) {
    if (!regex.test(pathname)) continue;
    const operation = OPENAPI.paths[template]![method.toLowerCase()];
    if (operation !== undefined) return { method: method.toUpperCase(), template, operationId: operation.operationId };
  }
  return undefined;
}

const pointer = (segments: readonly string[]) => segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');
const compiled = new Map<string, ValidateFunction>();

function validatorAt(path: string): ValidateFunction {
  let validate = compiled.get(path);
  if (validate === undefined) {
    validate = ajv.getSchema(`${DOC_ID}#/${path}`);
    if (validate === undefined) throw new Error(`no schema at ${path}`);
    compiled.set(path, validate);
  }
  return validate;
}

/** Validates a body at a JSON pointer of the document; returns the error lines (empty = valid). */
export function schemaErrors(path: string, body: unknown): string[] {
  const validate = validatorAt(path);
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.keyword}: ${e.message ?? ''}`);
}

export const API_ERROR_SCHEMA = pointer(['components', 'schemas', 'ApiError']);
export const schemaPath = (name: string) => pointer(['components', 'schemas', name]);

/**
 * Problems of one answer against the document: undocumented status, missing JSON body, or a body
 * that does not validate. Unknown routes and wrong methods must be 404/405 ApiErrors.
 */
export function contractProblems(method: string, pathname: string, status: number, contentType: string | null, body: unknown): string[] {
  const operation = findOperation(method, pathname);
  if (operation === undefined) {
    if (status !== 404 && status !== 405) return [`${method} ${pathname} is not documented and answered ${status}`];
    return schemaErrors(API_ERROR_SCHEMA, body);
  }
  const responses = OPENAPI.paths[operation.template]![method.toLowerCase()]!.responses;
  let response = responses[String(status)];
  let at = ['paths', operation.template, method.toLowerCase(), 'responses', String(status)];
  if (response === undefined) {
    // A wrong method on a documented path is a 405 of the router, documented globally.
    return [`${operation.operationId} does not document status ${status}`];
  }
  if (response.$ref !== undefined) {
    const name = response.$ref.split('/').at(-1)!;
    response = OPENAPI.components.responses[name]!;
    at = ['components', 'responses', name];
  }
  if (response.content?.['application/json'] === undefined) return body === undefined ? [] : [`${operation.operationId} ${status} documents no body`];
  if (contentType === null || !contentType.startsWith('application/json')) return [`${operation.operationId} ${status}: content-type ${contentType ?? 'none'}`];
  return schemaErrors(pointer([...at, 'content', 'application/json', 'schema']), body);
}
