import type { AuthStatus, ServerInfo } from '@mcpproxy/schema';
import { useEffect, useState } from 'preact/hooks';
import type { GatewayClient } from '../api/gateway-client.js';

export interface AuthStatusView {
  readonly logins: ReadonlyMap<string, AuthStatus>;
  /** Why the logins could not be read the last time. */
  readonly error?: string;
}

/**
 * Each server's login as GET /api/v1/auth has it, read again whenever an HTTP server's connection
 * state changes (a login that finishes reconnects its server; a refused refresh makes it
 * pending_auth): the event stream carries servers, not logins.
 */
export function useAuthStatus(client: GatewayClient, servers: readonly ServerInfo[]): AuthStatusView {
  const [view, setView] = useState<AuthStatusView>({ logins: new Map() });
  const key = servers
    .filter((server) => server.transport === 'http')
    .map((server) => `${server.name}=${server.state ?? ''}`)
    .join('\n');
  useEffect(() => {
    if (key === '') return undefined;
    let current = true;
    client.authStatus().then(
      (list) => {
        if (current) setView({ logins: new Map(list.map((status) => [status.name, status])) });
      },
      (error: unknown) => {
        if (current) setView((before) => ({ logins: before.logins, error: error instanceof Error ? error.message : String(error) }));
      },
    );
    return () => {
      current = false;
    };
  }, [client, key]);
  return view;
}
