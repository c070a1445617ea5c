import type { IncomingMessage } from 'node:http';
import { toNodeHandler, type NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { jsonRpcErrorBody } from '../mcp/json-rpc-error-response.js';
import type { McpEndpoint } from '../mcp/mcp-endpoint.js';
import { identityAuthInfo, identityFromAuthInfo } from '../mcp/mcp-identity.js';
import { flushEventStreamHeaders } from './event-stream-headers.js';
import type { HttpRoute } from './http-route.js';
import { sendJson } from './json-response.js';
import { authenticateMcpRequest, type McpAuthenticationPolicy } from './mcp-authentication.js';

const PROFILE_PATH = /^\/mcp\/p\/([^/]+)\/?$/;

/** /mcp and /mcp/p/<profile>: authenticate, then hand the exchange to the two-revision endpoint. */
export function mcpRoute(endpoint: McpEndpoint, policy: McpAuthenticationPolicy, onError?: (error: Error) => void): HttpRoute {
  const node = toNodeHandler(
    {
      fetch: (request, options) => {
        const identity = identityFromAuthInfo(options?.authInfo);
        if (identity === undefined) throw new Error('MCP exchange without an identity');
        return endpoint.fetch(request, identity);
      },
    },
    onError === undefined ? {} : { onerror: onError },
  );
  return {
    match(pathname) {
      let profile: string | undefined;
      if (pathname !== '/mcp' && pathname !== '/mcp/') {
        const match = PROFILE_PATH.exec(pathname);
        if (match === null) return undefined;
        profile = decodeSegment(match[1]!);
        if (profile === undefined) return undefined;
      }
      return async (req, res) => {
        const auth = await authenticateMcpRequest(headerValue(req, 'authorization'), profile, policy);
        if (!auth.ok) {
          const challenge: Record<string, string> = auth.status === 401 ? { 'www-authenticate': 'Bearer realm="mcpproxy"' } : {};
          sendJson(res, auth.status, jsonRpcErrorBody(-32001, auth.message), challenge);
          return;
        }
        // toNodeHandler forwards `req.auth` as the exchange's pass-through authInfo.
        // (node's IncomingMessage declares `method?: string | undefined`, which the duck type's
        // exact optional `method?: string` rejects; the object is the very one it is written for.)
        const nodeReq = req as unknown as NodeIncomingMessageLike;
        nodeReq.auth = identityAuthInfo(auth.identity);
        flushEventStreamHeaders(res);
        await node(nodeReq, res);
      };
    },
  };
}

function headerValue(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
