import { PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';

/**
 * Whether the SDK's routing predicate (`isLegacyRequest`) is certain to send this POST body to the
 * 2026-07-28 leg, so that asking it can be skipped: it classifies the body with schema checks that
 * cost as much as the rest of a small request, and the 2026-07-28 leg classifies the same body again.
 *
 * Certain when the body is one JSON-RPC object (not a batch, not a posted response: no `result` or
 * `error`) that names a method other than `initialize` and carries the per-request envelope claim
 * (`params._meta["io.modelcontextprotocol/protocolVersion"]`, valid or not). The SDK answers every
 * such body on its 2026-07-28 leg: served there, or refused there by its own checks (a malformed
 * envelope, a header that disagrees, a revision it does not serve). `initialize` is left to the
 * predicate, which sends it to the legacy handshake unless its claim is a valid modern one.
 * test/modern-envelope-claim.test.ts holds this against the SDK's own predicate.
 */
export function certainlyModern(body: unknown): boolean {
  if (!isPlainObject(body) || Object.hasOwn(body, 'result') || Object.hasOwn(body, 'error')) return false;
  const method = body['method'];
  if (typeof method !== 'string' || method === 'initialize') return false;
  const params = body['params'];
  if (!isPlainObject(params)) return false;
  const meta = params['_meta'];
  return isPlainObject(meta) && Object.hasOwn(meta, PROTOCOL_VERSION_META_KEY);
}

function isPlainObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
