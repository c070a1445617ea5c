import { request } from 'node:http';
import type { Socket } from 'node:net';
import type { Readable, Writable } from 'node:stream';
import { STDIO_RELAY_PATH, STDIO_RELAY_PROTOCOL } from './stdio-relay-channel.js';

export interface StdioRelayOptions {
  /** The local socket of the gateway that holds the data directory. */
  readonly socketPath: string;
  /** The admin API key (the relay channel is operator-only). */
  readonly apiKey: string;
  /** This process's MCP client: what it writes goes to the gateway, what the gateway answers comes back. */
  readonly input: Readable;
  readonly output: Writable;
}

/** How a relay ended: the client closed its side (normal), or the gateway went away under it. */
export type RelayEnd = 'input_closed' | 'gateway_closed';

export interface StdioRelay {
  readonly ended: Promise<RelayEnd>;
  /** Ends the relay now (a signal); `ended` then settles with 'input_closed'. */
  close(): void;
}

export type StdioRelayOpen = { readonly ok: true; readonly relay: StdioRelay } | { readonly ok: false; readonly message: string };

/**
 * Switches a connection to the running gateway's local socket to the stdio relay channel and passes
 * bytes through both ways, unchanged: the client talks to the running gateway exactly as it would to
 * this process's own stdio. Never throws: a gateway that is not there or refuses is a message.
 */
export function openStdioRelay(options: StdioRelayOptions): Promise<StdioRelayOpen> {
  return new Promise((resolve) => {
    const req = request({
      socketPath: options.socketPath,
      path: STDIO_RELAY_PATH,
      method: 'GET',
      headers: { host: 'localhost', connection: 'Upgrade', upgrade: STDIO_RELAY_PROTOCOL, 'x-api-key': options.apiKey },
    });
    req.on('error', (error) => resolve({ ok: false, message: `cannot reach ${options.socketPath}: ${error.message}` }));
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ ok: false, message: `${options.socketPath} refused the relay (HTTP ${res.statusCode ?? '?'}): ${refusalText(body)}` }));
      res.on('error', (error) => resolve({ ok: false, message: `${options.socketPath} refused the relay: ${error.message}` }));
    });
    req.on('upgrade', (_res, socket: Socket, head: Buffer) => resolve({ ok: true, relay: pipeThrough(socket, head, options) }));
    req.end();
  });
}

function pipeThrough(socket: Socket, head: Buffer, options: StdioRelayOptions): StdioRelay {
  const { input, output } = options;
  let inputClosed = false;
  let end!: (how: RelayEnd) => void;
  const ended = new Promise<RelayEnd>((resolve) => (end = resolve));
  if (head.length > 0) output.write(head);
  socket.on('data', (chunk: Buffer) => {
    // Back-pressure from a slow client reaches the gateway, never memory here.
    if (!output.write(chunk)) {
      socket.pause();
      output.once('drain', () => socket.resume());
    }
  });
  socket.on('error', () => undefined);
  socket.once('close', () => end(inputClosed ? 'input_closed' : 'gateway_closed'));
  const onInput = (chunk: Buffer) => {
    if (!socket.write(chunk)) {
      input.pause();
      socket.once('drain', () => input.resume());
    }
  };
  const onInputEnd = () => {
    inputClosed = true;
    // Half-close: the gateway still answers what it was sent, then ends its side.
    socket.end();
  };
  input.on('data', onInput);
  input.once('end', onInputEnd);
  input.resume();
  return {
    ended: ended.finally(() => {
      input.off('data', onInput);
      input.off('end', onInputEnd);
      input.pause();
    }),
    close() {
      inputClosed = true;
      socket.destroy();
    },
  };
}

function refusalText(body: string): string {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: say what it was
  }
  return body.trim() === '' ? 'no reason given' : body.trim().slice(0, 200);
}
