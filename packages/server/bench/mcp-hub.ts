import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const MCP_HUB_VERSION = '4.2.1';

/**
 * Installs mcp-hub into `dir` (a temp directory outside the repository) with the ordinary npm
 * client. Returns its CLI path, or why it cannot be used.
 */
export async function installMcpHub(dir: string): Promise<{ ok: true; cli: string } | { ok: false; reason: string }> {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true }));
  try {
    await run('npm', ['install', `mcp-hub@${MCP_HUB_VERSION}`, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, timeout: 180_000 });
  } catch (error) {
    return { ok: false, reason: `npm install mcp-hub@${MCP_HUB_VERSION} failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const cli = join(dir, 'node_modules', 'mcp-hub', 'dist', 'cli.js');
  return existsSync(cli) ? { ok: true, cli } : { ok: false, reason: 'mcp-hub installed without dist/cli.js' };
}

/** mcp-hub's config for stdio upstreams (its `mcpServers` format). */
export function mcpHubConfig(servers: readonly { name: string; command: string; args: readonly string[] }[]): string {
  return JSON.stringify({ mcpServers: Object.fromEntries(servers.map((s) => [s.name, { command: s.command, args: s.args }])) });
}
