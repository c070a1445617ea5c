import type { OAuthDiscoveryState, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { JsonObject, UpstreamOAuthRecord } from '../store/store.js';

/** The discovery part of the record: what the SDK found, and the resource indicator it chose (RFC 8707). */
export interface StoredDiscovery {
  readonly state?: OAuthDiscoveryState;
  readonly resource?: string;
  /** Scope the upstream asked for since the last login (403 insufficient_scope): the next login asks for it too. */
  readonly wanted_scope?: string;
}

/** A login started and waiting for its redirect. The state itself is never stored, only its SHA-256. */
export interface PendingLogin {
  readonly state_sha256: string;
  readonly code_verifier: string;
  readonly redirect_uri: string;
  /** Milliseconds since the epoch. */
  readonly expires_at: number;
}

export function storedDiscovery(record: UpstreamOAuthRecord): StoredDiscovery | undefined {
  return record.discovery as StoredDiscovery | undefined;
}

export function storedTokens(record: UpstreamOAuthRecord): StoredOAuthTokens | undefined {
  return record.tokens as StoredOAuthTokens | undefined;
}

export function pendingLogin(record: UpstreamOAuthRecord): PendingLogin | undefined {
  const pending = record.pending as Partial<PendingLogin> | undefined;
  if (pending === undefined || typeof pending.state_sha256 !== 'string' || typeof pending.code_verifier !== 'string') return undefined;
  if (typeof pending.redirect_uri !== 'string' || typeof pending.expires_at !== 'number') return undefined;
  return pending as PendingLogin;
}

export function withDiscovery(record: UpstreamOAuthRecord, state: OAuthDiscoveryState): UpstreamOAuthRecord {
  return { ...record, discovery: asJson({ ...storedDiscovery(record), state }) };
}

export function withWantedScope(record: UpstreamOAuthRecord, scope: string | undefined): UpstreamOAuthRecord {
  const { wanted_scope: _old, ...discovery } = storedDiscovery(record) ?? {};
  const next = { ...discovery, ...(scope === undefined || scope === '' ? {} : { wanted_scope: scope }) };
  const { discovery: _previous, ...rest } = record;
  return Object.keys(next).length === 0 ? rest : { ...rest, discovery: asJson(next) };
}

export function withResource(record: UpstreamOAuthRecord, resource: string): UpstreamOAuthRecord {
  return { ...record, discovery: asJson({ ...storedDiscovery(record), resource }) };
}

/** New tokens, with when the access token expires (`now` + expires_in); a refresh that sent no new refresh token keeps the old one. */
export function withTokens(record: UpstreamOAuthRecord, tokens: StoredOAuthTokens, now: number): UpstreamOAuthRecord {
  const { tokens_expire_at: _previous, ...rest } = record;
  const expiresIn = typeof tokens.expires_in === 'number' && tokens.expires_in > 0 ? tokens.expires_in : undefined;
  return { ...rest, tokens: asJson({ ...tokens }), ...(expiresIn === undefined ? {} : { tokens_expire_at: now + expiresIn * 1000 }) };
}

export function withoutTokens(record: UpstreamOAuthRecord): UpstreamOAuthRecord {
  const { tokens: _tokens, tokens_expire_at: _expiry, ...rest } = record;
  return rest;
}

export function withPending(record: UpstreamOAuthRecord, pending: PendingLogin | undefined): UpstreamOAuthRecord {
  const { pending: _old, ...rest } = record;
  return pending === undefined ? rest : { ...rest, pending: asJson(pending) };
}

function asJson(value: object): JsonObject {
  return value as JsonObject;
}
