import { EXTENSION_ID } from '@mcpproxy/schema';
import type { RawPost } from './raw-tools-list.js';

/** One revision's pair of tools/list POSTs: identical but for the rider. */
export interface RiderPair {
  readonly plain: RawPost;
  readonly rider: RawPost;
}

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';

/**
 * 2026-07-28: stateless POSTs whose envelope declares the extension (per request), so the two
 * differ only in the rider itself.
 */
export function modernPair(rider: unknown): RiderPair {
  const envelope = { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': { extensions: { [EXTENSION_ID]: { version: 1 } } } };
  const headers = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/list' };
  return {
    plain: { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: envelope } }), headers },
    rider: { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { ...envelope, [EXTENSION_ID]: rider } } }), headers },
  };
}

/** 2025-11-25: one session that declared the extension at initialize (`declaration`, default `{ version: 1 }`); both POSTs go to it. */
export async function legacyPair(url: string, rider: unknown, declaration: unknown = { version: 1 }): Promise<RiderPair> {
  const init = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: { experimental: { [EXTENSION_ID]: declaration } }, clientInfo: { name: 'rider-bench', version: '1.0.0' } },
    }),
  });
  const sessionId = init.headers.get('mcp-session-id');
  await init.arrayBuffer();
  if (sessionId === null) throw new Error(`initialize answered ${init.status} without a session`);
  const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY };
  const initialized = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  await initialized.arrayBuffer();
  return { plain: { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }), headers }, rider: legacyRiderPost(rider, headers) };
}

/** A tools/list with `rider` in a 2025-11-25 session whose headers (Mcp-Session-Id, protocol version) are given. */
export function legacyRiderPost(rider: unknown, headers: Readonly<Record<string, string>>): RawPost {
  return { body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: { [EXTENSION_ID]: rider } } }), headers };
}

/** What one answer carries: the number of tools listed and the facet's verdict and size (for checking, outside the timed loop). */
export function inspect(body: Buffer): { tools: number; facetTools?: number; verdict?: string } {
  const text = body.toString('utf8');
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '{}');
  const parsed = JSON.parse(json) as { result?: { tools?: unknown[]; _meta?: Record<string, { tools?: unknown[]; verdict?: string }> } };
  const facet = parsed.result?._meta?.[EXTENSION_ID];
  return {
    tools: parsed.result?.tools?.length ?? -1,
    ...(facet?.tools === undefined ? {} : { facetTools: facet.tools.length }),
    ...(facet?.verdict === undefined ? {} : { verdict: facet.verdict }),
  };
}
