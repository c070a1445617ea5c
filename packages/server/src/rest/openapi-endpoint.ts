import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { RestEndpoint } from './rest-endpoint.js';

/** GET /api/v1/openapi.json: the document generated into @mcpproxy/schema, served as it was built. */
export function openApiEndpoint(): RestEndpoint {
  let text: string | undefined;
  return {
    method: 'GET',
    path: '/openapi.json',
    operatorOnly: false,
    handle() {
      text ??= readFileSync(createRequire(import.meta.url).resolve('@mcpproxy/schema/openapi.json'), 'utf8');
      return { status: 200, text };
    },
  };
}
