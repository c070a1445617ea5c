/**
 * How a resource URI of an upstream is named through the gateway: `mcpproxy://<server>/<upstream URI>`,
 * the upstream's URI appended as it is. Reversible by cutting the prefix, whatever the upstream URI
 * holds (`?`, `#`, `%xx` all stay byte for byte), and a URI template wraps the same way, so a client
 * that expands `mcpproxy://files/file:///{path}` gets a URI that reads back to the upstream's own
 * expansion. Server names cannot hold `/`, so the first `/` after the prefix ends the name.
 */
const PREFIX = 'mcpproxy://';

export function namespacedUri(server: string, uri: string): string {
  return `${PREFIX}${server}/${uri}`;
}

/** The server and its own URI, or undefined when `uri` is not one of the gateway's. */
export function upstreamUri(uri: string): { readonly server: string; readonly uri: string } | undefined {
  if (!uri.startsWith(PREFIX)) return undefined;
  const rest = uri.slice(PREFIX.length);
  const slash = rest.indexOf('/');
  if (slash <= 0 || slash === rest.length - 1) return undefined;
  return { server: rest.slice(0, slash), uri: rest.slice(slash + 1) };
}

/** `server:name`, the tool naming, for prompts and for the names of resources and templates. */
export function namespacedName(server: string, name: string): string {
  return `${server}:${name}`;
}

/** The server and the upstream's name of `server:name` (split on the first `:`), or undefined. */
export function upstreamName(name: string): { readonly server: string; readonly name: string } | undefined {
  const colon = name.indexOf(':');
  if (colon <= 0 || colon === name.length - 1) return undefined;
  return { server: name.slice(0, colon), name: name.slice(colon + 1) };
}
