/** The JSON-RPC error envelope MCP clients expect on a refused HTTP exchange (no request id is known yet). */
export function jsonRpcErrorBody(code: number, message: string): unknown {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

/** The same envelope as a web-standard response. */
export function jsonRpcError(status: number, code: number, message: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(jsonRpcErrorBody(code, message)), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}
