// Raw JSON-RPC over the gateway's /mcp, on either revision, with nothing in between: the tests see
// the exact wire (resultType, ttlMs, cacheScope, error data) and can send what no SDK would.
// 2025-11-25: initialize + notifications/initialized, then requests on the Mcp-Session-Id.
// 2026-07-28: every request stateless, with the per-request _meta envelope and the Mcp-Method header.
import { EXTENSION_ID } from '@mcpproxy/schema';

export type RawEra = 'legacy' | 'modern';

export interface RawError {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

export interface RawAnswer {
  readonly status: number;
  /** The JSON-RPC result (absent on an error). */
  readonly result?: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly error?: RawError;
  readonly text: string;
  readonly contentType?: string | null;
  readonly contentLength?: string | null;
}

export interface RawSessionOptions {
  /** Authorization: Bearer <token>. */
  readonly token?: string;
  /** The client's capabilities: sent at initialize (legacy) or in every request's envelope (modern). */
  readonly capabilities?: Record<string, unknown>;
}

export interface RawSession {
  readonly era: RawEra;
  request(method: string, params?: Record<string, unknown>): Promise<RawAnswer>;
  /**
   * The same with params given as JSON text: the members of the params object, without its braces
   * (`"name":"x","arguments":{…}`), for values JSON.stringify itself cannot write (100,000 levels deep).
   */
  requestText(method: string, paramMembers: string): Promise<RawAnswer>;
  close(): Promise<void>;
}

const MODERN = '2026-07-28';
/** The param a 2026-07-28 request names in its Mcp-Name header, per method. */
const NAMED_BY: Readonly<Record<string, string>> = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };
const namedBy = (method: string): string | undefined => (Object.hasOwn(NAMED_BY, method) ? NAMED_BY[method] : undefined);
const LEGACY = '2025-11-25';

/** The capabilities that negotiate the extension on a revision (`version` absent = 1 on the wire is fine too). */
export function negotiating(era: RawEra, settings: Record<string, unknown> = { version: 1 }, id: string = EXTENSION_ID): Record<string, unknown> {
  return era === 'legacy' ? { experimental: { [id]: settings } } : { extensions: { [id]: settings } };
}

export async function openRawSession(url: string, era: RawEra, options: RawSessionOptions = {}): Promise<RawSession> {
  const auth: Record<string, string> = options.token === undefined ? {} : { authorization: `Bearer ${options.token}` };
  const capabilities = options.capabilities ?? {};
  let nextId = 1;
  if (era === 'modern') {
    return {
      era,
      request: (method, params = {}) => {
        const meta = { ...(params['_meta'] as Record<string, unknown> | undefined), 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': capabilities };
        const headers: Record<string, string> = { ...auth, 'mcp-protocol-version': MODERN, 'mcp-method': method };
        const key = namedBy(method);
        const named = key === undefined || !Object.hasOwn(params, key) ? undefined : params[key];
        if (typeof named === 'string') headers['mcp-name'] = named;
        return post(url, { jsonrpc: '2.0', id: nextId++, method, params: { ...params, _meta: meta } }, headers);
      },
      requestText: (method, paramMembers) => {
        const meta = JSON.stringify({ 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': capabilities });
        const headers: Record<string, string> = { ...auth, 'mcp-protocol-version': MODERN, 'mcp-method': method };
        const key = namedBy(method);
        const name = key === undefined ? undefined : new RegExp(`^"${key}":("(?:[^"\\\\]|\\\\.)*")`).exec(paramMembers)?.[1];
        if (name !== undefined) headers['mcp-name'] = JSON.parse(name) as string;
        const members = paramMembers === '' ? '' : `,${paramMembers}`;
        return post(url, `{"jsonrpc":"2.0","id":${nextId++},"method":${JSON.stringify(method)},"params":{"_meta":${meta}${members}}}`, headers);
      },
      close: async () => undefined,
    };
  }
  const init = await post(url, { jsonrpc: '2.0', id: nextId++, method: 'initialize', params: { protocolVersion: LEGACY, capabilities, clientInfo: { name: 'raw-test', version: '1.0.0' } } }, auth);
  const sessionId = init.sessionId;
  if (init.error !== undefined || sessionId === undefined) throw new Error(`initialize failed (${init.status}): ${init.text}`);
  const headers = { ...auth, 'mcp-session-id': sessionId, 'mcp-protocol-version': LEGACY };
  await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  return {
    era,
    request: (method, params) => post(url, { jsonrpc: '2.0', id: nextId++, method, ...(params === undefined ? {} : { params }) }, headers),
    requestText: (method, paramMembers) => post(url, `{"jsonrpc":"2.0","id":${nextId++},"method":${JSON.stringify(method)},"params":{${paramMembers}}}`, headers),
    close: async () => {
      await fetch(url, { method: 'DELETE', headers }).then((r) => r.arrayBuffer()).catch(() => undefined);
    },
  };
}

/** `body`: a value to serialise, or JSON text sent as it is. */
async function post(url: string, body: unknown, headers: Record<string, string>): Promise<RawAnswer & { sessionId?: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  const sessionId = response.headers.get('mcp-session-id') ?? undefined;
  const json = text.startsWith('{') ? text : (/^data: (.*)$/m.exec(text)?.[1] ?? '');
  const parsed = json === '' ? {} : (JSON.parse(json) as { result?: unknown; error?: RawError });
  const wire = { contentType: response.headers.get('content-type'), contentLength: response.headers.get('content-length') };
  return { status: response.status, text, ...wire, ...(parsed.result === undefined ? {} : { result: parsed.result }), ...(parsed.error === undefined ? {} : { error: parsed.error }), ...(sessionId === undefined ? {} : { sessionId }) };
}

/** Opens a session, hands it to `use`, and closes it whatever happens. */
export async function withRawSession<T>(url: string, era: RawEra, options: RawSessionOptions, use: (session: RawSession) => Promise<T>): Promise<T> {
  const session = await openRawSession(url, era, options);
  try {
    return await use(session);
  } finally {
    await session.close();
  }
}
