import { EXTENSION_ID } from '@mcpproxy/schema';
import type { Client } from '@modelcontextprotocol/client';
import { mirrorFor, type ExtensionSupport } from './extension-support.js';

const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

/**
 * `params._meta` for a request that negotiates the extension on its own. On 2026-07-28 the client
 * names its extensions per request, in `_meta["io.modelcontextprotocol/clientCapabilities"]`.
 * SDK 2.4.0 attaches that envelope key itself, but a `_meta` key the caller sets replaces the
 * SDK's whole value, so the SDK's own capabilities are taken from its envelope (a protected
 * method at run time) and the mirror is added to them. On 2025-11-25 the mirror was declared at
 * initialize and only the extension's own key rides the request.
 */
export function requestMeta(client: Client, support: ExtensionSupport, own: Record<string, unknown>): Record<string, unknown> {
  if (support.era === 'legacy') return own;
  const envelope = (client as unknown as { _outboundMetaEnvelope?: () => Record<string, unknown> | undefined })._outboundMetaEnvelope?.call(client);
  const capabilities = (envelope?.[CLIENT_CAPABILITIES_KEY] ?? {}) as { extensions?: Record<string, unknown> };
  return {
    ...own,
    [CLIENT_CAPABILITIES_KEY]: { ...capabilities, extensions: { ...capabilities.extensions, [EXTENSION_ID]: mirrorFor(support) } },
  };
}
