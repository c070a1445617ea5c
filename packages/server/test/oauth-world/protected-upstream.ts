// An HTTP MCP upstream built on the SDK that accepts only access tokens of one authorization server:
// JWTs it verifies against that server's keys (signature, issuer, audience = this resource (RFC 8707),
// expiry). Without a good token it answers 401 with the RFC 9728 pointer to its
// protected-resource metadata, like the remote MCP servers people log in to.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { toNodeHandler } from '@modelcontextprotocol/node';
import type { NodeIncomingMessageLike } from '@modelcontextprotocol/node';
import { Server, createMcpHandler } from '@modelcontextprotocol/server';
import type { CallToolResult, ListToolsResult } from '@modelcontextprotocol/server';
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { TEST_SCOPE } from './authorization-server.js';

export interface ProtectedUpstreamOptions {
  readonly issuer: string;
}

export interface ProtectedUpstream {
  /** The MCP endpoint, which is also the resource identifier. */
  readonly url: string;
  /** Every bearer token presented, valid or not (for the tests that look for tokens elsewhere). */
  readonly tokensSeen: Set<string>;
  /** 401 answers to MCP requests so far. */
  unauthorized: number;
  /** Tool calls served so far. */
  calls: number;
  /** Refuses every token seen so far from now on (as if the resource server revoked them): the next request meets a 401. */
  refuseTokensSeen(): void;
  close(): Promise<void>;
}

export async function startProtectedUpstream(options: ProtectedUpstreamOptions): Promise<ProtectedUpstream> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const resource = `${origin}/mcp`;
  const metadataUrl = `${origin}/.well-known/oauth-protected-resource/mcp`;
  const keys = createRemoteJWKSet(new URL(`${options.issuer}/jwks`));
  const refused = new Set<string>();
  const mcp = toNodeHandler(createMcpHandler(() => mcpServer(upstream), { legacy: 'stateless' }));

  const upstream: ProtectedUpstream = {
    url: resource,
    tokensSeen: new Set(),
    unauthorized: 0,
    calls: 0,
    refuseTokensSeen: () => {
      for (const token of upstream.tokensSeen) refused.add(token);
    },
    close: () =>
      new Promise<void>((resolve) => {
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };

  http.on('request', (req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/.well-known/oauth-protected-resource/mcp') {
        sendJson(res, 200, { resource, authorization_servers: [options.issuer], scopes_supported: [TEST_SCOPE], bearer_methods_supported: ['header'] });
        return;
      }
      if (path !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      const token = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (token !== undefined) upstream.tokensSeen.add(token);
      const problem = token === undefined ? 'no token' : refused.has(token) ? 'the token was revoked' : await verify(token);
      if (problem !== undefined) {
        upstream.unauthorized += 1;
        res.writeHead(401, {
          'content-type': 'application/json',
          'www-authenticate': `Bearer resource_metadata="${metadataUrl}", scope="${TEST_SCOPE}"${token === undefined ? '' : ', error="invalid_token"'}`,
        });
        res.end(JSON.stringify({ error: 'invalid_token', error_description: problem }));
        return;
      }
      await mcp(req as NodeIncomingMessageLike, res);
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  });

  async function verify(token: string): Promise<string | undefined> {
    try {
      const { payload } = await jwtVerify(token, keys, { issuer: options.issuer, audience: resource });
      const scopes = typeof payload['scope'] === 'string' ? payload['scope'].split(' ') : [];
      return scopes.includes(TEST_SCOPE) ? undefined : `the token lacks the scope ${TEST_SCOPE}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  return upstream;
}

function mcpServer(upstream: ProtectedUpstream): Server {
  const server = new Server({ name: 'protected-upstream', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', (): ListToolsResult => ({
    tools: [{ name: 'echo', description: 'Echoes its arguments', inputSchema: { type: 'object', properties: { text: { type: 'string' } } }, annotations: { readOnlyHint: true } }],
  }));
  server.setRequestHandler('tools/call', (request): CallToolResult => {
    upstream.calls += 1;
    return { content: [{ type: 'text', text: JSON.stringify(request.params.arguments ?? {}) }] };
  });
  return server;
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
