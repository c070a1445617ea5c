import { activityList } from './commands/activity-list.js';
import { authLogin } from './commands/auth-login.js';
import { authLogout } from './commands/auth-logout.js';
import { authStatus } from './commands/auth-status.js';
import { serve } from './commands/serve.js';
import { serverActions, serversList } from './commands/servers.js';
import { tokensCreate, tokensList, tokensRevoke } from './commands/tokens.js';
import { toolsApprove } from './commands/tools-approve.js';
import { toolsList } from './commands/tools-list.js';
import { toolsPreflight } from './commands/tools-preflight.js';
import { toolsDisable, toolsEnable } from './commands/tools-toggle.js';
import type { CommandSpec } from './command-spec.js';

/** Every command, in the order `mcpproxy --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  serve,
  toolsPreflight,
  toolsList,
  toolsApprove,
  toolsDisable,
  toolsEnable,
  serversList,
  ...serverActions,
  activityList,
  tokensCreate,
  tokensList,
  tokensRevoke,
  authLogin,
  authStatus,
  authLogout,
];

/** The groups (first words) with a one-line description each. */
export const GROUPS: Readonly<Record<string, string>> = {
  tools: 'Preflight, list, approve, disable and enable tools',
  servers: 'List upstream servers and act on them',
  activity: 'Browse the activity log',
  tokens: 'Create, list and revoke agent tokens',
  auth: 'Log in to upstream servers (OAuth or a token), see and forget logins',
};
