import { EXTENSION_ID, SETTINGS_VERSION } from '@mcpproxy/schema';
import type { Client } from '@modelcontextprotocol/client';

/** What the server advertised for the extension, and whether this session can carry the rider. */
export interface ExtensionSupport {
  readonly era: 'legacy' | 'modern';
  /** The server advertised the identifier (experimental at initialize, or extensions in server/discover). */
  readonly advertised: boolean;
  /** The advertised settings version, when one was given. */
  readonly version?: unknown;
  /**
   * Whether this session mirrors the extension: on 2026-07-28 always (preflight adds the mirror to
   * the request); on 2025-11-25 only when the client declared it at initialize. `undefined`: the
   * SDK does not let us see the client's own capabilities, so the rider is tried and its answer tells.
   */
  readonly mirrored: boolean | undefined;
}

/** The SDK client's view of the connection, read without assuming more than SDK 2.4.0 offers. */
export function extensionSupport(client: Client): ExtensionSupport {
  const era = client.getProtocolEra?.() === 'modern' ? 'modern' : 'legacy';
  const capabilities = client.getServerCapabilities() as { experimental?: Record<string, unknown>; extensions?: Record<string, unknown> } | undefined;
  const settings = era === 'modern' ? (capabilities?.extensions?.[EXTENSION_ID] ?? capabilities?.experimental?.[EXTENSION_ID]) : capabilities?.experimental?.[EXTENSION_ID];
  const advertised = typeof settings === 'object' && settings !== null;
  const version = advertised ? (settings as { version?: unknown }).version : undefined;
  return { era, advertised, ...(version === undefined ? {} : { version }), mirrored: era === 'modern' ? true : declaredAtInitialize(client) };
}

/**
 * A server settings version this client can negotiate with: absent (the default) or any settings
 * version. A later one only adds or deprecates codes, which this client reads as permanent,
 * non-retryable and blocked; an earlier one emits only codes this client knows. Either way the
 * answer is one it can use, so only a version that is not a settings version at all is refused.
 */
export function negotiableVersion(support: { readonly version?: unknown }): boolean {
  const version = support.version;
  return version === undefined || (typeof version === 'number' && Number.isInteger(version) && version >= 1);
}

/**
 * The mirror this client sends a server per request (2026-07-28): the lower of the two settings
 * versions, since a server answers a mirror of its own version or an earlier one, never a later.
 */
export function mirrorFor(support: ExtensionSupport): { readonly version: number } {
  const version = support.version;
  return { version: typeof version === 'number' && Number.isInteger(version) && version >= 1 ? Math.min(version, SETTINGS_VERSION) : SETTINGS_VERSION };
}

/**
 * The client's own capabilities as given at construction: SDK 2.4.0 keeps them in a private
 * field. Reading it is the only way to know what initialize declared; if the field is not
 * there (another SDK version), the answer is "unknown" and the rider itself is the probe.
 */
function declaredAtInitialize(client: Client): boolean | undefined {
  const own = (client as unknown as { _capabilities?: { experimental?: Record<string, unknown> } })._capabilities;
  if (typeof own !== 'object' || own === null) return undefined;
  const mirror = own.experimental?.[EXTENSION_ID];
  if (typeof mirror !== 'object' || mirror === null) return false;
  const version = (mirror as { version?: unknown }).version;
  return version === undefined || version === SETTINGS_VERSION;
}
