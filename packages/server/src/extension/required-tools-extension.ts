import { EXTENSION_ID, MAX_TOOLS, SETTINGS_VERSION, type Settings } from '@mcpproxy/schema';
import type { CallToolResult, ProtocolEra, Server, ServerCapabilities, ServerContext } from '@modelcontextprotocol/server';
import { runCheckMode } from './check-mode.js';
import type { RequiredToolsSource } from './required-tools-source.js';
import { listToolsWithRider } from './rider-carrier.js';
import { resolveTool, ResolveParamsSchema, TOOL_RESOLUTION_EXTENSION_ID, TOOLS_RESOLVE_METHOD } from './tools-resolve.js';

export interface RequiredToolsExtensionOptions {
  /** The server's state, seen from the caller of each request. */
  readonly source: RequiredToolsSource;
}

export interface RequiredToolsAttachOptions {
  /**
   * The revision this server instance serves, when the serving entry knows it (the factory of
   * `createMcpHandler`, `serveStdio` or a session registry is told). Then the extension is
   * advertised only where that revision puts it: 2025-11-25 in `capabilities.experimental` at
   * initialize, 2026-07-28 in `capabilities.extensions` of server/discover. Absent: both.
   */
  readonly era?: ProtocolEra;
}

/**
 * The `app.mcpproxy/required-tools` MCP extension, packaged the way the SDK packages its own
 * (an `id` and `attach(server)`): it serves tools/list with the Shape A rider, tools/resolve with
 * the Shape B facet, and describe_tool-style check mode for a host that has such a tool, all from
 * one {@link RequiredToolsSource}. One instance may serve any number of servers that share a source.
 */
export class RequiredToolsExtension {
  readonly id = EXTENSION_ID;
  /** The settings object the server advertises; `max_tools` is informational (the cap is fixed in v1). */
  readonly settings: Settings = { version: SETTINGS_VERSION, max_tools: MAX_TOOLS };
  readonly #source: RequiredToolsSource;
  readonly #attached = new WeakSet<Server>();

  constructor(options: RequiredToolsExtensionOptions) {
    this.#source = options.source;
  }

  /**
   * Serves the extension on `server`: registers tools/list (the source gives the core listing, so
   * the server must not register its own) and tools/resolve, then declares the capabilities. Must
   * run before connecting; attaching again to the same server does nothing.
   */
  attach(server: Server, options: RequiredToolsAttachOptions = {}): void {
    if (this.#attached.has(server)) return;
    if (server.transport !== undefined) throw new Error(`attach ${EXTENSION_ID} before connecting the server`);
    server.assertCanSetRequestHandler('tools/list');
    server.assertCanSetRequestHandler(TOOLS_RESOLVE_METHOD);
    server.registerCapabilities(this.#capabilities(options.era));
    server.setRequestHandler('tools/list', (request, ctx) => listToolsWithRider(server, this.#source, request, ctx));
    server.setRequestHandler(TOOLS_RESOLVE_METHOD, { params: ResolveParamsSchema }, (params, ctx) => resolveTool(server, this.#source, params, ctx));
    this.#attached.add(server);
  }

  /** describe_tool check mode for a host tool that offers it: the arguments as the caller sent them. */
  checkMode(args: Readonly<Record<string, unknown>>, ctx: ServerContext): Promise<CallToolResult> {
    return runCheckMode(this.#source, args, ctx);
  }

  #capabilities(era: ProtocolEra | undefined): ServerCapabilities {
    const advertised = { [this.id]: { ...this.settings }, [TOOL_RESOLUTION_EXTENSION_ID]: {} };
    return {
      tools: {},
      ...(era === 'modern' ? {} : { experimental: advertised }),
      ...(era === 'legacy' ? {} : { extensions: advertised }),
    };
  }
}
