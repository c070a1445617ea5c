import { createServer, type Server } from 'node:http';
import { CliError } from '../cli-error.js';

/** The authorization server's redirect, as the loopback callback received it. */
export interface RedirectQuery {
  readonly state: string;
  readonly code?: string;
  readonly iss?: string;
  readonly error?: string;
  readonly error_description?: string;
}

/** What the browser is shown once the gateway has the redirect. */
export interface CallbackPage {
  readonly ok: boolean;
  readonly message: string;
}

export interface LoopbackCallback {
  /**
   * The first redirect carrying a state, or a timeout error at `deadline`. `answer` decides the page
   * the browser gets (the gateway's verdict on the redirect).
   */
  next(deadline: number, answer: (query: RedirectQuery) => Promise<CallbackPage>): Promise<RedirectQuery>;
  close(): Promise<void>;
}

/**
 * Listens on 127.0.0.1 at the redirect URI's port and path (RFC 8252 §7.3): where the browser is
 * sent back after the login. The port is the gateway's `oauth_callback_port`, the same at every
 * login, so the redirect URI registered with the authorization server keeps matching.
 */
export async function listenForRedirect(redirectUri: string): Promise<LoopbackCallback> {
  const target = new URL(redirectUri);
  if (target.protocol !== 'http:' || target.hostname !== '127.0.0.1') {
    throw new CliError('gateway', `the gateway's redirect URI ${redirectUri} is not a loopback http://127.0.0.1 address`);
  }
  let deliver: ((query: RedirectQuery) => void) | undefined;
  let answer: ((query: RedirectQuery) => Promise<CallbackPage>) | undefined;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', redirectUri);
    const state = url.searchParams.get('state');
    if (req.method !== 'GET' || url.pathname !== target.pathname || state === null || deliver === undefined || answer === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not the login callback.\n');
      return;
    }
    const query: RedirectQuery = { state, ...optional(url.searchParams, 'code', 'iss', 'error', 'error_description') };
    const received = deliver;
    deliver = undefined;
    void answer(query).then(
      (page) => {
        res.writeHead(page.ok ? 200 : 400, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(html(page));
        received(query);
      },
      () => {
        res.writeHead(500).end();
        received(query);
      },
    );
  });
  const port = Number(target.port || 80);
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        new CliError(
          'io',
          error.code === 'EADDRINUSE'
            ? `cannot receive the login redirect: port ${port} on 127.0.0.1 is in use (set another oauth_callback_port in the gateway's configuration)`
            : `cannot receive the login redirect on 127.0.0.1:${port}: ${error.message}`,
        ),
      ),
    );
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    next(deadline, decide) {
      answer = decide;
      return new Promise<RedirectQuery>((resolve, reject) => {
        const timer = setTimeout(() => {
          deliver = undefined;
          reject(new CliError('gateway', 'no redirect arrived before the login expired: run mcpproxy auth login again'));
        }, Math.max(0, deadline - Date.now()));
        deliver = (query) => {
          clearTimeout(timer);
          resolve(query);
        };
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function optional(params: URLSearchParams, ...names: ('code' | 'iss' | 'error' | 'error_description')[]): Partial<RedirectQuery> {
  const found: Record<string, string> = {};
  for (const name of names) {
    const value = params.get(name);
    if (value !== null && value !== '') found[name] = value;
  }
  return found;
}

function html(page: CallbackPage): string {
  const text = page.message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><meta charset="utf-8"><title>mcpproxy login</title><p>${text}</p>\n`;
}
