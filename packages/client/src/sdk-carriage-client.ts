import { EXTENSION_ID } from '@mcpproxy/schema';
import type { Client } from '@modelcontextprotocol/client';
import { ANY_RESULT } from './any-result-schema.js';
import type { CarriageClient, CarriageRequestOptions } from './carriage-client.js';
import { extensionSupport } from './extension-support.js';
import { requestMeta } from './request-meta.js';

/**
 * The MCP TypeScript SDK's Client (2.x, both revisions) as the carriages see it. On 2026-07-28 the
 * rider negotiates the extension on the request itself; on 2025-11-25 only a session whose
 * initialize declared the mirror (requiredToolsCapabilities()) can carry it.
 */
export function sdkCarriageClient(client: Client): CarriageClient {
  const support = extensionSupport(client);
  const request = (options: CarriageRequestOptions) => ({ timeout: options.timeoutMs, ...(options.signal === undefined ? {} : { signal: options.signal }) });
  return {
    advertisement: support.advertised ? { state: 'advertised', ...(support.version === undefined ? {} : { version: support.version }) } : { state: 'absent' },
    rider:
      support.mirrored === false
        ? { ok: false, why: 'this 2025-11-25 session did not mirror the extension at initialize (pass requiredToolsCapabilities() to new Client)' }
        : {
            ok: true,
            send: (rider, options) => client.request({ method: 'tools/list', params: { _meta: requestMeta(client, support, { [EXTENSION_ID]: rider }) } }, ANY_RESULT, request(options)),
          },
    callTool: (name, args, options) => client.callTool({ name, arguments: args }, request(options)),
  };
}
