import { EXTENSION_ID } from '@mcpproxy/schema';
import {
  classifyInboundRequest,
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  SERVER_INFO_META_KEY,
  type Implementation,
  type ListToolsResult,
  type RequestId,
} from '@modelcontextprotocol/server';
import type { McpIdentity } from './mcp-identity.js';
import { preparedJsonResponse } from './prepared-json-response.js';
import { splicedJson } from './prepared-json-splice.js';

/**
 * Answers a 2026-07-28 tools/list itself when it is one this module can answer exactly as the SDK's
 * per-request server would; undefined hands the request to the SDK unchanged.
 */
export type ModernListingAnswer = (request: Request, body: unknown, identity: McpIdentity) => Promise<Response> | undefined;

export interface ModernListingOptions {
  /**
   * The listing the SDK's server for this request would answer with: the first page, or with a rider
   * the page and its facet (RequiredToolsExtension.modernListing). A throw is answered as the SDK
   * answers a handler's throw.
   */
  readonly listing: (identity: McpIdentity, request: { readonly id: RequestId; readonly meta: Readonly<Record<string, unknown>> }) => ListToolsResult | Promise<ListToolsResult>;
  readonly serverInfo: Implementation;
}

/** The revision the answers below are the SDK's answers of (the encode steps differ per revision). */
const REVISION = '2026-07-28';
/** What a plain or rider tools/list envelope holds; anything else in `_meta` goes to the SDK. */
const META_KEYS = new Set([PROTOCOL_VERSION_META_KEY, CLIENT_CAPABILITIES_META_KEY, CLIENT_INFO_META_KEY, EXTENSION_ID]);
const BODY_KEYS = ['jsonrpc', 'id', 'method', 'params'];

/**
 * 2026-07-28 tools/list without a server instance per request. Served through the SDK, every such
 * request built a server and a transport, attached the extension, registered every handler, and
 * parsed, dispatched and encoded the request (~0.3 M instructions of the gateway's ~3.5 M per 1,000-tool
 * listing, the rest being the prepared bytes' way out), before the listing went out as prepared bytes.
 *
 * The SDK still decides whether the request is served: its own classifier (`classifyInboundRequest`,
 * the body's JSON-RPC shape, the envelope's schema, the headers that must agree with the body) has to
 * route it to the 2026-07-28 leg, and the rest of its ladder is met by what this answers at all: a
 * request POST (`jsonrpc`, `id`, `method`, `params` and nothing else) for the first page of tools/list
 * (`params` holds `_meta` alone; a cursor goes to the SDK), the revision this module encodes for, both
 * standard headers present (the SDK's presence check; their agreement with the body is the
 * classifier's), no Mcp-Name, and `_meta` holding the envelope and a rider and nothing else. Every
 * other request, every refusal of the ladder included, is the SDK's to answer, so its error answers
 * do not change. What is answered here is the SDK's answer byte for byte (the test of this module
 * sends the same requests to both): the result encoded as the SDK encodes a tools/list result of
 * this revision (`resultType`, the cache fields, serverInfo in `_meta`), in the SDK's message order,
 * as the prepared bytes with what the encoding adds spliced in; a throw of the listing as the
 * SDK's error answer to a handler's throw.
 */
export function modernListingAnswer(options: ModernListingOptions): ModernListingAnswer {
  return (request, body, identity) => {
    const served = servedRequest(request, body);
    if (served === undefined) return undefined;
    return answer(options, identity, served);
  };
}

interface ServedRequest {
  readonly id: RequestId;
  readonly meta: Readonly<Record<string, unknown>>;
}

function servedRequest(request: Request, body: unknown): ServedRequest | undefined {
  if (!isRecord(body) || body['method'] !== 'tools/list') return undefined;
  const keys = Object.keys(body);
  if (keys.length !== BODY_KEYS.length || !BODY_KEYS.every((key) => Object.hasOwn(body, key))) return undefined;
  const params = body['params'];
  if (!isRecord(params) || Object.keys(params).length !== 1 || !isRecord(params['_meta'])) return undefined;
  const meta = params['_meta'];
  if (!Object.keys(meta).every((key) => META_KEYS.has(key)) || meta[PROTOCOL_VERSION_META_KEY] !== REVISION) return undefined;
  const protocolVersionHeader = request.headers.get('mcp-protocol-version');
  const mcpMethodHeader = request.headers.get('mcp-method');
  if (protocolVersionHeader === null || mcpMethodHeader === null || request.headers.has('mcp-name')) return undefined;
  const route = classifyInboundRequest({ httpMethod: 'POST', protocolVersionHeader, mcpMethodHeader, body });
  if (route.kind !== 'modern' || route.messageKind !== 'request' || route.classification.revision !== REVISION) return undefined;
  return { id: route.message.id, meta };
}

