// The CLI's REST client is typed from the generated schema types; this checks its operation table
// against the generated OpenAPI document, so a renamed path or a changed body fails here.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { OPERATION_ROUTES } from '../src/rest/rest-operations.js';

interface Operation {
  operationId: string;
  requestBody?: { content: { 'application/json': { schema: { $ref?: string } } } };
  responses: Record<string, { content?: { 'application/json': { schema: { $ref?: string; anyOf?: { $ref: string }[] } } } }>;
}
const openapi = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('@mcpproxy/schema/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, Operation>> };
const byId = new Map(Object.entries(openapi.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => [op.operationId, { path, method, op }] as const)));
const ref = (name: string) => `#/components/schemas/${name}`;

describe('the CLI operation table against the OpenAPI document', () => {
  it.each(Object.entries(OPERATION_ROUTES))('%s', (operationId, route) => {
    const documented = byId.get(operationId);
    expect(documented).toBeDefined();
    expect([documented!.method.toUpperCase(), documented!.path]).toEqual([route.method, route.path]);
    const success = documented!.op.responses[String(route.status)]?.content?.['application/json'].schema;
    expect(success?.$ref ?? success?.anyOf?.[0]?.$ref).toBe(ref(route.resultSchema));
    const body = documented!.op.requestBody?.content['application/json'].schema.$ref;
    expect(body).toBe(route.bodySchema === undefined ? undefined : ref(route.bodySchema));
  });

  it('covers every operation the CLI has a command for, and nothing undocumented', () => {
    const ids = Object.keys(OPERATION_ROUTES);
    expect(ids.every((id) => byId.has(id))).toBe(true);
    const uncalled = [...byId.keys()].filter((id) => !ids.includes(id));
    // reviewTool and streamEvents serve the operator UI (its side-by-side review and its live
    // updates); the CLI has no command for them yet.
    expect(uncalled.sort()).toEqual(['healthz', 'openApiDocument', 'reviewTool', 'streamEvents']);
  });
});
