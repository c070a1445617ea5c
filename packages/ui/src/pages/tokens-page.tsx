import type { ServerInfo, TokenCreated, TokenInfo } from '@mcpproxy/schema';
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { GatewayClient } from '../api/gateway-client.js';
import { StatusLine, useActionStatus } from './action-status.js';

/** Agent tokens: create one (its secret is shown once, here, and never again), list, revoke. */
export function TokensPage({ client, servers }: { client: GatewayClient; servers: readonly ServerInfo[] }) {
  const [tokens, setTokens] = useState<readonly TokenInfo[]>([]);
  const [name, setName] = useState('');
  const [allowed, setAllowed] = useState<readonly string[]>([]);
  const [profile, setProfile] = useState('');
  const [created, setCreated] = useState<TokenCreated | undefined>(undefined);
  const status = useActionStatus();
  const reload = useCallback(() => client.tokens().then(setTokens), [client]);
  useEffect(() => {
    void reload().catch(() => undefined);
  }, [reload]);

  const create = (event: Event) => {
    event.preventDefault();
    setCreated(undefined);
    void status.run(async () => {
      if (allowed.length === 0) throw new Error('Choose the servers the token may use (or every server).');
      const token = await client.createToken(name.trim(), allowed, profile.trim() === '' ? undefined : profile.trim());
      setCreated(token);
      setName('');
      await reload();
      return `Token ${token.name} created.`;
    });
  };
  const revoke = (token: TokenInfo) =>
    status.run(async () => {
      await client.revokeToken(token.name);
      await reload();
      return `Token ${token.name} revoked: it is refused from now on.`;
    });
  const toggle = (server: string, on: boolean) => setAllowed(on ? [...allowed.filter((s) => s !== '*'), server] : allowed.filter((s) => s !== server));

  return (
    <>
      <form class="stack" onSubmit={create} noValidate>
        <h2>Create a token</h2>
        <label for="token-name">Name (letters, digits, _ . -)</label>
        <input id="token-name" value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} autoComplete="off" spellcheck={false} />
        <fieldset>
          <legend>Servers it may use</legend>
          <label class="check">
            <input type="checkbox" checked={allowed.includes('*')} onChange={(e) => setAllowed((e.target as HTMLInputElement).checked ? ['*'] : [])} />
            every server
          </label>
          {servers.map((server) => (
            <label key={server.name} class="check">
              <input type="checkbox" checked={allowed.includes(server.name)} disabled={allowed.includes('*')} onChange={(e) => toggle(server.name, (e.target as HTMLInputElement).checked)} />
              {server.name}
            </label>
          ))}
        </fieldset>
        <label for="token-profile">Profile pin (optional)</label>
        <input id="token-profile" value={profile} onInput={(e) => setProfile((e.target as HTMLInputElement).value)} autoComplete="off" />
        <button type="submit" class="primary">
          Create token
        </button>
      </form>
      <StatusLine status={status} />
      {created === undefined ? null : (
        <div class="secret" role="region" aria-label="New token secret">
          <p>
            The secret of <strong>{created.name}</strong>. Copy it now: the gateway keeps only its hash and will not show it again.
          </p>
          <label for="token-secret">Secret</label>
          <input id="token-secret" readOnly value={created.token} data-field="secret" spellcheck={false} />
        </div>
      )}
      <div class="scroll" tabIndex={0} role="region" aria-label="Tokens table">
        <table>
          <caption>Agent tokens</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Source</th>
              <th scope="col">Servers</th>
              <th scope="col">Profile</th>
              <th scope="col">Created</th>
              <th scope="col">Status</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={`${token.source}:${token.name}`} data-token={token.name}>
                <th scope="row">{token.name}</th>
                <td>{token.source === 'config' ? 'configuration file' : 'created here'}</td>
                <td>{token.allowed_servers.join(', ')}</td>
                <td>{token.profile ?? '—'}</td>
                <td>{token.created_at ?? '—'}</td>
                <td data-field="token-status">{token.revoked ? 'revoked' : 'active'}</td>
                <td class="actions">
                  {token.source === 'store' && !token.revoked ? (
                    <button type="button" onClick={() => revoke(token)} aria-label={`Revoke ${token.name}`}>
                      Revoke
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
