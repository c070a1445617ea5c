import { randomBytes } from 'node:crypto';
import { strictValidators, type TokenCreated, type TokenInfo } from '@mcpproxy/schema';
import { sha256Hex } from '../http/agent-token-lookup.js';
import type { GatewayRuntime } from '../state/gateway-runtime.js';
import type { RestCredentials } from '../auth/rest-authentication.js';
import type { Store, StoredAgentToken } from '../store/store.js';
import { apiError } from './api-error.js';
import type { RestEndpoint } from './rest-endpoint.js';
import { validatedBody } from './validated-body.js';

/** A token from the configuration file, as far as listing it goes (never its secret or hash). */
export interface ConfigTokenView {
  readonly name: string;
  readonly allowed_servers: readonly string[];
  readonly profile?: string;
}

export interface TokenEndpointDeps {
  readonly store: Pick<Store, 'createAgentToken' | 'listAgentTokens' | 'revokeAgentToken'>;
  readonly runtime: Pick<GatewayRuntime, 'current'>;
  readonly configTokens: readonly ConfigTokenView[];
  /** The admin key and the config tokens: a new secret must be neither. */
  readonly credentials: RestCredentials;
  /** Told after a token was revoked, to end what it has open. */
  readonly onRevoked?: (name: string) => void;
  /** Draws a new secret (tests inject one that collides). */
  readonly newSecret?: () => string;
}

/** Fresh draws before giving up; with 256 random bits even a second one never happens. */
const SECRET_ATTEMPTS = 3;

/** Agent tokens at run time (operator only): create (the secret is shown once), list, revoke. */
export function tokenEndpoints(deps: TokenEndpointDeps): RestEndpoint[] {
  const { store, runtime, configTokens, credentials } = deps;
  const newSecret = deps.newSecret ?? (() => `mcpp_${randomBytes(32).toString('base64url')}`);
  // A secret that is also the admin key would answer at the operator tier, one that is also a config
  // token with that token's scope (config tokens are matched first): neither may be handed out.
  const freshSecret = async (): Promise<string | undefined> => {
    for (let attempt = 0; attempt < SECRET_ATTEMPTS; attempt++) {
      const secret = newSecret();
      if (!credentials.adminKey.matches(secret) && (await credentials.tokens.find(secret)) === undefined) return secret;
    }
    return undefined;
  };
  const configNames = new Set(configTokens.map((token) => token.name));

  const create: RestEndpoint = {
    method: 'POST',
    path: '/tokens',
    operatorOnly: true,
    async handle(request) {
      const checked = await validatedBody(request, strictValidators.TokenCreate, (issue) => `Invalid token: ${issue?.message ?? 'bad body'}`);
      if (!checked.ok) return checked.reply;
      const { name, allowed_servers, profile } = checked.value;
      const snapshot = runtime.current().snapshot;
      const wildcard = allowed_servers.includes('*');
      for (const [i, server] of allowed_servers.entries()) {
        if (wildcard && allowed_servers.length > 1) return apiError(400, 'invalid_body', '"*" (every server) must be the only entry of allowed_servers', `/allowed_servers/${i}`);
        if (server !== '*' && !snapshot.servers.has(server)) return apiError(400, 'invalid_body', `No server named ${server} is configured`, `/allowed_servers/${i}`);
      }
      if (profile !== undefined && !snapshot.profiles.has(profile)) return apiError(400, 'unknown_profile', `Unknown profile ${JSON.stringify(profile)}`, '/profile');
      if (configNames.has(name)) return apiError(409, 'conflict', `A token named ${name} is defined in the configuration`, '/name');
      let secret: string | undefined;
      let created;
      try {
        secret = await freshSecret();
        if (secret === undefined) return apiError(500, 'internal', 'Could not create a unique token; try again');
        created = await store.createAgentToken({ name, token_sha256: sha256Hex(secret), allowed_servers, ...(profile === undefined ? {} : { profile }) });
      } catch {
        return apiError(503, 'state_unavailable', 'The token could not be stored; no token was created');
      }
      if (!created.ok) {
        return created.code === 'token_name_taken'
          ? apiError(409, 'conflict', `A token named ${name} exists (revoked names stay taken)`, '/name')
          : apiError(500, 'internal', 'Could not create a unique token; try again');
      }
      const body201: TokenCreated = { ...storedInfo(created.token), source: 'store', token: secret, created_at: created.token.created_at, revoked: false };
      return { status: 201, body: body201 };
    },
  };

  const list: RestEndpoint = {
    method: 'GET',
    path: '/tokens',
    operatorOnly: true,
    async handle() {
      let stored: StoredAgentToken[];
      try {
        stored = await store.listAgentTokens();
      } catch {
        return apiError(503, 'state_unavailable', 'The token list could not be read');
      }
      const tokens: TokenInfo[] = [
        ...[...configTokens].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(configInfo),
        ...stored.map(storedInfo),
      ];
      return { status: 200, body: { tokens } };
    },
  };

  const revoke: RestEndpoint = {
    method: 'DELETE',
    path: '/tokens/{name}',
    operatorOnly: true,
    async handle(request) {
      const name = request.params['name']!;
      if (configNames.has(name)) return apiError(409, 'conflict', `Token ${name} is defined in the configuration; remove it there`, 'name');
      let token: StoredAgentToken | undefined;
      try {
        await store.revokeAgentToken(name);
        token = (await store.listAgentTokens()).find((candidate) => candidate.name === name);
      } catch {
        return apiError(503, 'state_unavailable', 'The token could not be revoked');
      }
      if (token === undefined) return apiError(404, 'not_found', `No token named ${name}`, 'name');
      deps.onRevoked?.(name);
      return { status: 200, body: storedInfo(token) };
    },
  };
  return [create, list, revoke];
}

function configInfo(token: ConfigTokenView): TokenInfo {
  return { name: token.name, source: 'config', allowed_servers: [...token.allowed_servers], ...(token.profile === undefined ? {} : { profile: token.profile }), revoked: false };
}

function storedInfo(token: StoredAgentToken): TokenInfo & { created_at: string } {
  return {
    name: token.name,
    source: 'store',
    allowed_servers: [...token.allowed_servers],
    ...(token.profile === undefined ? {} : { profile: token.profile }),
    created_at: token.created_at,
    revoked: token.revoked,
  };
}
