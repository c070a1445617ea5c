import type { OAuthLoginStarted, ServerInfo } from '@mcpproxy/schema';
import { useState } from 'preact/hooks';
import type { GatewayClient, ServerAction } from '../api/gateway-client.js';
import { useAuthStatus } from '../live/auth-status.js';
import type { LiveGateway } from '../live/live-gateway.js';
import { StatusLine, useActionStatus } from './action-status.js';
import { LoginStarted, LoginSummary, startLoginInNewTab } from './server-login.js';

/**
 * Every configured server: connection state, flags, login, last error, tool counts, and the operator's
 * actions, among them an OAuth login where an HTTP upstream asks for one.
 */
export function ServersPage({ client, gateway }: { client: GatewayClient; gateway: LiveGateway }) {
  const status = useActionStatus();
  const auth = useAuthStatus(client, gateway.servers);
  const [started, setStarted] = useState<OAuthLoginStarted | undefined>(undefined);
  const logIn = (server: ServerInfo) =>
    status.run(async () => {
      setStarted(undefined);
      setStarted(await startLoginInNewTab(client, server.name));
      return `${server.name}: login started.`;
    });
  const act = (server: ServerInfo, action: ServerAction) =>
    status.run(async () => {
      const after = await client.serverAction(server.name, action);
      await gateway.reload();
      return `${server.name}: ${action} done (${describeState(after)}).`;
    });
  return (
    <>
      <StatusLine status={status} />
      {started === undefined ? null : <LoginStarted started={started} />}
      {auth.error === undefined ? null : (
        <p class="error" role="alert">
          Could not read the logins: {auth.error}
        </p>
      )}
      <div class="scroll" tabIndex={0} role="region" aria-label="Servers table">
        <table>
          <caption>Configured upstream servers</caption>
          <thead>
            <tr>
              <th scope="col">Server</th>
              <th scope="col">State</th>
              <th scope="col">Flags</th>
              <th scope="col">Login</th>
              <th scope="col">Tools</th>
              <th scope="col">Last error</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {gateway.servers.map((server) => (
              <tr key={server.name} data-server={server.name}>
                <th scope="row">
                  {server.name} <span class="muted">({server.transport})</span>
                </th>
                <td data-field="state">
                  <span class={`badge state-${server.state ?? 'none'}`}>{describeState(server)}</span>
                </td>
                <td data-field="flags">
                  {server.enabled ? 'enabled' : 'disabled'}
                  {server.quarantined ? ', quarantined' : ''}
                </td>
                <td data-field="login">
                  <LoginSummary server={server} login={auth.logins.get(server.name)} onLogIn={() => logIn(server)} />
                </td>
                <td>
                  {server.tools.served} served of {server.tools.indexed} listed
                  {server.tools.pending > 0 ? `, ${server.tools.pending} pending` : ''}
                  {server.tools.changed > 0 ? `, ${server.tools.changed} changed` : ''}
                  {server.tools.user_disabled > 0 ? `, ${server.tools.user_disabled} disabled` : ''}
                  {(server.invalid_tools?.length ?? 0) > 0 ? `, ${server.invalid_tools!.length} invalid` : ''}
                </td>
                <td class="wrap">{server.last_error ?? '—'}</td>
                <td class="actions">
                  {server.enabled ? (
                    <button type="button" onClick={() => act(server, 'disable')} aria-label={`Disable ${server.name}`}>
                      Disable
                    </button>
                  ) : (
                    <button type="button" onClick={() => act(server, 'enable')} aria-label={`Enable ${server.name}`}>
                      Enable
                    </button>
                  )}
                  {server.quarantined ? (
                    <button type="button" onClick={() => act(server, 'unquarantine')} aria-label={`Unquarantine ${server.name} (approves its current tools)`}>
                      Unquarantine
                    </button>
                  ) : (
                    <button type="button" onClick={() => act(server, 'quarantine')} aria-label={`Quarantine ${server.name}`}>
                      Quarantine
                    </button>
                  )}
                  <button type="button" onClick={() => act(server, 'restart')} disabled={!server.enabled} aria-label={`Restart ${server.name}`}>
                    Restart
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function describeState(server: ServerInfo): string {
  if (!server.enabled) return 'disabled';
  return server.state ?? 'starting';
}
