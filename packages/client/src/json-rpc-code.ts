/** The JSON-RPC error code of a rejected request, when it was one. */
export function jsonRpcCode(error: unknown): number | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'number' ? code : undefined;
}
