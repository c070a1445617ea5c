import type { TokenCreate, TokenInfo } from '@mcpproxy/schema';
import { usageError } from '../cli-error.js';
import type { CommandContext, CommandSpec } from '../command-spec.js';
import { CONNECTION_OPTIONS } from '../connection/connection-settings.js';
import { OUTPUT_OPTION, outputFormatOf } from '../output/output-format.js';
import { printDocument } from '../output/print-document.js';
import { textTable } from '../output/text-table.js';
import { restClientFor } from '../rest/command-rest-client.js';

export const tokensCreate: CommandSpec = {
  words: ['tokens', 'create'],
  summary: 'Create an agent token scoped to some servers (the secret is printed once)',
  usage: '--name N --servers a,b [--profile P] [options]',
  description: 'The gateway keeps only the SHA-256 of the secret: copy it now. Use "*" in --servers for every server. Needs the admin API key.',
  options: {
    name: { type: 'string', label: '--name N', description: 'The token\'s name (unique, also after revocation)' },
    servers: { type: 'string', label: '--servers a,b', description: 'Comma-separated server names the token may use, or *' },
    profile: { type: 'string', label: '--profile P', description: 'Pin the token to this profile' },
    ...OUTPUT_OPTION,
    ...CONNECTION_OPTIONS,
  },
  positionals: { min: 0, max: 0, name: '' },
  examples: ['mcpproxy tokens create --name ci --servers github,slack', "mcpproxy tokens create --name agent --servers '*' --profile research -o json"],
  async run(context: CommandContext) {
    const { values } = context;
    const format = outputFormatOf(values);
    const name = values['name'] as string | undefined;
    const servers = values['servers'] as string | undefined;
    if (name === undefined || name === '') throw usageError('missing --name (see: mcpproxy tokens create --help)');
    const allowed = (servers ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
    if (allowed.length === 0) throw usageError('missing --servers a,b (server names, or * for every server)');
    const profile = values['profile'] as string | undefined;
    const body: TokenCreate = { name, allowed_servers: allowed as [string, ...string[]], ...(profile === undefined ? {} : { profile }) };
    const created = await restClientFor(context).call('createToken', { body });
    printDocument(context.io, format, created, () =>
      [
        `Created agent token ${created.name} for ${created.allowed_servers.join(', ')}${created.profile === undefined ? '' : ` (profile ${created.profile})`}.`,
        'Its secret is shown this once; the gateway keeps only its hash:',
        '',
        `  ${created.token}`,
        '',
        `Use it with: MCPPROXY_TOKEN=<secret> mcpproxy tools preflight ..., or Authorization: Bearer <secret> on /mcp.`,
        '',
      ].join('\n'),
    );
    return 0;
  },
};

export const tokensList: CommandSpec = {
  words: ['tokens', 'list'],
  summary: 'List agent tokens (never their secrets)',
  usage: '[options]',
  options: { ...OUTPUT_OPTION, ...CONNECTION_OPTIONS },
  positionals: { min: 0, max: 0, name: '' },
  examples: ['mcpproxy tokens list', 'mcpproxy tokens list -o json'],
  async run(context: CommandContext) {
    const format = outputFormatOf(context.values);
    const list = await restClientFor(context).call('listTokens');
    printDocument(context.io, format, list, () => tokenTable(list.tokens));
    return 0;
  },
};

export const tokensRevoke: CommandSpec = {
  words: ['tokens', 'revoke'],
  summary: 'Revoke an agent token created with tokens create',
  usage: '<name> [options]',
  description: 'Tokens from the configuration file are removed there instead. Needs the admin API key.',
  options: { ...OUTPUT_OPTION, ...CONNECTION_OPTIONS },
  positionals: { min: 1, max: 1, name: 'token name' },
  examples: ['mcpproxy tokens revoke ci'],
  async run(context: CommandContext) {
    const format = outputFormatOf(context.values);
    const name = context.positionals[0]!;
    const token = await restClientFor(context).call('revokeToken', { params: { name } });
    printDocument(context.io, format, token, () => `Revoked ${name}.\n${tokenTable([token])}`);
    return 0;
  },
};

function tokenTable(tokens: readonly TokenInfo[]): string {
  if (tokens.length === 0) return 'No agent tokens.\n';
  const rows = tokens.map((token) => [token.name, token.source, token.allowed_servers.join(','), token.profile ?? '-', token.revoked ? 'yes' : 'no', token.created_at ?? '-']);
  return `${textTable(['NAME', 'SOURCE', 'SERVERS', 'PROFILE', 'REVOKED', 'CREATED'], rows).join('\n')}\n`;
}
