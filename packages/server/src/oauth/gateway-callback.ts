import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { checkValue, strictValidators } from '@mcpproxy/schema';
import type { CallbackOutcome, CallbackParams } from './oauth-logins.js';

/** The page the browser gets: nothing to run, load, frame or send on. */
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  // One page per connection: the listener closes once its login is done, and must not wait for a kept-alive one.
  connection: 'close',
  'content-security-policy': "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
};

export interface GatewayCallbackOptions {
  /** The redirect URI's port (oauth_callback_port) and path. */
  readonly port: number;
  readonly path: string;
  /** The login's own check: the state alone authenticates the redirect, as on POST /api/v1/oauth/callback. */
  readonly finish: (params: CallbackParams) => Promise<CallbackOutcome>;
  readonly onError?: (error: Error) => void;
}

export type CallbackOpening = { readonly ok: true } | { readonly ok: false; readonly message: string };

/**
 * The loopback callback held by the gateway itself, for a login whose browser has no command waiting
 * for its redirect (one started in the operator UI). It listens on 127.0.0.1 at the redirect URI the
 * client is registered with, the one `mcpproxy auth login` listens on, and only while such a login
 * waits, so that the command can have the port the rest of the time. Only the address a browser on
 * this machine was sent to is answered (a Host of another name is a DNS-rebinding attempt).
 */
export class GatewayCallback {
  private server: Server | undefined;
  private opening: Promise<CallbackOpening> | undefined;

  constructor(private readonly options: GatewayCallbackOptions) {}

  get listening(): boolean {
    return this.server !== undefined;
  }

  /** Starts listening unless it already does; refused when the port is taken (a command waiting for its own redirect). */
  open(): Promise<CallbackOpening> {
    if (this.server !== undefined) return Promise.resolve({ ok: true });
    this.opening ??= this.listen().finally(() => (this.opening = undefined));
    return this.opening;
  }

  /** Stops listening at once (the port is free again); a page being answered still goes out. */
  async close(): Promise<void> {
    await this.opening;
    const server = this.server;
    this.server = undefined;
    if (server === undefined) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
  }

  private listen(): Promise<CallbackOpening> {
    const { port } = this.options;
    const server = createServer((req, res) => void this.answer(req, res).catch((error: unknown) => this.failed(res, error)));
    return new Promise((resolve) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        resolve({
          ok: false,
          message:
            error.code === 'EADDRINUSE'
              ? `the login callback 127.0.0.1:${port} is in use (is a mcpproxy auth login waiting for its redirect?): let it finish, or set another oauth_callback_port`
              : `cannot listen for the login redirect on 127.0.0.1:${port}: ${error.message}`,
        }),
      );
      server.listen(port, '127.0.0.1', () => {
        server.on('error', (error) => this.options.onError?.(error));
        this.server = server;
        resolve({ ok: true });
      });
    });
  }

  private async answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const host = (req.headers.host ?? '').toLowerCase();
    if (host !== `127.0.0.1:${this.options.port}` && host !== `localhost:${this.options.port}`) return page(res, 421, 'Not this gateway\'s login callback.');
    if (req.method !== 'GET' || url.pathname !== this.options.path) return page(res, 404, 'Not the login callback.');
    const query = Object.fromEntries([...url.searchParams].filter(([name]) => ['state', 'code', 'iss', 'error', 'error_description'].includes(name)));
    const checked = checkValue(strictValidators.OAuthCallback, query);
    if (!checked.ok) return page(res, 400, 'This is not a login redirect the gateway can read: start the login again.');
    const { state, code, iss, error } = checked.value;
    const outcome = await this.options.finish({ state, ...(code === undefined ? {} : { code }), ...(iss === undefined ? {} : { iss }), ...(error === undefined ? {} : { error }) });
    if (outcome.ok) return page(res, 200, `Logged in to ${outcome.server}. You can close this tab: the operator UI shows the server connecting.`);
    return page(res, outcome.code === 'invalid_state' ? 400 : 502, outcome.message);
  }

  private failed(res: ServerResponse, error: unknown): void {
    this.options.onError?.(error instanceof Error ? error : new Error(String(error)));
    if (!res.headersSent) page(res, 500, 'The gateway could not finish the login: start it again.');
  }
}

function page(res: ServerResponse, status: number, message: string): void {
  const text = message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  res.writeHead(status, PAGE_HEADERS).end(`<!doctype html><meta charset="utf-8"><title>mcpproxy login</title><p>${text}</p>\n`);
}
