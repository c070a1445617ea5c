// A gateway started the way a user of the installed @mcpproxy/cli starts one: `npx mcpproxy serve
// --config <file>` in the consumer project, on a free loopback port, its data directory and API key
// in the project, and by default one upstream: the installed server package's fixture upstream
// (its demo tools) over stdio.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startService, type RunningService } from './bounded-command.js';
import { cleanEnv } from './consumer-project.js';

const START_TIMEOUT_MS = 60_000;

export interface InstalledGateway {
  /** The REST origin (http://127.0.0.1:<port>), the CLI's --url. */
  readonly origin: string;
  /** The MCP endpoint (<origin>/mcp). */
  readonly mcpUrl: string;
  readonly apiKey: string;
  readonly service: RunningService;
}

function demoServers(projectDir: string): Record<string, unknown>[] {
  const upstream = join(projectDir, 'node_modules', '@mcpproxy', 'server', 'dist', 'fixture-upstream', 'main.js');
  return [{ name: 'demo', command: process.execPath, args: [upstream, '--demo'], quarantined: false }];
}

export async function startInstalledGateway(projectDir: string, servers = demoServers(projectDir)): Promise<InstalledGateway> {
  const apiKey = randomBytes(24).toString('hex');
  const dataDir = join(projectDir, 'gateway-data');
  mkdirSync(dataDir, { recursive: true });
  const config = {
    listen: '127.0.0.1:0',
    data_dir: dataDir,
    api_key: apiKey,
    tool_quarantine: false,
    servers,
  };
  const file = join(projectDir, 'config.json');
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`);
  const { service, match } = await startService('npx', ['mcpproxy', 'serve', '--config', file], {
    cwd: projectDir,
    env: cleanEnv(),
    timeoutMs: START_TIMEOUT_MS,
    ready: /serving MCP at (http:\/\/127\.0\.0\.1:\d+)\/mcp /,
  });
  const origin = match[1]!;
  return { origin, mcpUrl: `${origin}/mcp`, apiKey, service };
}
