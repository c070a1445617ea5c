import { EXTENSION_ID, MAX_TOOLS, SETTINGS_VERSION, type Settings } from '@mcpproxy/schema';
import type { CallToolResult, ListToolsResult, McpServer, ProtocolEra, RequestId, Server, ServerCapabilities, ServerContext } from '@modelcontextprotocol/server';
import { BatchAwareResolveParams, isBatchShaped, refuseAsSingle, resolveBatch } from './batch-resolve.js';
import { CHECK_MODE_TOOL, runCheckMode } from './check-mode.js';
import { CHECK_MODE_TOOL_DEFINITION } from './check-mode-tool.js';
import { enabledExperiments, grantedExperiments, requestedExperiments, type ExtensionExperiment } from './experimental-opt-in.js';
import { runInBandCheck, type ActivitySink, type InBandCheckOptions } from './in-band-check.js';
import type { InBandOutcome, InBandSurface } from './in-band-outcome.js';
import { OwnToolHandlers } from './own-tool-handlers.js';
import { pingWithRider } from './ping-carrier.js';
import { envelopeDeclaration } from './negotiation.js';
import { carryFacet, listToolsWithRider } from './rider-carrier.js';
import { declaredRiderFacet } from './rider-facet.js';
import { gatewayStateSource, toolStateSource, type GatewayState, type ListingReader, type StateSource } from './state-source.js';
import { callbackAvailability, snapshotAvailability, type ToolAvailabilityCallbacks, type ToolStateReader } from './tool-availability.js';
import { resolveTool, ResolveParamsSchema, TOOL_RESOLUTION_EXTENSION_ID, TOOLS_RESOLVE_METHOD } from './tools-resolve.js';

/**
 * What a server gives the extension: where its state comes from (exactly one of `state`,
 * `availability`, `gateway`) and where the activity records go. Everything else (validating the
 * rider, the 50-tool cap, dedup, the agent tier, the wire shapes) is the extension's.
 */
export interface RequiredToolsExtensionOptions {
  /** A snapshot of why any tool is unavailable, read once per check: `{ [toolName]: undefined | { reason, ... } }` (or a Map). */
  readonly state?: ToolStateReader;
  /** One callback per tool name, `(ctx) => undefined | { reason, ... }`, asked only about the tools a check names. */
  readonly availability?: ToolAvailabilityCallbacks;
  /** For a server that aggregates others and keeps an @mcpproxy/evaluator snapshot of them (the gateway). */
  readonly gateway?: GatewayState;
  /** Receives each check's activity record before the answer goes out; a throw or rejection means no verdict. */
  readonly activity: ActivitySink;
  /** Also serve describe_tool check mode as a tool of the server (on its own tools/list and tools/call). */
  readonly checkModeTool?: boolean;
  /**
   * Prototypes of the repository's decision records this server may serve (docs/decisions/), each
   * only to a client that also asks for it by name (`experimental: { pins: true }` in its
   * declaration of the extension): `pins`, pin_hash on rider entries (needs `gateway`: only an
   * evaluator snapshot holds tool hashes); `error_facet`; `batch_resolve`, tools/resolve naming 1-50
   * tools at once (docs/decisions/0004); `ping_carrier`, the rider on ping (docs/decisions/0001). Absent or empty: exactly the settings-version behaviour,
   * for every client.
   */
  readonly experiments?: Iterable<ExtensionExperiment>;
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
 * The `app.mcpproxy/required-tools` MCP extension, packaged the way the SDK packages its own (an
 * `id` and `attach(server)`): on the server's own tools/list it carries the Shape A rider, it adds
 * tools/resolve with the Shape B facet, and it answers describe_tool check mode, all from one state
 * source. One instance may serve any number of servers (one per request, per session...).
 */
export class RequiredToolsExtension {
  readonly id = EXTENSION_ID;
  /** The settings object the server advertises; `max_tools` is informational (the cap is fixed in v1). */
  readonly settings: Settings = { version: SETTINGS_VERSION, max_tools: MAX_TOOLS };
  readonly #source: StateSource;
  readonly #activity: ActivitySink;
  readonly #checkModeTool: boolean;
  readonly #experiments: ReadonlySet<ExtensionExperiment>;
  readonly #attached = new WeakMap<Server, OwnToolHandlers>();

