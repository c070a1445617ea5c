import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { CliError, usageError } from '../cli-error.js';
import type { OptionSpecs, ParsedValues } from '../command-spec.js';
import { readGatewayAddressConfig, type GatewayAddressConfig } from './gateway-config-file.js';
import { runningGateway } from './running-gateway-origin.js';

/** The options every command that talks to a running gateway takes. */
export const CONNECTION_OPTIONS: OptionSpecs = {
  url: { type: 'string', label: '--url URL', description: 'Gateway address, e.g. http://127.0.0.1:8080 (env MCPPROXY_URL; default: where the gateway of the data directory runs, over its local socket when it has no HTTP listener, else MCPPROXY_LISTEN, else the config file\'s listen address, else 127.0.0.1:8080)' },
  'api-key': { type: 'string', label: '--api-key KEY', description: 'Admin API key, operator tier (env MCPPROXY_API_KEY; default: <data_dir>/api-key)' },
  token: { type: 'string', label: '--token TOKEN', description: 'Agent token, agent tier (env MCPPROXY_TOKEN)' },
  config: { type: 'string', short: 'c', label: '-c, --config FILE', description: 'Gateway configuration file to take the address and data directory from' },
};

export const DEFAULT_LISTEN = '127.0.0.1:8080';
export const DEFAULT_DATA_DIR = '~/.mcpproxy';
export const API_KEY_FILE = 'api-key';

export type Credential =
  | { readonly kind: 'api-key'; readonly secret: string; readonly source: string }
  | { readonly kind: 'token'; readonly secret: string; readonly source: string }
  | { readonly kind: 'none'; readonly why: string };

export interface ConnectionSettings {
  /** The gateway's origin, e.g. http://127.0.0.1:8080 (no trailing slash, no /mcp); with `socket`, the Host sent on it. */
  readonly origin: string;
  /** The local socket of a gateway with no HTTP listener (stdio mode): every request goes there. */
  readonly socket?: string;
  readonly credential: Credential;
}

/** The origin of requests sent over a local socket (the socket, not the host, decides where they go). */
export const SOCKET_ORIGIN = 'http://localhost';

export interface ConnectionInputs {
  readonly values: ParsedValues;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** `auth login` takes --token for the upstream credential; then it is not a connection token. */
  readonly tokenFlagIsConnection?: boolean;
}

/**
 * Where to connect and with which credential. Flags beat environment variables, which beat the
 * configuration file and the key the gateway stored in its data directory. Without --url the address
 * is the one the gateway of the data directory recorded while it runs (it may listen on any free
 * port), else MCPPROXY_LISTEN, else the configuration's listen, as `serve` takes them. An agent token and an
 * API key given at the same level are ambiguous: an error, not a silent choice.
 */
