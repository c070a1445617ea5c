import type { CommandContext, CommandSpec } from '../command-spec.js';
import { CONNECTION_OPTIONS } from '../connection/connection-settings.js';
import { OUTPUT_OPTION, outputFormatOf } from '../output/output-format.js';
import { printDocument } from '../output/print-document.js';
import { restClientFor } from '../rest/command-rest-client.js';
import { serverTable } from './servers.js';

export const authLogout: CommandSpec = {
  words: ['auth', 'logout'],
  summary: 'Forget an HTTP upstream\'s stored login (OAuth tokens and registration, or bearer token)',
  usage: '<server> [options]',
  description: 'The gateway reconnects without a credential; an upstream that needs one answers 401 again (preflight: oauth_required). Needs the admin API key.',
  options: { ...OUTPUT_OPTION, ...CONNECTION_OPTIONS },
  positionals: { min: 1, max: 1, name: 'server name' },
  examples: ['mcpproxy auth logout github'],
  async run(context: CommandContext) {
    const format = outputFormatOf(context.values);
    const name = context.positionals[0]!;
    const server = await restClientFor(context).call('logoutServer', { params: { name } });
    printDocument(context.io, format, server, () => `Logged out of ${name}.\n${serverTable([server])}`);
    return 0;
  },
};
