import { EXTENSION_ID, SETTINGS_VERSION } from '@mcpproxy/schema';

/** The client's mirror of the extension, `{ version: 1 }`. */
export const EXTENSION_MIRROR = { version: SETTINGS_VERSION } as const;

/**
 * The client capabilities a harness passes to `new Client(info, { capabilities })`, so that the
 * session mirrors the extension. On 2025-11-25 this is the only place the mirror can go (it is
 * read from initialize, and the SDK refuses registerCapabilities once connected); on 2026-07-28
 * `preflight` also adds it to each request's clientCapabilities, so it works without this too.
 * Merge with the harness's own capabilities: pass them as `base`.
 */
export function requiredToolsCapabilities<T extends { experimental?: Record<string, object>; extensions?: Record<string, object> }>(base?: T): T & {
  experimental: Record<string, object>;
  extensions: Record<string, object>;
} {
  return {
    ...(base as T),
    experimental: { ...base?.experimental, [EXTENSION_ID]: { ...EXTENSION_MIRROR } },
    extensions: { ...base?.extensions, [EXTENSION_ID]: { ...EXTENSION_MIRROR } },
  };
}
