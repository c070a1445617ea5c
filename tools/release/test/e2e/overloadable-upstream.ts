// The installed @mcpproxy/server's fixture upstream over Streamable HTTP (one echo tool), with its
// overload switch in reach: the switch file is rewritten and the fixture told to re-read it (SIGHUP).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startService, type RunningService } from './bounded-command.js';
import { cleanEnv } from './consumer-project.js';

export const OVERLOADED_TOOL = 'work';

export interface OverloadableUpstream {
  /** Its MCP endpoint, for a gateway's `url` server. */
  readonly url: string;
  readonly service: RunningService;
  /** {} answers normally; {"status": 429, "retry_after": "600"} answers tools/call with that status. */
  overload(answer: Readonly<Record<string, unknown>>): void;
}

export async function startOverloadableUpstream(projectDir: string): Promise<OverloadableUpstream> {
  const fixture = join(projectDir, 'node_modules', '@mcpproxy', 'server', 'dist', 'fixture-upstream', 'main.js');
  const tools = join(projectDir, 'upstream.tools.json');
  const switchFile = join(projectDir, 'upstream.overload.json');
  writeFileSync(tools, JSON.stringify([{ name: OVERLOADED_TOOL, echo: true, annotations: { readOnlyHint: true } }]));
  writeFileSync(switchFile, '{}');
  const { service, match } = await startService(process.execPath, [fixture, '--http', '0', '--tools', tools, '--overload', switchFile], {
    cwd: projectDir,
    env: cleanEnv(),
    timeoutMs: 30_000,
    ready: /"url":"(http:\/\/127\.0\.0\.1:\d+\/mcp)"/,
  });
  return {
    url: match[1]!,
    service,
    overload: (answer) => {
      writeFileSync(switchFile, JSON.stringify(answer));
      process.kill(service.pid, 'SIGHUP');
    },
  };
}
