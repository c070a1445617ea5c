// DNS-rebinding defence: a browser tricked into resolving an attacker's name to 127.0.0.1 still
// sends the attacker's name in Host (and its page's origin in Origin), so both must name this
// listener. Non-browser clients send no Origin; that passes.

const LOOPBACK_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'] as const;
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);

export interface AllowedAuthorities {
  readonly hostnames: ReadonlySet<string>;
  readonly port: number;
}

/** The Host/Origin authorities this listener answers to: the loopback names and the configured host, on its port. */
export function allowedAuthorities(listenHost: string, port: number): AllowedAuthorities {
  const hostnames = new Set<string>(LOOPBACK_HOSTNAMES);
  const configured = normaliseHostname(listenHost);
  if (configured !== undefined && !WILDCARD_HOSTS.has(configured)) hostnames.add(configured);
  return { hostnames, port };
}

export type GuardVerdict = { readonly ok: true } | { readonly ok: false; readonly message: string };

export function checkHostAndOrigin(
  host: string | undefined,
  origin: string | undefined,
  allowed: AllowedAuthorities,
): GuardVerdict {
  if (host === undefined || host === '') return { ok: false, message: 'Missing Host header' };
  const hostAuthority = parseAuthority(`http://${host}`);
  if (hostAuthority === undefined || !isAllowed(hostAuthority, allowed)) {
    return { ok: false, message: `Host not allowed: ${host}` };
  }
  if (origin === undefined || origin === '') return { ok: true };
  const originAuthority = parseAuthority(origin);
  if (originAuthority === undefined || (originAuthority.scheme !== 'http:' && originAuthority.scheme !== 'https:')) {
    return { ok: false, message: `Origin not allowed: ${origin}` };
  }
  if (!isAllowed(originAuthority, allowed)) return { ok: false, message: `Origin not allowed: ${origin}` };
  return { ok: true };
}

interface Authority {
  readonly scheme: string;
  readonly hostname: string;
  readonly port: number;
}

function parseAuthority(value: string): Authority | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  // A Host header is only an authority: anything that parses into a path, credentials or query is forged.
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return undefined;
  if (url.pathname !== '/' && url.pathname !== '') return undefined;
  const defaultPort = url.protocol === 'https:' ? 443 : 80;
  return { scheme: url.protocol, hostname: url.hostname.toLowerCase(), port: url.port === '' ? defaultPort : Number(url.port) };
}

function isAllowed(authority: Authority, allowed: AllowedAuthorities): boolean {
  return authority.port === allowed.port && allowed.hostnames.has(authority.hostname);
}

function normaliseHostname(host: string): string | undefined {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.includes(':') && !trimmed.startsWith('[')) return `[${trimmed}]`;
  return trimmed;
}
