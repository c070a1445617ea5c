import type { GatewayConfig, OAuthClientConfig } from '@mcpproxy/schema';
import type { ConfigIssue } from './config-cross-checks.js';

/** A server's OAuth client with its secret read: what the gateway logs in with. */
export interface ResolvedOAuthClient {
  readonly client_id?: string;
  readonly client_secret?: string;
  readonly scopes?: readonly string[];
}

export type OAuthClientsResult =
  | { readonly ok: true; readonly clients: ReadonlyMap<string, ResolvedOAuthClient> }
  | { readonly ok: false; readonly issues: readonly ConfigIssue[] };

/**
 * Reads each `oauth.client_secret_env` from the environment, so the secret never has to sit in the
 * file. An unset or empty variable is a configuration error naming the server and the variable: a
 * gateway that started without it would fail only at the first login, far from the cause.
 */
export function resolveOAuthClients(config: GatewayConfig, env: Readonly<Record<string, string | undefined>>): OAuthClientsResult {
  const clients = new Map<string, ResolvedOAuthClient>();
  const issues: ConfigIssue[] = [];
  config.servers.forEach((server, i) => {
    const oauth: OAuthClientConfig | undefined = server.oauth;
    if (oauth === undefined) return;
    let secret = oauth.client_secret;
    if (oauth.client_secret_env !== undefined) {
      secret = env[oauth.client_secret_env];
      if (secret === undefined || secret === '') {
        issues.push({
          path: `/servers/${i}/oauth/client_secret_env`,
          message: `server "${server.name}": the environment variable ${oauth.client_secret_env} (its OAuth client secret) is ${secret === undefined ? 'not set' : 'empty'}`,
        });
        return;
      }
    }
    clients.set(server.name, {
      ...(oauth.client_id === undefined ? {} : { client_id: oauth.client_id }),
      ...(secret === undefined ? {} : { client_secret: secret }),
      ...(oauth.scopes === undefined ? {} : { scopes: oauth.scopes }),
    });
  });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, clients };
}
