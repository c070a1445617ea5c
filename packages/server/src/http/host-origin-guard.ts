// DNS-rebinding defence: a browser tricked into resolving an attacker's name to 127.0.0.1 still
// sends the attacker's name in Host (and its page's origin in Origin), so both must name this
// listener. Non-browser clients send no Origin; that passes. A network deployment names the hosts
// it is reached under (`allowed_hosts`) and the browser origins it serves (`allowed_origins`).
import type { HostEntry } from './host-entry.js';
import { normaliseOrigin } from './host-entry.js';

const LOOPBACK_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'] as const;
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]', '']);
/**
 * Host headers remembered as accepted. A client sends the same Host on every request, and parsing it
 * (a WHATWG URL) was ~2% of a REST preflight's time; the check depends on the string alone, so a
 * remembered answer is the same answer. Only accepted spellings are kept, and only this many.
 */
const ACCEPTED_HOSTS_KEPT = 16;

export interface AllowedAuthorities {
  readonly hostnames: ReadonlySet<string>;
  readonly port: number;
  /** The configured `allowed_hosts`, each on its own port or any. */
  readonly extraHosts: readonly HostEntry[];
  /** The configured `allowed_origins`, as URL.origin spells them. */
  readonly origins: ReadonlySet<string>;
  /** Host headers already accepted (see ACCEPTED_HOSTS_KEPT). */
  readonly acceptedHosts: Set<string>;
}

export interface ConfiguredAuthorities {
  readonly hosts?: readonly HostEntry[];
  readonly origins?: readonly string[];
}

/**
 * The Host/Origin authorities this listener answers to: the loopback names and the listen host on its
 * port, and whatever the configuration adds.
 */
export function allowedAuthorities(listenHost: string, port: number, configured: ConfiguredAuthorities = {}): AllowedAuthorities {
  const hostnames = new Set<string>(LOOPBACK_HOSTNAMES);
  const listen = normaliseHostname(listenHost);
  if (listen !== undefined && !WILDCARD_HOSTS.has(listen)) hostnames.add(listen);
  const origins = new Set((configured.origins ?? []).flatMap((origin) => normaliseOrigin(origin) ?? []));
  return { hostnames, port, extraHosts: configured.hosts ?? [], origins, acceptedHosts: new Set() };
}

export type GuardVerdict = { readonly ok: true } | { readonly ok: false; readonly message: string };

export function checkHostAndOrigin(
  host: string | undefined,
  origin: string | undefined,
  allowed: AllowedAuthorities,
): GuardVerdict {
  if (host === undefined || host === '') return { ok: false, message: 'Missing Host header' };
  if (!allowed.acceptedHosts.has(host)) {
    const hostAuthority = parseAuthority(`http://${host}`);
    if (hostAuthority === undefined || !isAllowed(hostAuthority, allowed, () => /:[0-9]+$/.test(host))) {
      return { ok: false, message: `Host not allowed: ${host}` };
    }
    if (allowed.acceptedHosts.size < ACCEPTED_HOSTS_KEPT) allowed.acceptedHosts.add(host);
  }
  if (origin === undefined || origin === '') return { ok: true };
  const originAuthority = parseAuthority(origin);
  if (originAuthority === undefined || (originAuthority.scheme !== 'http:' && originAuthority.scheme !== 'https:')) {
    return { ok: false, message: `Origin not allowed: ${origin}` };
  }
  if (allowed.origins.has(normaliseOrigin(origin) ?? '')) return { ok: true };
  if (!isAllowed(originAuthority, allowed, () => true)) return { ok: false, message: `Origin not allowed: ${origin}` };
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

/**
 * `portGiven`: whether the header spelled its port. An Origin always says it (its scheme fixes the
 * default); a Host without one is on its scheme's default, which Host does not say: 80 or 443.
 */
function isAllowed(authority: Authority, allowed: AllowedAuthorities, portGiven: () => boolean): boolean {
  if (authority.port === allowed.port && allowed.hostnames.has(authority.hostname)) return true;
  return allowed.extraHosts.some(
    (entry) => entry.hostname === authority.hostname && (entry.port === undefined || (portGiven() ? entry.port === authority.port : entry.port === 80 || entry.port === 443)),
  );
}

function normaliseHostname(host: string): string | undefined {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.includes(':') && !trimmed.startsWith('[')) return `[${trimmed}]`;
  return trimmed;
}
