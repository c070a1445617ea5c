import type { AuthStatus } from '@mcpproxy/schema';
import type { CommandContext, CommandSpec } from '../command-spec.js';
import { CONNECTION_OPTIONS } from '../connection/connection-settings.js';
import { OUTPUT_OPTION, outputFormatOf } from '../output/output-format.js';
import { printDocument } from '../output/print-document.js';
import { textTable } from '../output/text-table.js';
import { restClientFor } from '../rest/command-rest-client.js';

export const authStatus: CommandSpec = {
  words: ['auth', 'status'],
  summary: 'Each server\'s login: not needed, needed or logged in; expiry, refresh, scopes',
  usage: '[options]',
  description: 'Never shows a token. Needs the admin API key.',
  options: { ...OUTPUT_OPTION, ...CONNECTION_OPTIONS },
  positionals: { min: 0, max: 0, name: '' },
  examples: ['mcpproxy auth status', 'mcpproxy auth status -o json'],
  async run(context: CommandContext) {
    const format = outputFormatOf(context.values);
    const list = await restClientFor(context).call('authStatus');
    printDocument(context.io, format, list, () => authTable(list.servers));
    return 0;
  },
};

/** NAME LOGIN METHOD EXPIRES REFRESH SCOPES NOTE */
function authTable(servers: readonly AuthStatus[]): string {
  if (servers.length === 0) return 'No servers.\n';
  const rows = servers.map((server) => [
    server.name,
    server.login.replace('_', ' '),
    server.method === undefined ? '-' : server.method === 'oauth' ? `oauth (${server.client ?? 'registered'} client)` : 'token',
    server.expires_at ?? '-',
    server.refreshable === undefined ? '-' : server.refreshable ? 'yes' : 'no',
    server.scopes === undefined || server.scopes.length === 0 ? '-' : server.scopes.join(' '),
    server.login === 'needed' ? `mcpproxy auth login ${server.name}${server.last_error === undefined ? '' : ` (${server.last_error})`}` : '-',
  ]);
  return `${textTable(['NAME', 'LOGIN', 'METHOD', 'EXPIRES', 'REFRESH', 'SCOPES', 'TO DO'], rows).join('\n')}\n`;
}
