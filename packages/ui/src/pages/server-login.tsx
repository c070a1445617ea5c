import type { AuthStatus, OAuthLoginStarted, ServerInfo } from '@mcpproxy/schema';
import type { GatewayClient } from '../api/gateway-client.js';

/** A server's login in the Servers table: whether one is needed, or who logged in until when with which scopes. Never a token. */
export function LoginSummary({ server, login, onLogIn }: { server: ServerInfo; login: AuthStatus | undefined; onLogIn: () => void }) {
  if (server.transport !== 'http') return <span class="muted">not needed (stdio)</span>;
  if (login?.login === 'needed' || server.state === 'pending_auth') {
    return (
      <>
        <span class="badge state-pending_auth">needed</span>
        <button type="button" onClick={onLogIn} aria-label={`Log in to ${server.name}`}>
          Log in
        </button>
      </>
    );
  }
  if (login?.login !== 'logged_in') return <span class="muted">{login === undefined ? '…' : 'not needed'}</span>;
  return (
    <>
      <span class="badge state-ready">logged in</span> {login.method === 'token' ? 'bearer token' : 'OAuth'}
      {login.expires_at === undefined ? null : <div class="muted">until {new Date(login.expires_at).toLocaleString()}{login.refreshable === true ? ', renewed before then' : ''}</div>}
      {login.scopes === undefined || login.scopes.length === 0 ? null : <div class="muted">scopes: {login.scopes.join(' ')}</div>}
    </>
  );
}

/**
 * Starts an OAuth login whose redirect the gateway receives, and sends a new tab to the authorization
 * server. The tab is opened in the click itself (one opened after the request would be a popup a
 * browser may block) and cut from this page before it leaves for the authorization server.
 */
export async function startLoginInNewTab(client: GatewayClient, server: string): Promise<OAuthLoginStarted> {
  const tab = window.open('', '_blank');
  try {
    const started = await client.startOAuthLogin(server);
    if (tab !== null) {
      tab.opener = null;
      tab.location.replace(started.authorization_url);
    }
    return started;
  } catch (error) {
    tab?.close();
    throw error;
  }
}

/** What happens next, once a login started: where the browser comes back to, and until when. */
export function LoginStarted({ started }: { started: OAuthLoginStarted }) {
  return (
    <p class="note" role="status" data-field="login-started">
      Log in to {started.server} in the new tab (
      <a href={started.authorization_url} target="_blank" rel="noopener noreferrer">
        open the authorization page
      </a>{' '}
      if none opened). The authorization server sends the browser back to <code>{started.redirect_uri}</code>, where the gateway
      receives it until {new Date(started.expires_at).toLocaleTimeString()}: this browser must run on the gateway's machine (from
      another one, run <code>mcpproxy auth login {started.server}</code> there).
    </p>
  );
}