export function resolveConnection(inputs: ConnectionInputs): ConnectionSettings {
  const { values, env } = inputs;
  const flag = (name: string) => nonEmpty(values[name]);
  const fromEnv = (name: string) => nonEmpty(env[name]);
  const configPath = flag('config');
  const config = configPath === undefined ? undefined : readGatewayAddressConfig(configPath);

  const url = flag('url') ?? fromEnv('MCPPROXY_URL');
  const running = url === undefined ? runningGateway(dataDirOf(config, env)) : undefined;
  // A gateway with an HTTP listener is reached there, as before; one without (stdio) over its socket.
  const socket = running?.origin === undefined ? running?.socket : undefined;
  const origin =
    url !== undefined
      ? originOf(url)
      : socket !== undefined
        ? SOCKET_ORIGIN
        : (running?.origin ?? originOfListen(fromEnv('MCPPROXY_LISTEN') ?? config?.listen ?? DEFAULT_LISTEN));
  const at = { origin, ...(socket === undefined ? {} : { socket }) };
  // The keys found on this machine (the config's api_key, the stored key) go only to the gateway they
  // belong to: the configured address, or one on this machine. Another --url needs an explicit credential.
  const implicitKeyAllowed = url === undefined || isOnThisMachine(origin);

  const tokenFlag = inputs.tokenFlagIsConnection === false ? undefined : flag('token');
  const keyFlag = flag('api-key');
  if (tokenFlag !== undefined && keyFlag !== undefined) throw usageError('give --api-key or --token, not both');
  if (keyFlag !== undefined) return { ...at, credential: { kind: 'api-key', secret: keyFlag, source: '--api-key' } };
  if (tokenFlag !== undefined) return { ...at, credential: { kind: 'token', secret: tokenFlag, source: '--token' } };
  const tokenEnv = fromEnv('MCPPROXY_TOKEN');
  const keyEnv = fromEnv('MCPPROXY_API_KEY');
  if (tokenEnv !== undefined && keyEnv !== undefined) throw usageError('both MCPPROXY_API_KEY and MCPPROXY_TOKEN are set: unset one, or choose with --api-key or --token');
  if (keyEnv !== undefined) return { ...at, credential: { kind: 'api-key', secret: keyEnv, source: 'MCPPROXY_API_KEY' } };
  if (tokenEnv !== undefined) return { ...at, credential: { kind: 'token', secret: tokenEnv, source: 'MCPPROXY_TOKEN' } };
  if (!implicitKeyAllowed) return { ...at, credential: { kind: 'none', why: `${origin} is not on this machine, so no stored or configured admin key is sent to it` } };
  if (config?.api_key !== undefined) return { ...at, credential: { kind: 'api-key', secret: config.api_key, source: `api_key of ${configPath ?? 'the config'}` } };
  return { ...at, credential: storedApiKey(dataDirOf(config, env)) };
}

/** localhost, 127.0.0.0/8 or [::1]: the origin of a gateway on this machine. */
function isOnThisMachine(origin: string): boolean {
  const host = new URL(origin).hostname.toLowerCase();
  return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** `<data_dir>/api-key`, the key `mcpproxy serve` generated on first start. */
function storedApiKey(dataDir: string): Credential {
  const file = join(dataDir, API_KEY_FILE);
  try {
    const secret = readFileSync(file, 'utf8').trim();
    if (secret !== '') return { kind: 'api-key', secret, source: file };
    return { kind: 'none', why: `${file} is empty` };
  } catch (cause) {
    const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
    if (code === 'ENOENT') return { kind: 'none', why: `no API key in ${file}` };
    throw new CliError('config', `cannot read the API key ${file}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** The gateway's own rule: the config's data_dir, else MCPPROXY_DATA_DIR, else ~/.mcpproxy. */
function dataDirOf(config: GatewayAddressConfig | undefined, env: ConnectionInputs['env']): string {
  const setting = config?.data_dir ?? nonEmpty(env['MCPPROXY_DATA_DIR']) ?? DEFAULT_DATA_DIR;
  if (setting === '~') return homedir();
  if (setting.startsWith('~/')) return join(homedir(), setting.slice(2));
  return isAbsolute(setting) ? setting : resolve(config?.base ?? process.cwd(), setting);
}

function originOf(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(url) ? url : `http://${url}`);
  } catch {
    throw usageError(`--url: not a URL: ${JSON.stringify(url)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw usageError(`--url: expected an http(s) URL, got ${JSON.stringify(url)}`);
  // Accept the MCP endpoint too (people copy it from `serve`'s output): REST lives beside it.
  const path = parsed.pathname.replace(/\/+$/, '').replace(/\/mcp(\/p\/[^/]+)?$/, '');
  return `${parsed.protocol}//${parsed.host}${path}`;
}

/** A listen address (host:port, [v6]:port) as the origin a client dials; a wildcard host is dialled on loopback. */
function originOfListen(listen: string): string {
  const match = /^(?:\[([^\]]+)\]|([^:]*)):(\d+)$/.exec(listen.trim());
  if (match === null) throw new CliError('config', `listen: expected host:port, got ${JSON.stringify(listen)}`);
  const host = match[1] ?? match[2] ?? '';
  const dial = host === '' || host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '[::1]' : match[1] !== undefined ? `[${host}]` : host;
  return `http://${dial}:${match[3]}`;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
