import { EXTENSION_ID } from '@mcpproxy/schema';

/**
 * A 2025-11-25 request whose params hold a required-tools rider and nothing else, split into the
 * request without its params and the params. The SDK's session transport checks every POSTed message
 * with schema parses before any handler runs (the message schema, and `isInitializeRequest` twice,
 * a parse that fails for anything but initialize); a failing parse of a message that has params costs
 * about three times one of a message without (it reports every issue it finds in them), and none of
 * those checks reads the extension's member of `_meta`. So a rider's listing paid for that on top of
 * what its check costs. The transport is handed such a request without params, and the message gets
 * them back before the server sees it (PreparedJsonSessionTransport). Anything else in params (a
 * cursor, a progress token, any other `_meta` member) leaves the request as it is: the transport's
 * parse may refuse those.
 */
export function withoutRiderOnlyParams(body: unknown): { readonly body: Readonly<Record<string, unknown>>; readonly params: Readonly<Record<string, unknown>> } | undefined {
  if (!isRecord(body) || typeof body['method'] !== 'string' || !Object.hasOwn(body, 'id')) return undefined;
  const params = body['params'];
  if (!isRecord(params) || !hasOnlyKey(params, '_meta')) return undefined;
  const meta = params['_meta'];
  if (!isRecord(meta) || !hasOnlyKey(meta, EXTENSION_ID)) return undefined;
  const { params: _aside, ...rest } = body;
  return { body: rest, params };
}

function hasOnlyKey(value: Readonly<Record<string, unknown>>, key: string): boolean {
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === key;
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
