import { EXTENSION_ID } from '@mcpproxy/schema';
import type { Advertisement } from './carriage-client.js';

/** The extension's entry in a 2025-11-25 `experimental` capability map, when it is an object. */
function entryOf(capabilities: unknown): object | undefined {
  if (typeof capabilities !== 'object' || capabilities === null) return undefined;
  const experimental = (capabilities as { experimental?: unknown }).experimental;
  if (typeof experimental !== 'object' || experimental === null || !Object.hasOwn(experimental, EXTENSION_ID)) return undefined;
  const entry = (experimental as Record<string, unknown>)[EXTENSION_ID];
  return typeof entry === 'object' && entry !== null ? entry : undefined;
}

/**
 * What a server's 2025-11-25 capabilities (the initialize result's) say about the extension;
 * `unknownWhy` when the runtime's client does not let us read them (not an object).
 */
export function advertisementOf(serverCapabilities: unknown, unknownWhy: string): Advertisement {
  if (typeof serverCapabilities !== 'object' || serverCapabilities === null) return { state: 'unknown', why: unknownWhy };
  const entry = entryOf(serverCapabilities);
  if (entry === undefined) return { state: 'absent' };
  const version = (entry as { version?: unknown }).version;
  return { state: 'advertised', ...(version === undefined ? {} : { version }) };
}

/**
 * Whether a client's own 2025-11-25 capabilities (what it declared at initialize) mirror the
 * extension; undefined when they cannot be read, and then the rider itself is the probe (a facet
 * comes back only when the mirror was declared).
 */
export function mirrorDeclared(clientCapabilities: unknown): boolean | undefined {
  if (typeof clientCapabilities !== 'object' || clientCapabilities === null) return undefined;
  return entryOf(clientCapabilities) !== undefined;
}