  constructor(options: RequiredToolsExtensionOptions) {
    this.#source = stateSourceOf(options);
    if (typeof options.activity !== 'function') throw new TypeError(`${EXTENSION_ID}: activity must be a function (record) => void: every check writes an activity record`);
    this.#activity = options.activity;
    this.#checkModeTool = options.checkModeTool === true;
    this.#experiments = enabledExperiments(options.experiments);
    if (this.#experiments.has('pins') && options.gateway === undefined) {
      throw new TypeError(`${EXTENSION_ID}: the pins experiment needs the gateway state source (only an evaluator snapshot holds tool hashes)`);
    }
  }

  /**
   * Serves the extension on `server` (an SDK `Server`, or an `McpServer`): adds tools/resolve,
   * declares the capability, and carries the rider on the tools/list the server registers from now
   * on, so attach before it does (an `McpServer` registers it with its first tool). Must run before
   * connecting; attaching again to the same server does nothing. Refused, and the server left as it
   * was, when it is connected or already handles tools/list or tools/resolve.
   */
  attach(target: Server | McpServer, options: RequiredToolsAttachOptions = {}): void {
    const server = lowLevelServer(target);
    if (this.#attached.has(server)) return;
    if (server.transport !== undefined) throw new Error(`attach ${EXTENSION_ID} before connecting the server`);
    assertNotYetRegistered(server, 'tools/list', 'the extension carries its rider on the tools/list the server registers after attach (an McpServer registers it with its first tool)');
    if (this.#checkModeTool) assertNotYetRegistered(server, 'tools/call', 'the check-mode tool answers on the tools/call the server registers after attach');
    server.assertCanSetRequestHandler(TOOLS_RESOLVE_METHOD);

    const own: OwnToolHandlers = new OwnToolHandlers(
      server,
      {
        listTools: (request, ctx) => {
          const granted = requestedExperiments(server, ctx, this.#experiments);
          const options = granted.has('pins') ? { pins: true } : {};
          return listToolsWithRider(server, own, request, ctx, (rider, listing) => this.#check('mcp-rider', rider, ctx, listing, options), granted);
        },
        ...(this.#checkModeTool
          ? { callTool: (serverOwn) => (request, ctx) => (request.params.name === CHECK_MODE_TOOL ? this.#checkModeOn(own, request.params.arguments, ctx) : serverOwn(request, ctx)) }
          : {}),
      },
      this.#checkModeTool ? [CHECK_MODE_TOOL_DEFINITION] : [],
    );
    server.registerCapabilities(this.#capabilities(options.era));
    const resolving = (ctx: ServerContext) => {
      const listing: ListingReader = () => own.all(ctx);
      return {
        servedTool: (name: string) => this.#source.servedTool(name, ctx, listing),
        check: (raw: unknown) => this.#check('mcp-resolve', raw, ctx, listing),
      };
    };
    if (this.#experiments.has('batch_resolve')) {
      // Only batch-shaped params take the new path, and only for a client that asked; every other
      // request is validated and answered exactly as below.
      server.setRequestHandler(TOOLS_RESOLVE_METHOD, { params: BatchAwareResolveParams }, (params, ctx) => {
        if (!isBatchShaped(params)) return resolveTool(server, params, ctx, resolving(ctx));
        return requestedExperiments(server, ctx, this.#experiments).has('batch_resolve') ? resolveBatch(params, ctx, resolving(ctx)) : refuseAsSingle(params);
      });
    } else {
      server.setRequestHandler(TOOLS_RESOLVE_METHOD, { params: ResolveParamsSchema }, (params, ctx) => resolveTool(server, params, ctx, resolving(ctx)));
    }
    if (this.#experiments.has('ping_carrier')) {
      // The SDK answers ping itself with an empty result; the experiment takes over only that answer.
      server.setRequestHandler('ping', (_request, ctx) => {
        const granted = requestedExperiments(server, ctx, this.#experiments);
        return pingWithRider(server, ctx, (rider) => this.#check('mcp-rider', rider, ctx, () => own.all(ctx), granted.has('pins') ? { pins: true } : {}), granted);
      });
    }
    this.#attached.set(server, own);
  }

  /**
   * tools/list on 2026-07-28 for a server that answers it without an SDK server instance: one that
   * keeps its listing as prepared bytes and, once the SDK's checks of the request (envelope,
   * standard headers) pass, answers a plain listing itself instead of building a server per request
   * (the gateway). `page` is the page it serves, `request` the request's id and `params._meta`
   * (the envelope and the rider). The answer is the one an attached server gives: `page` itself
   * when there is no rider or the request did not negotiate the extension; otherwise
   * `carryFacet(page, facet, true)`, its activity record written first. A malformed rider, or no
   * honest verdict, throws the same ProtocolError. The state source's callbacks get a context that
   * holds only `mcpReq` (id, method, `_meta`, envelope). Not for a server that also serves the
   * check-mode tool (its last page lists that tool too): attach instead.
   */
  async modernListing(page: ListToolsResult, request: { readonly id: RequestId; readonly meta: Readonly<Record<string, unknown>> }, listing: ListingReader): Promise<ListToolsResult> {
    if (this.#checkModeTool) throw new TypeError(`${EXTENSION_ID}: modernListing cannot serve the check-mode tool's listing; attach the extension to a server instead`);
    const { id, meta } = request;
    const ctx = { mcpReq: { id, method: 'tools/list', _meta: meta, envelope: meta } } as unknown as ServerContext;
    const declaration = () => envelopeDeclaration(meta, EXTENSION_ID);
    const granted = grantedExperiments(declaration(), this.#experiments);
    const options = granted.has('pins') ? { pins: true } : {};
    const facet = await declaredRiderFacet(meta, declaration, (rider) => this.#check('mcp-rider', rider, ctx, listing, options), granted);
    return facet === undefined ? page : carryFacet(page, facet, true);
  }

  /**
   * describe_tool check mode, for a server with a describe_tool of its own (the gateway's also
   * describes tools): `args` as the caller sent them; a tool error saying no verdict was computed
   * when the check cannot be answered.
   */
  checkMode(target: Server | McpServer, args: unknown, ctx: ServerContext): Promise<CallToolResult> {
    const own = this.#attached.get(lowLevelServer(target));
    return runCheckMode(args, (raw) => this.#check('mcp-check', raw, ctx, () => (own === undefined ? Promise.resolve([]) : own.all(ctx))));
  }

  #checkModeOn(own: OwnToolHandlers, args: unknown, ctx: ServerContext): Promise<CallToolResult> {
    return runCheckMode(args, (raw) => this.#check('mcp-check', raw, ctx, () => own.all(ctx)));
  }

  #check(surface: InBandSurface, raw: unknown, ctx: ServerContext, listing: ListingReader, options: InBandCheckOptions = {}): Promise<InBandOutcome> {
    return runInBandCheck(this.#source, this.#activity, surface, raw, ctx, listing, options);
  }

  #capabilities(era: ProtocolEra | undefined): ServerCapabilities {
    const advertised = { [this.id]: { ...this.settings }, [TOOL_RESOLUTION_EXTENSION_ID]: {} };
    return {
      ...(era === 'modern' ? {} : { experimental: advertised }),
      ...(era === 'legacy' ? {} : { extensions: advertised }),
    };
  }
}

function stateSourceOf(options: RequiredToolsExtensionOptions): StateSource {
  const given = (['state', 'availability', 'gateway'] as const).filter((key) => options[key] !== undefined);
  if (given.length !== 1) {
    throw new TypeError(`${EXTENSION_ID}: give exactly one of state, availability or gateway (got ${given.length === 0 ? 'none' : given.join(', ')})`);
  }
  if (options.state !== undefined) {
    if (typeof options.state !== 'function') throw new TypeError(`${EXTENSION_ID}: state must be a function (ctx) => { [toolName]: undefined | { reason, ... } }`);
    return toolStateSource(snapshotAvailability(options.state));
  }
  if (options.availability !== undefined) return toolStateSource(callbackAvailability(options.availability));
  return gatewayStateSource(options.gateway!);
}

/** The SDK's low-level Server behind an McpServer (which has one as `server`), or the Server itself. */
function lowLevelServer(target: Server | McpServer): Server {
  return 'registerTool' in target && typeof target.registerTool === 'function' ? target.server : (target as Server);
}

function assertNotYetRegistered(server: Server, method: string, why: string): void {
  try {
    server.assertCanSetRequestHandler(method);
  } catch {
    throw new Error(`attach ${EXTENSION_ID} before the server registers ${method}: ${why}`);
  }
}
