import { chmodSync, lstatSync, rmSync, unlinkSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { requestPath, routeRequest, type HttpRoute } from '../http/http-route.js';
import { HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '../http/http-server.js';
import { sendJson } from '../http/json-response.js';
import { chooseSocketLocation, type SocketLocationOptions } from './socket-location.js';

/** A protocol switch the socket accepts (`Connection: Upgrade`), such as the stdio relay channel. */
export interface SocketUpgrade {
  handle(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

export interface LocalSocketOptions {
  readonly dataDir: string;
  /** Served as on the HTTP listener (REST, /healthz): each route does its own authentication. */
  readonly routes: readonly HttpRoute[];
  readonly upgrade?: SocketUpgrade;
  readonly onError?: (error: unknown) => void;
  readonly location?: SocketLocationOptions;
}

export interface RunningLocalSocket {
  readonly path: string;
  /** Why the socket is not at its usual place, for the log. */
  readonly note?: string;
  /** Stops listening, ends open requests, and removes the socket file (and a private directory made for it). */
  close(): Promise<void>;
}

export type LocalSocketStart = { readonly ok: true; readonly socket: RunningLocalSocket } | { readonly ok: false; readonly message: string };

/**
 * The gateway's local operator socket: HTTP on a Unix domain socket (mode 0600) in the data directory,
 * so that the CLI reaches a gateway that has no HTTP listener (stdio mode) with nothing to configure.
 * Browsers cannot open a Unix socket, so the Host/Origin guard of the HTTP listener has nothing to
 * defend here; the file mode keeps other users out, and the routes still ask for the same credentials.
 *
 * The caller holds the data-directory lock, so a socket file already there was left by a gateway that
 * was killed: it is removed. Anything else at that path is not ours to remove, and no socket opens.
 */
export async function openLocalSocket(options: LocalSocketOptions): Promise<LocalSocketStart> {
  const location = chooseSocketLocation(options.dataDir, options.location);
  if (!location.ok) return location;
  const { path } = location;
  const removeDir = () => {
    if (location.privateDir !== undefined) rmSync(location.privateDir, { recursive: true, force: true });
  };
  const stale = staleSocketProblem(path);
  if (stale !== undefined) {
    removeDir();
    return { ok: false, message: stale };
  }
  const server = createServer((req, res) => {
    void answer(req, res, options.routes).catch((error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent) sendJson(res, 500, { code: 'internal', message: 'The gateway failed to answer this request' });
      else res.destroy();
    });
  });
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  // As on the HTTP listener: a client that trickles or stalls its request does not hold a socket for ever.
  server.headersTimeout = Math.min(HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS);
  // Upgraded connections leave the HTTP server's bookkeeping (closeAllConnections does not see them)
  // but still hold server.close() open: they are ended here on close.
  const upgraded = new Set<Duplex>();
  if (options.upgrade !== undefined) {
    const upgrade = options.upgrade;
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      upgraded.add(socket);
      socket.once('close', () => upgraded.delete(socket));
      socket.on('error', (error) => options.onError?.(error));
      try {
        upgrade.handle(req, socket, head);
      } catch (error) {
        options.onError?.(error);
        socket.destroy();
      }
    });
  }
  try {
    await listen(server, path);
    chmodSync(path, 0o600);
  } catch (error) {
    server.close();
    removeIfPresent(path);
    removeDir();
    return { ok: false, message: `cannot open the local socket ${path}: ${error instanceof Error ? error.message : String(error)}` };
  }
  let closed: Promise<void> | undefined;
  return {
    ok: true,
    socket: {
      path,
      ...(location.note === undefined ? {} : { note: location.note }),
      close: () =>
        (closed ??= new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
          for (const socket of upgraded) socket.destroy();
        }).finally(() => {
          removeIfPresent(path);
          removeDir();
        })),
    },
  };
}

async function answer(req: IncomingMessage, res: ServerResponse, routes: readonly HttpRoute[]): Promise<void> {
  const pathname = requestPath(req.url);
  if (await routeRequest(routes, pathname, req, res)) return;
  sendJson(res, 404, { code: 'not_found', message: `No route for ${pathname}`, path: pathname });
}

/** Undefined when the path is free (or held a stale socket, now removed); else why it cannot be used. */
function staleSocketProblem(path: string): string | undefined {
  let kind;
  try {
    kind = lstatSync(path);
  } catch (cause) {
    if ((cause as { code?: unknown }).code === 'ENOENT') return undefined;
    return `cannot examine ${path}: ${cause instanceof Error ? cause.message : String(cause)}`;
  }
  if (!kind.isSocket()) return `no local socket: ${path} exists and is not a socket (move it away)`;
  try {
    unlinkSync(path);
    return undefined;
  } catch (cause) {
    return `cannot remove the stale socket ${path}: ${cause instanceof Error ? cause.message : String(cause)}`;
  }
}

function listen(server: Server, path: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(path, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function removeIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // gone already
  }
}
