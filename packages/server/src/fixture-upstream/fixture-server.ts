import { ProtocolError, Server } from '@modelcontextprotocol/server';
import { serveFixtureContent, type FixtureContent } from './fixture-content.js';
import type { FixtureEvents } from './fixture-events.js';
import type { FixtureOverload } from './fixture-overload.js';
import { runAskTool } from './fixture-ask.js';
import { runProgressTool } from './fixture-progress.js';
import type { CallToolResult, ListToolsResult, Tool } from '@modelcontextprotocol/server';
import type { FixtureTool } from './fixture-tools.js';

/** The name of the unlisted control tool that makes the fixture exit (an "unhealthy" upstream). */
export const EXIT_TOOL = 'exit';

export interface FixtureCatalog {
  /** The current tool list (replaced on SIGHUP). */
  tools(): readonly FixtureTool[];
  /** tools/list page size; 0 = everything in one page. */
  readonly pageSize: number;
  readonly serverName: string;
  /** Called when the control tool is invoked. */
  exit(): void;
  /** The current overload switch (replaced on SIGHUP). */
  overload?(): FixtureOverload;
  /** Where cancellations and the answers to its own requests are recorded (`--events-file`). */
  readonly events: FixtureEvents;
  /** Resources and prompts (replaced on SIGHUP); served, with their capabilities, only when the file has any. */
  content?(): FixtureContent;
}

/**
 * One low-level SDK server over the catalog. Low-level, because the fixture lists tool
 * definitions exactly as the tools file gives them (raw JSON Schema, annotations, _meta).
 */
export function createFixtureServer(catalog: FixtureCatalog): Server {
  const content = catalog.content?.();
  const hasContent = content !== undefined && (content.resources.length > 0 || content.prompts.length > 0);
  const server = new Server(
    { name: catalog.serverName, version: '1.0.0' },
    {
      capabilities: {
        tools: { listChanged: true },
        ...(hasContent ? { resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true } } : {}),
      },
    },
  );
  if (hasContent && catalog.content !== undefined) serveFixtureContent(server, catalog.content, catalog.events);

  server.setRequestHandler('tools/list', (request): ListToolsResult => {
    const tools = catalog.tools().map((tool) => tool.definition as unknown as Tool);
    if (catalog.pageSize <= 0) return { tools };
    const start = decodeCursor(request.params?.cursor);
    const end = start + catalog.pageSize;
    return { tools: tools.slice(start, end), ...(end < tools.length ? { nextCursor: String(end) } : {}) };
  });

  server.setRequestHandler('tools/call', async (request, ctx): Promise<CallToolResult> => {
    const { name } = request.params;
    const args = request.params.arguments ?? {};
    const overload = catalog.overload?.();
    if (overload?.kind === 'json_rpc') throw new ProtocolError(overload.code, overload.message);
    const tool = catalog.tools().find((candidate) => candidate.definition.name === name);
    if (tool === undefined) {
      if (name === EXIT_TOOL) {
        // Answer first, then go away: the caller sees the result, the gateway sees the exit.
        setTimeout(() => catalog.exit(), 20);
        return { content: [{ type: 'text', text: 'exiting' }] };
      }
      return { isError: true, content: [{ type: 'text', text: `unknown tool: ${name}` }] };
    }
    if (tool.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, tool.delayMs));
    switch (tool.behavior.kind) {
      case 'echo':
        return { content: [{ type: 'text', text: JSON.stringify(args) }], structuredContent: args };
      case 'error':
        return { isError: true, content: [{ type: 'text', text: tool.behavior.message }] };
      case 'canned':
        return tool.behavior.result as CallToolResult;
      case 'progress':
        return runProgressTool(name, tool.behavior.steps, tool.behavior.intervalMs, ctx, catalog.events);
      case 'ask':
        return runAskTool(name, tool.behavior.method, tool.behavior.params, ctx, catalog.events);
    }
  });

  return server;
}

function decodeCursor(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  const start = Number.parseInt(cursor, 10);
  return Number.isInteger(start) && start >= 0 ? start : 0;
}
