import type { GatewayConfig } from '@mcpproxy/schema';
import { parseHostEntry } from '../http/host-entry.js';

export interface ConfigIssue {
  /** JSON pointer into the config file. */
  readonly path: string;
  readonly message: string;
}

/**
 * What the schema cannot say: names are unique, references point at things that exist, and a
 * token gives its secret exactly one way.
 */
export function crossCheckConfig(config: GatewayConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const servers = new Set<string>();
  config.servers.forEach((server, i) => {
    if (servers.has(server.name)) issues.push({ path: `/servers/${i}/name`, message: `server name "${server.name}" is used twice` });
    servers.add(server.name);
    if (server.url !== undefined) {
      const problem = upstreamUrlProblem(server.url);
      if (problem !== undefined) issues.push({ path: `/servers/${i}/url`, message: `servers[${i}].url ${JSON.stringify(server.url)} ${problem}` });
    }
    const disabled = new Set(server.disabled_tools ?? []);
    (server.enabled_tools ?? []).forEach((tool, j) => {
      if (disabled.has(tool)) {
        issues.push({ path: `/servers/${i}/enabled_tools/${j}`, message: `tool "${tool}" is both in enabled_tools and in disabled_tools` });
      }
    });
  });

  const profiles = new Set<string>();
  (config.profiles ?? []).forEach((profile, i) => {
    if (profiles.has(profile.name)) issues.push({ path: `/profiles/${i}/name`, message: `profile name "${profile.name}" is used twice` });
    profiles.add(profile.name);
    profile.servers.forEach((server, j) => {
      if (!servers.has(server)) issues.push({ path: `/profiles/${i}/servers/${j}`, message: `profile "${profile.name}" names unknown server "${server}"` });
    });
  });

  const tokens = new Set<string>();
  (config.agent_tokens ?? []).forEach((token, i) => {
    const at = `/agent_tokens/${i}`;
    if (tokens.has(token.name)) issues.push({ path: `${at}/name`, message: `token name "${token.name}" is used twice` });
    tokens.add(token.name);
    const given = (token.token === undefined ? 0 : 1) + (token.token_sha256 === undefined ? 0 : 1);
    if (given !== 1) {
      issues.push({ path: at, message: `token "${token.name}" needs exactly one of token (the secret) and token_sha256 (its SHA-256), ${given === 0 ? 'neither is given' : 'both are given'}` });
    }
    if (token.profile !== undefined && !profiles.has(token.profile)) {
      issues.push({ path: `${at}/profile`, message: `token "${token.name}" names unknown profile "${token.profile}"` });
    }
    const wildcard = token.allowed_servers.includes('*');
    token.allowed_servers.forEach((server, j) => {
      if (wildcard && token.allowed_servers.length > 1) {
        if (server === '*') issues.push({ path: `${at}/allowed_servers/${j}`, message: '"*" (every server) must be the only entry of allowed_servers' });
      } else if (server !== '*' && !servers.has(server)) {
        issues.push({ path: `${at}/allowed_servers/${j}`, message: `token "${token.name}" names unknown server "${server}"` });
      }
    });
  });
  (config.allowed_hosts ?? []).forEach((entry, i) => {
    const parsed = parseHostEntry(entry);
    if (!parsed.ok) issues.push({ path: `/allowed_hosts/${i}`, message: parsed.message });
  });
  (config.allowed_origins ?? []).forEach((origin, i) => {
    const port = /:([0-9]+)$/.exec(origin)?.[1];
    if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) issues.push({ path: `/allowed_origins/${i}`, message: `"${origin}": port ${port} is outside 1..65535` });
  });
  return issues;
}

/** Why an upstream URL cannot be connected to, found at start rather than at the first connect. */
function upstreamUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    // Rejects an empty or spaced host and a port outside 0..65535.
    url = new URL(text);
  } catch {
    return 'is not a URL (expected http(s)://host[:port]/path)';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `has scheme ${url.protocol} (expected http or https)`;
  if (url.hostname === '') return 'has no host';
  if (url.port === '0') return 'has port 0';
  return undefined;
}
