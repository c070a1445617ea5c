import type { ServerInfo } from '@mcpproxy/schema';
import { CliError, usageError } from '../cli-error.js';
import type { CommandContext, CommandSpec } from '../command-spec.js';
import { CONNECTION_OPTIONS } from '../connection/connection-settings.js';
import { listenForRedirect } from '../oauth/loopback-callback.js';
import { openBrowser } from '../oauth/open-browser.js';
import { OUTPUT_OPTION, outputFormatOf, type OutputFormat } from '../output/output-format.js';
import { printDocument } from '../output/print-document.js';
import { restClientFor } from '../rest/command-rest-client.js';
import type { RestClient } from '../rest/rest-client.js';
import { serverTable } from './servers.js';

/** States in which the reconnect after a login is still under way. */
const SETTLING = new Set(['connecting', 'authenticating', 'discovering']);
const SETTLE_MS = 10_000;

// --token here is the upstream's credential, so the agent-token connection flag is not offered.
const { token: _agentToken, ...LOGIN_CONNECTION_OPTIONS } = CONNECTION_OPTIONS;

export const authLogin: CommandSpec = {
  words: ['auth', 'login'],
  summary: 'Log in to an HTTP upstream that answered 401: OAuth in the browser, or a bearer token',
  usage: '<server> [--no-browser | --token T | --token-stdin] [options]',
  description: [
    'Without --token: the OAuth login the upstream asks for. The gateway discovers its authorization',
    'server, registers a client there (unless the configuration names one), and hands back an',
    'authorization URL, which this command prints and opens in a browser when one is available',
    '(not with --no-browser). The browser comes back to http://127.0.0.1:<oauth_callback_port>/oauth/callback,',
    'where this command receives it and hands it to the gateway, which stores the tokens, refreshes',
    'them before they expire, and reconnects. Exit 0 once the server is ready.',
    '',
    'With --token or --token-stdin: a static bearer credential, sent as Authorization: Bearer on',
    'every connection. Prefer --token-stdin: a token on the command line is visible to other local users.',
    '',
    'Credentials are kept in the gateway\'s store, never in the configuration file. Needs the admin API key.',
  ].join('\n'),
  options: {
    'no-browser': { type: 'boolean', label: '--no-browser', description: 'Print the authorization URL without opening a browser' },
    token: { type: 'string', label: '--token T', description: 'A static upstream bearer token instead of OAuth' },
    'token-stdin': { type: 'boolean', label: '--token-stdin', description: 'Read a static upstream bearer token from standard input' },
    ...OUTPUT_OPTION,
    ...LOGIN_CONNECTION_OPTIONS,
  },
  positionals: { min: 1, max: 1, name: 'server name' },
  examples: ['mcpproxy auth login github', 'mcpproxy auth login github --no-browser', 'printf %s "$GITHUB_TOKEN" | mcpproxy auth login github --token-stdin'],
  async run(context: CommandContext) {
    const { values } = context;
    const format = outputFormatOf(values);
    const name = context.positionals[0]!;
    const flagToken = values['token'] as string | undefined;
    const fromStdin = values['token-stdin'] === true;
    if (flagToken !== undefined && fromStdin) throw usageError('give one of --token T and --token-stdin, not both');
    if ((flagToken !== undefined || fromStdin) && values['no-browser'] === true) throw usageError('--no-browser is for the OAuth login; a --token login opens no browser');
    const client = restClientFor(context, { tokenFlagIsConnection: false });
    if (flagToken === undefined && !fromStdin) return oauthLogin(context, client, name, format);

    const token = (fromStdin ? await context.io.readStdin() : flagToken ?? '').trim();
    if (token === '') throw usageError(fromStdin ? 'standard input held no token' : '--token is empty');
    await client.call('loginServer', { params: { name }, body: { token } });
    const server = await settled(client, name);
    if (server.state === 'pending_auth') throw new CliError('gateway', `stored the credential, but ${name} still answers 401: check the token${server.last_error === undefined ? '' : ` (${server.last_error})`}`);
    return finished(context, format, server, name, 'Stored the credential');
  },
};

async function oauthLogin(context: CommandContext, client: RestClient, name: string, format: OutputFormat): Promise<number> {
  const { io, values } = context;
  let started;
  try {
    started = await client.call('startOAuthLogin', { params: { name } });
  } catch (error) {
    // An upstream that names no authorization server may still take a token obtained elsewhere.
    if (error instanceof CliError && error.message.includes('oauth_failed')) {
      throw new CliError(error.code, `${error.message}; if the upstream takes a bearer token instead, use: mcpproxy auth login ${name} --token-stdin`);
    }
    throw error;
  }
  const callback = await listenForRedirect(started.redirect_uri);
  try {
    // The URL is for a person; with -o json|yaml standard output stays the one document.
    const say = format === 'table' ? io.stdout : io.stderr;
    say.write(`To log in to ${name}, open this URL in a browser:\n${started.authorization_url}\n`);
    if (values['no-browser'] !== true && openBrowser(started.authorization_url, io.env)) say.write('(opened in your browser)\n');
    say.write(`Waiting for the redirect to ${started.redirect_uri} ...\n`);
    let failure: CliError | undefined;
    await callback.next(Date.parse(started.expires_at), async (query) => {
      try {
        await client.call('finishOAuthLogin', { body: query });
        return { ok: true, message: `Logged in to ${name}. You can close this window.` };
      } catch (error) {
        failure = error instanceof CliError ? error : new CliError('gateway', String(error));
        return { ok: false, message: `The login of ${name} failed: ${failure.message}` };
      }
    });
    if (failure !== undefined) throw failure;
  } finally {
    await callback.close();
  }
  const server = await settled(client, name);
  if (server.state === 'pending_auth') throw new CliError('gateway', `logged in, but ${name} still answers 401${server.last_error === undefined ? '' : ` (${server.last_error})`}`);
  return finished(context, format, server, name, 'Logged in');
}

function finished(context: CommandContext, format: OutputFormat, server: ServerInfo, name: string, done: string): number {
  if (server.state === 'error' || server.state === 'disconnected') throw new CliError('gateway', `${done.toLowerCase()}, but ${name} did not connect: ${server.last_error ?? server.state}`);
  printDocument(context.io, format, server, () =>
    `${server.state === 'ready' ? `Logged in: ${name} is ready.` : `${done}; ${name} is still ${server.state ?? 'starting'}.`}\n${serverTable([server])}`,
  );
  return 0;
}

async function settled(client: RestClient, name: string): Promise<ServerInfo> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const server = (await client.call('listServers')).servers.find((candidate) => candidate.name === name);
    if (server === undefined) throw new CliError('gateway', `server ${name} disappeared from the gateway`);
    if (!SETTLING.has(server.state ?? 'connecting') || Date.now() >= deadline) return server;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