async function answer(options: ModernListingOptions, identity: McpIdentity, served: ServedRequest): Promise<Response> {
  let result: ListToolsResult;
  try {
    result = await options.listing(identity, served);
  } catch (error) {
    return handlerError(served.id, error);
  }
  const message = { result: encodedResult(result, options.serverInfo), jsonrpc: '2.0', id: served.id };
  const pieces = splicedJson(message);
  return pieces === undefined ? sdkJsonResponse(message) : preparedJsonResponse(pieces);
}

/**
 * The SDK's encoding of a tools/list result on 2026-07-28: `resultType` when absent, the cache
 * fields when absent or invalid (0 ms, private), serverInfo into `_meta` unless it is there. Each
 * step copies the result with its members in place and the new ones after them.
 */
function encodedResult(result: ListToolsResult, serverInfo: Implementation): Record<string, unknown> {
  const kept = withoutDeletedFields(result);
  const typed: Record<string, unknown> = kept.resultType === undefined ? { ...kept, resultType: 'complete' } : { ...kept };
  const ttlMs = typed['ttlMs'];
  const cacheScope = typed['cacheScope'];
  const cached: Record<string, unknown> = { ...typed, ttlMs: typeof ttlMs === 'number' && Number.isSafeInteger(ttlMs) && ttlMs >= 0 ? ttlMs : 0, cacheScope: cacheScope === 'public' || cacheScope === 'private' ? cacheScope : 'private' };
  const meta = cached['_meta'];
  if (meta === undefined) return { ...cached, _meta: { [SERVER_INFO_META_KEY]: serverInfo } };
  if (!isRecord(meta) || meta[SERVER_INFO_META_KEY] !== undefined) return cached;
  return { ...cached, _meta: { ...meta, [SERVER_INFO_META_KEY]: serverInfo } };
}

/**
 * The SDK's first encode step for tools/list: tools lose the `execution` member this revision
 * deleted (a copy, which then has no prepared bytes). Whether a frozen tools array (a prepared page's)
 * has one is looked at once.
 */
function withoutDeletedFields(result: ListToolsResult): ListToolsResult {
  const tools: readonly unknown[] = result.tools;
  let deleted = Object.isFrozen(tools) ? hasDeletedFields.get(tools) : undefined;
  if (deleted === undefined) {
    deleted = tools.some((tool) => isRecord(tool) && 'execution' in tool);
    if (Object.isFrozen(tools)) hasDeletedFields.set(tools, deleted);
  }
  if (!deleted) return result;
  return {
    ...result,
    tools: tools.map((tool) => {
      if (!isRecord(tool) || !('execution' in tool)) return tool;
      const rest: Record<string, unknown> = { ...tool };
      delete rest['execution'];
      return rest;
    }) as ListToolsResult['tools'],
  };
}

const hasDeletedFields = new WeakMap<readonly unknown[], boolean>();

/** The SDK's answer to a handler that threw: a JSON-RPC error in a 200 JSON body. */
function handlerError(id: RequestId, thrown: unknown): Response {
  const error = thrown as { code?: unknown; message?: unknown; data?: unknown } | null | undefined;
  const code = Number.isSafeInteger(error?.code) ? (error!.code as number) : -32603;
  const data = error?.data;
  return sdkJsonResponse({
    jsonrpc: '2.0',
    id,
    // The SDK writes the retired -32002 as invalid params on this revision.
    error: { code: code === -32002 ? -32602 : code, message: (error?.message as string | undefined) ?? 'Internal error', ...(data === undefined ? {} : { data }) },
  });
}

function sdkJsonResponse(message: unknown): Response {
  return Response.json(message, { status: 200, headers: { 'Content-Type': 'application/json' } });
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
