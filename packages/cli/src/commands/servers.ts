import type { ServerInfo } from '@mcpproxy/schema';
import type { CommandContext, CommandSpec } from '../command-spec.js';
import { CONNECTION_OPTIONS } from '../connection/connection-settings.js';
import { OUTPUT_OPTION, outputFormatOf } from '../output/output-format.js';
import { printDocument } from '../output/print-document.js';
import { textTable } from '../output/text-table.js';
import { restClientFor } from '../rest/command-rest-client.js';

export const serversList: CommandSpec = {
  words: ['servers', 'list'],
  summary: 'List upstream servers: flags, connection state, last error, tool counts',
  usage: '[options]',
  options: { ...OUTPUT_OPTION, ...CONNECTION_OPTIONS },
  positionals: { min: 0, max: 0, name: '' },
  examples: ['mcpproxy servers list', 'mcpproxy servers list -o yaml'],
  async run(context: CommandContext) {
    const format = outputFormatOf(context.values);
    const list = await restClientFor(context).call('listServers');
    printDocument(context.io, format, list, () => serverTable(list.servers));
    return 0;
  },
};

type ServerAction = 'quarantine' | 'unquarantine' | 'enable' | 'disable' | 'restart';

const ACTIONS: Readonly<Record<ServerAction, { operation: `${ServerAction}Server`; summary: string; done: string }>> = {
  quarantine: { operation: 'quarantineServer', summary: 'Quarantine a server: its tools are no longer served or callable', done: 'Quarantined' },
  unquarantine: { operation: 'unquarantineServer', summary: 'Release a server from quarantine, approving the tools it lists now', done: 'Released from quarantine:' },
  enable: { operation: 'enableServer', summary: 'Enable a server (connects to it again)', done: 'Enabled' },
  disable: { operation: 'disableServer', summary: 'Disable a server (disconnects it; preflight: server_disabled)', done: 'Disabled' },
  restart: { operation: 'restartServer', summary: 'Drop a server\'s connection and reconnect', done: 'Restarting' },
};

function serverAction(action: ServerAction): CommandSpec {
  const { operation, summary, done } = ACTIONS[action];
  return {
    words: ['servers', action],
    summary,
    usage: '<server> [options]',
    description: 'Needs the admin API key. The change is persisted before the gateway answers.',
    options: { ...OUTPUT_OPTION, ...CONNECTION_OPTIONS },
    positionals: { min: 1, max: 1, name: 'server name' },
    examples: [`mcpproxy servers ${action} github`],
    async run(context: CommandContext) {
      const format = outputFormatOf(context.values);
      const name = context.positionals[0]!;
      const server = await restClientFor(context).call(operation, { params: { name } });
      printDocument(context.io, format, server, () => `${done} ${name}.\n${serverTable([server])}`);
      return 0;
    },
  };
}

export const serverActions: readonly CommandSpec[] = (Object.keys(ACTIONS) as ServerAction[]).map(serverAction);

/** NAME STATE ENABLED QUARANTINED SERVED/LISTED LAST_ERROR */
export function serverTable(servers: readonly ServerInfo[]): string {
  if (servers.length === 0) return 'No servers.\n';
  const rows = servers.map((server) => [
    server.name,
    server.state ?? '-',
    server.enabled ? 'yes' : 'no',
    server.quarantined ? 'yes' : 'no',
    `${server.tools.served}/${server.tools.indexed}`,
    server.last_error === undefined ? '-' : `${server.last_error}${server.diagnostic_action === undefined ? '' : ` (action: ${server.diagnostic_action})`}`,
  ]);
  const table = `${textTable(['NAME', 'STATE', 'ENABLED', 'QUARANTINED', 'SERVED/LISTED', 'LAST_ERROR'], rows).join('\n')}\n`;
  return table + servers.map(notServedLines).join('');
}

/** The listed tools a server does not serve, one line each, so the operator sees why. */
function notServedLines(server: ServerInfo): string {
  return (server.invalid_tools ?? [])
    .map((entry) => `Not served by ${server.name}: ${entry.name ?? '(no name)'} (listing position ${entry.position}): ${entry.reason}\n`)
    .join('');
}
