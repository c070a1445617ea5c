import type { Client, Tool } from '@modelcontextprotocol/client';
import { toolHash } from './tool-hash.js';

/** One tool as indexed: its definition as listed, and its sha256/v1 hash. */
export interface ListedTool {
  readonly definition: Tool;
  readonly hash: string;
}

const MAX_PAGES = 10_000;

/**
 * Walks every tools/list page (each request with its own timeout), and indexes the tools by
 * name in the upstream's order. A name listed twice keeps its first definition; a cursor that
 * repeats ends the walk instead of looping forever.
 */
export async function listUpstreamTools(client: Client, timeoutMs: number): Promise<ReadonlyMap<string, ListedTool>> {
  const tools = new Map<string, ListedTool>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    // A raw request, page by page: Client.listTools() without a cursor walks and caches pages
    // itself, with its own page cap.
    const result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, { timeout: timeoutMs });
    for (const tool of result.tools) {
      if (!tools.has(tool.name)) tools.set(tool.name, { definition: tool, hash: toolHash(tool) });
    }
    cursor = result.nextCursor;
    if (cursor === undefined || cursors.has(cursor)) break;
    cursors.add(cursor);
  }
  return tools;
}
