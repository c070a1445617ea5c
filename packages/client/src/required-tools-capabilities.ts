import { EXTENSION_ID, SETTINGS_VERSION } from '@mcpproxy/schema';
import type { ClientCapabilities } from '@modelcontextprotocol/client';

/** The client's mirror of the extension, `{ version: 1 }`. */
export const EXTENSION_MIRROR = { version: SETTINGS_VERSION } as const;

/**
 * The client capabilities a harness passes to `new Client(info, { capabilities })`, so that the
 * session mirrors the extension: in `experimental` (2025-11-25: read from initialize; the SDK
 * refuses registerCapabilities once connected, so this is the only place) and in `extensions`
 * (2026-07-28; `preflight` also adds it to each request, so there it works without this too).
 * The harness's own capabilities, given as `base`, are kept.
 */
export function requiredToolsCapabilities(base: ClientCapabilities = {}): ClientCapabilities {
  return {
    ...base,
    experimental: { ...base.experimental, [EXTENSION_ID]: { ...EXTENSION_MIRROR } },
    extensions: { ...base.extensions, [EXTENSION_ID]: { ...EXTENSION_MIRROR } },
  };
}
