// The floor under the gateway's RSS in the comparison with mcp-hub: the MCP SDK 2.x alone, serving the
// same 1,000 tools on both revisions and doing nothing else (no upstream connection, no store, no
// preflight). The fixture upstream is that process: the SDK's own handlers (one McpServer per
// 2026-07-28 request, 2025-11-25 sessions on its Streamable HTTP transport) over a static tool list.
// It runs twice: with the server package alone, and with the client package loaded too, which any
// gateway needs for its upstreams. The packages load as installed (one ES module per file), as the
// gateway loads them; whatever the gateway adds sits on top of this. It is not the SDK's code at its
// smallest: mcp-hub 4.2.1 ships as one bundled file (its SDK 1.x-era code speaks revisions up to
// 2025-06-18), and the same two processes bundled (esbuild, minified) read below mcp-hub (BENCHMARKS.md).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildHandle } from './child-process-handle.js';

export interface SdkFloor {
  /** Which packages it loaded: 'server package' or 'server and client packages'. */
  readonly label: string;
  readonly child: ChildHandle;
  /** Its Streamable HTTP endpoint (127.0.0.1, a port of its own choosing). */
  readonly url: string;
}

/**
 * Starts both floor processes (the fixture upstream at `fixture`, over HTTP, serving `tools`) with
 * `v8Flags` on their command lines; `spawn` starts each child (the caller stops them). Files go under `dir`.
 */
export async function startSdkFloors(
  dir: string,
  fixture: string,
  tools: readonly unknown[],
  v8Flags: readonly string[],
  spawn: (command: string, args: readonly string[]) => ChildHandle,
): Promise<SdkFloor[]> {
  const file = join(dir, 'sdk-floor.tools.json');
  writeFileSync(file, JSON.stringify(tools));
  const serve = ['--http', '0', '--tools', file, '--name', 'sdk-floor'];
  // An --import of the client package's entry loads it as the gateway's own import does (ESM, same
  // file), before the fixture's modules.
  const client = import.meta.resolve('@modelcontextprotocol/client');
  const variants = [
    { label: 'server package', args: [...v8Flags, fixture, ...serve] },
    { label: 'server and client packages', args: [...v8Flags, '--import', client, fixture, ...serve] },
  ];
  return Promise.all(
    variants.map(async ({ label, args }) => {
      const child = spawn(process.execPath, args);
      const line = (await child.waitFor(/^\{"url".*\}$/m, 30_000))[0];
      return { label, child, url: (JSON.parse(line) as { url: string }).url };
    }),
  );
}
