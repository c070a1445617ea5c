// "host:port" from the config, IPv6 in brackets; the host defaults to loopback so that a bare
// port never exposes the gateway beyond this machine.

export interface ListenAddress {
  readonly host: string;
  readonly port: number;
}

export type ListenAddressResult = { ok: true; address: ListenAddress } | { ok: false; message: string };

export function parseListenAddress(listen: string): ListenAddressResult {
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]*)):(\d{1,5})$/.exec(listen.trim());
  if (match === null) return { ok: false, message: `expected "host:port", got "${listen}"` };
  const port = Number(match[3]);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return { ok: false, message: `port out of range in "${listen}"` };
  const host = match[1] ?? (match[2] === undefined || match[2] === '' ? '127.0.0.1' : match[2]);
  return { ok: true, address: { host, port } };
}

/** The URL a local client uses to reach a listener (wildcard binds are reached over loopback). */
export function listenerOrigin(host: string, port: number): string {
  const reachable = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return reachable.includes(':') ? `http://[${reachable}]:${port}` : `http://${reachable}:${port}`;
}
