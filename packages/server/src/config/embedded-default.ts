import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { GatewayConfig } from '@mcpproxy/schema';

export const DEMO_SERVER_NAME = 'demo';

/**
 * The configuration `mcpproxy serve` runs on without a file: defaults everywhere and one
 * bundled demo upstream (the fixture server from this package's dist, with its demo tools),
 * not quarantined, so a new user sees working tools at once.
 */
export function embeddedDefaultConfig(): GatewayConfig {
  return {
    servers: [
      {
        name: DEMO_SERVER_NAME,
        command: process.execPath,
        args: [demoUpstreamScript(), '--demo', '--name', 'mcpproxy-demo'],
        quarantined: false,
      },
    ],
  };
}

/** dist/fixture-upstream/main.js of this package, found from wherever this module runs (src or dist). */
export function demoUpstreamScript(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return join(dir, 'dist', 'fixture-upstream', 'main.js');
}
