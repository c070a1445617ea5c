// One `allowed_hosts` entry of the config: `host` or `host:port`. The port is optional because a
// load balancer or reverse proxy forwards the name the client used, rarely with the gateway's own port.

export interface HostEntry {
  /** Lowercase; an IPv6 address keeps its brackets, as URL.hostname spells it. */
  readonly hostname: string;
  /** undefined: any port. */
  readonly port?: number;
}

export type HostEntryResult = { readonly ok: true; readonly entry: HostEntry } | { readonly ok: false; readonly message: string };

export function parseHostEntry(text: string): HostEntryResult {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::([0-9]{1,5}))?$/.exec(text);
  if (match === null) return { ok: false, message: `"${text}" is not host or host:port` };
  let hostname: string;
  try {
    // The URL parser spells the name the way a parsed Host header is spelled (IPv6 compressed, IPv4 canonical).
    hostname = new URL(`http://${match[1]!}`).hostname;
  } catch {
    return { ok: false, message: `"${text}": ${match[1]!} is not a host name or an IP address` };
  }
  if (match[2] === undefined) return { ok: true, entry: { hostname } };
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return { ok: false, message: `"${text}": port ${match[2]} is outside 1..65535` };
  return { ok: true, entry: { hostname, port } };
}

/** `scheme://host[:port]` as URL.origin spells it, or undefined when the text is not an http(s) origin. */
export function normaliseOrigin(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || (url.pathname !== '/' && url.pathname !== '')) return undefined;
  // An origin has no trailing slash; new URL() adds one, so a configured "https://x/" is not an origin.
  if (text.endsWith('/')) return undefined;
  return url.origin;
}
