import { STATUS_CODES, type IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiError } from '@mcpproxy/schema';
import { authenticateRestRequest, type RestCredentials } from '../auth/rest-authentication.js';
import { requestPath } from '../http/http-route.js';
import type { SocketUpgrade } from './local-socket-server.js';

/**
 * The relay channel of the local socket: `GET /relay/stdio` with `Connection: Upgrade` and
 * `Upgrade: mcp-stdio`. After `101 Switching Protocols` the connection carries MCP exactly as a
 * gateway's stdin/stdout do (newline-delimited JSON-RPC), so a second `serve --stdio` on the same
 * data directory can pass its client's bytes through unchanged. Not part of the REST API (it is
 * not on the HTTP listener and not in the OpenAPI document).
 */
export const STDIO_RELAY_PATH = '/relay/stdio';
export const STDIO_RELAY_PROTOCOL = 'mcp-stdio';

export interface StdioRelayChannelOptions {
  readonly credentials: RestCredentials;
  /** Serves one relayed stdio session on the switched connection. */
  serve(connection: Duplex): void;
  readonly onError?: (error: unknown) => void;
}

/**
 * A relayed session is what the gateway's own stdio client gets, every configured server in scope, so
 * the switch takes the admin API key (operator tier), as the relaying gateway has it from the same
 * data directory. An agent token is refused: it would widen its own scope.
 */
export function stdioRelayChannel(options: StdioRelayChannelOptions): SocketUpgrade {
  return {
    handle(req, socket, head) {
      accept(req, socket, head, options).catch((error: unknown) => {
        options.onError?.(error);
        socket.destroy();
      });
    },
  };
}

async function accept(req: IncomingMessage, socket: Duplex, head: Buffer, options: StdioRelayChannelOptions): Promise<void> {
  const path = requestPath(req.url);
  if (path !== STDIO_RELAY_PATH) return refuse(socket, 404, { code: 'not_found', message: `No upgrade at ${path}`, path });
  if (req.method !== 'GET') return refuse(socket, 405, { code: 'method_not_allowed', message: `${req.method ?? '?'} is not allowed on ${path}; use GET`, path });
  if (req.headers.upgrade?.toLowerCase() !== STDIO_RELAY_PROTOCOL) {
    return refuse(socket, 400, { code: 'invalid_body', message: `${path} switches to "${STDIO_RELAY_PROTOCOL}" only`, path: 'Upgrade' });
  }
  const auth = await authenticateRestRequest({ apiKey: header(req, 'x-api-key'), authorization: header(req, 'authorization') }, options.credentials);
  if (!auth.ok) return refuse(socket, 401, { code: 'unauthorized', message: auth.message, path: auth.path });
  if (auth.principal.tier !== 'operator') return refuse(socket, 403, { code: 'forbidden', message: `${path} needs the admin API key`, path });
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: ${STDIO_RELAY_PROTOCOL}\r\n\r\n`);
  // Bytes the client sent right behind its request belong to the session.
  if (head.length > 0) socket.unshift(head);
  options.serve(socket);
}

function refuse(socket: Duplex, status: number, body: ApiError): void {
  const text = JSON.stringify(body);
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
