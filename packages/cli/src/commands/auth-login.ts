import type { ServerInfo } from '@mcpproxy/schema';
import { CliError, usageError } from '../cli-error.js';
import type { CommandContext, CommandSpec } from '../command-spec.js';
import { CONNECTION_OPTIONS } from '../connection/connection-settings.js';
import { OUTPUT_OPTION, outputFormatOf } from '../output/output-format.js';
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
  summary: 'Store a bearer credential for an HTTP upstream that answered 401, and reconnect it',
  usage: '<server> (--token T | --token-stdin) [options]',
  description: [
    'The credential is kept in the gateway\'s store (never in the configuration file) and sent as',
    'Authorization: Bearer on every connection to that upstream. The gateway reconnects at once;',
    'this command waits up to 10s for the outcome: exit 0 when the server is ready (the',
    'oauth_required verdict clears), 1 when the upstream still refuses the credential.',
    'Prefer --token-stdin: a token on the command line is visible to other local users.',
    'Needs the admin API key.',
  ].join('\n'),
  options: {
    token: { type: 'string', label: '--token T', description: 'The upstream bearer token' },
    'token-stdin': { type: 'boolean', label: '--token-stdin', description: 'Read the upstream bearer token from standard input' },
    ...OUTPUT_OPTION,
    ...LOGIN_CONNECTION_OPTIONS,
  },
  positionals: { min: 1, max: 1, name: 'server name' },
  examples: ['printf %s "$GITHUB_TOKEN" | mcpproxy auth login github --token-stdin', 'mcpproxy auth login github --token ghp_example'],
  async run(context: CommandContext) {
    const { values, io } = context;
    const format = outputFormatOf(values);
    const name = context.positionals[0]!;
    const flagToken = values['token'] as string | undefined;
    const fromStdin = values['token-stdin'] === true;
    if ((flagToken !== undefined) === fromStdin) throw usageError('give exactly one of --token T or --token-stdin');
    const token = (fromStdin ? await io.readStdin() : flagToken ?? '').trim();
    if (token === '') throw usageError(fromStdin ? 'standard input held no token' : '--token is empty');

    const client = restClientFor(context, { tokenFlagIsConnection: false });
    await client.call('loginServer', { params: { name }, body: { token } });
    const server = await settled(client, name);
    if (server.state === 'pending_auth') throw new CliError('gateway', `stored the credential, but ${name} still answers 401: check the token${server.last_error === undefined ? '' : ` (${server.last_error})`}`);
    if (server.state === 'error' || server.state === 'disconnected') throw new CliError('gateway', `stored the credential, but ${name} did not connect: ${server.last_error ?? server.state}`);
    printDocument(io, format, server, () =>
      `${server.state === 'ready' ? `Logged in: ${name} is ready.` : `Stored the credential; ${name} is still ${server.state ?? 'starting'}.`}\n${serverTable([server])}`,
    );
    return 0;
  },
};

async function settled(client: RestClient, name: string): Promise<ServerInfo> {
  const deadline = Date.now() + SETTLE_MS;
  for (;;) {
    const server = (await client.call('listServers')).servers.find((candidate) => candidate.name === name);
    if (server === undefined) throw new CliError('gateway', `server ${name} disappeared from the gateway`);
    if (!SETTLING.has(server.state ?? 'connecting') || Date.now() >= deadline) return server;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
