/**
 * The first query parameter of a request that its endpoint does not take, or takes once and was
 * given more often, with what is wrong with it; undefined when there is none. A parameter misspelt or
 * repeated would otherwise be read as absent or as its first value, and the caller would get an
 * answer to a question it did not ask (every tool instead of one server's).
 */
export function queryFault(query: URLSearchParams, accepted: readonly string[]): { readonly name: string; readonly message: string } | undefined {
  if (query.size === 0) return undefined;
  const counts = new Map<string, number>();
  for (const name of query.keys()) counts.set(name, (counts.get(name) ?? 0) + 1);
  for (const [name, count] of counts) {
    if (!accepted.includes(name)) return { name, message: 'unknown parameter' };
    if (count > 1) return { name, message: `given ${count} times; give it once` };
  }
  return undefined;
}
