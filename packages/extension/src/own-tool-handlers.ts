import type { CallToolRequest, CallToolResult, ListToolsRequest, ListToolsResult, Server, ServerContext, Tool } from '@modelcontextprotocol/server';

export type ListToolsHandler = (request: ListToolsRequest, ctx: ServerContext) => ListToolsResult | Promise<ListToolsResult>;
export type CallToolHandler = (request: CallToolRequest, ctx: ServerContext) => CallToolResult | Promise<CallToolResult>;

/** What the extension registers in place of the server's own tools/list and tools/call handlers. */
export interface ToolHandlerWrappers {
  /** Serves tools/list once the server registered its own (which `page` then reads). */
  readonly listTools: ListToolsHandler;
  /** Serves tools/call around the server's own (absent: the server's own is registered as it is). */
  readonly callTool?: (own: CallToolHandler) => CallToolHandler;
}

/** The most pages a check reads of a server's listing before it gives up (no verdict). */
export const MAX_LISTING_PAGES = 1000;

/**
 * The server's own tools/list and tools/call, as it registers them after the extension attached
 * (the SDK's McpServer registers both with its first tool): each registration is replaced by the
 * extension's wrapper. Nothing reads SDK internals: the server hands its handlers over by
 * registering them.
 */
export class OwnToolHandlers {
  #listTools: ListToolsHandler | undefined;

  /** `extraTools`: tools the extension serves itself (the check-mode tool), listed after the server's own on its last page. */
  constructor(
    server: Server,
    wrappers: ToolHandlerWrappers,
    private readonly extraTools: readonly Tool[] = [],
  ) {
    const register = server.setRequestHandler.bind(server) as (method: string, ...rest: unknown[]) => void;
    server.setRequestHandler = ((method: string, ...rest: unknown[]) => {
      const [handler] = rest;
      if (rest.length === 1 && typeof handler === 'function') {
        if (method === 'tools/list') {
          this.#listTools = handler as ListToolsHandler;
          return register(method, wrappers.listTools);
        }
        if (method === 'tools/call' && wrappers.callTool !== undefined) return register(method, wrappers.callTool(handler as CallToolHandler));
      }
      return register(method, ...rest);
    }) as Server['setRequestHandler'];
  }

  /**
   * One page of the listing as served: the server's own (an empty one while it has registered none),
   * and on its last page the extra tools. Without extras it is the server's own result object itself.
   */
  async page(cursor: string | undefined, ctx: ServerContext): Promise<ListToolsResult> {
    const own = this.#listTools === undefined ? { tools: [] } : await this.#listTools({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, ctx);
    if (this.extraTools.length === 0 || own.nextCursor !== undefined) return own;
    return { ...own, tools: [...own.tools, ...this.extraTools] };
  }

  /**
   * Every tool of the listing as served, page after page from the first; `first` is a first page
   * already at hand. A listing that loops or runs past MAX_LISTING_PAGES is refused (no verdict).
   */
  async all(ctx: ServerContext, first?: ListToolsResult): Promise<readonly Tool[]> {
    let page = first ?? (await this.page(undefined, ctx));
    const tools: Tool[] = [...page.tools];
    const seen = new Set<string>();
    for (let pages = 1; page.nextCursor !== undefined; pages++) {
      if (pages >= MAX_LISTING_PAGES || seen.has(page.nextCursor)) throw new Error(`the server's tools/list did not end within ${MAX_LISTING_PAGES} pages`);
      seen.add(page.nextCursor);
      page = await this.page(page.nextCursor, ctx);
      tools.push(...page.tools);
    }
    return tools;
  }
}
