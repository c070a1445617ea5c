import { readFileSync } from 'node:fs';
import type { Implementation } from '@modelcontextprotocol/server';

/** The gateway's MCP identity; the version is the package's own (src/ and dist/ both sit next to package.json). */
export function gatewayServerInfo(): Implementation {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return { name: 'mcpproxy', version: typeof manifest.version === 'string' ? manifest.version : '0.0.0' };
}
