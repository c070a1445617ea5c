import { EMBEDDED_DEFAULT, loadConfig } from './config/gateway-config.js';
import { LISTEN_ENV } from './config/config-defaults.js';
import { readGatewayAddress, recordGatewayAddress } from './gateway-address-record.js';
import { startGateway } from './gateway.js';
import { parseListenAddress } from './http/listen-address.js';
import { relayToRunningGateway } from './local-socket/relay-to-running-gateway.js';
import { logLine } from './log-line.js';
import { ConfigReloads } from './reload/config-reloads.js';
import { endStartUpHeapPolicy, preferSmallHeap } from './small-heap-policy.js';

export interface ServeOptions {
  /** A configuration file; without one the embedded default runs. */
  readonly configPath?: string | undefined;
  /** Serve MCP on this process's stdin/stdout instead of HTTP. */
  readonly stdio: boolean;
  /** `--listen host:port`: replaces the configuration's listen address, as MCPPROXY_LISTEN does (the flag wins). */
  readonly listen?: string | undefined;
  /** Where MCPPROXY_LISTEN is read (default: this process's environment). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Lines for the person who started the gateway (never on stdout in stdio mode, where stdout carries MCP). */
  readonly say: (line: string) => void;
  /** Operational lines (standard error). */
  readonly log: (line: string) => void;
}

/**
 * `config`: the configuration, or a start that it makes impossible (locked data dir, address in use);
 * `relay`: a second stdio gateway's relay ended because the gateway it relayed to stopped.
 */
export type ServeFailureCode = 'config' | 'shutdown' | 'relay';
export type ServeOutcome = { readonly ok: true } | { readonly ok: false; readonly code: ServeFailureCode; readonly message: string };

/**
 * The gateway as a process runs it, for every start command (`mcpproxy serve` and the server package's
 * own `serve`): load the configuration, start, say where it serves, reload the configuration file on
 * SIGHUP (and on change with watch_config), and shut down cleanly on SIGINT or SIGTERM (with stdio,
 * also when standard input closes). A second signal exits at once with 130: whoever sends it has
 * stopped waiting for the shutdown. With stdio, a data directory held by a running gateway means
 * relaying this session to it. Settles when the gateway has stopped or could not start.
 */
const RELAY_ROUNDS = 3;

export async function serveUntilStopped(options: ServeOptions): Promise<ServeOutcome> {
  const { stdio, say } = options;
  // Operational lines quote others (clients, upstreams, the SDK): each goes out as one line (log-line.ts).
  const log = (line: string): void => options.log(logLine(line));
  preferSmallHeap();
  // Listen for signals before anything slow, so one that arrives during start-up still stops cleanly.
  const stopped = new Promise<string>((resolve) => {
    let seen = false;
    const onSignal = (why: string) => {
      if (seen) process.exit(130);
      seen = true;
      resolve(why);
    };
    process.on('SIGINT', () => onSignal('SIGINT'));
    process.on('SIGTERM', () => onSignal('SIGTERM'));
    if (stdio) process.stdin.on('end', () => onSignal('stdin closed'));
  });
  // SIGHUP reloads; by default it would end the process without a word. One that comes during start-up
  // is applied once the gateway runs.
  let reloadRequested = false;
  let onReload = (): void => void (reloadRequested = true);
  process.on('SIGHUP', () => onReload());

  const override = listenOverride(options);
  if (override !== undefined && !override.ok) return { ok: false, code: 'config', message: override.message };
  const loaded = await loadConfig(options.configPath, override === undefined ? {} : { listen: override.listen });
  if (!loaded.ok) return { ok: false, code: 'config', message: loaded.error.message };
  const config = loaded.config;
  if (config.api_key_generated) {
    say(`Generated an admin API key (shown once; stored in ${config.api_key_file ?? config.data_dir}):`);
    say(`  ${config.api_key}`);
  }
  let started = await startGateway(config, { stdio, log });
  // A second stdio gateway relays to the one holding the data directory; when that one lets it go
  // first (it was stopping), this one starts after all. A few rounds, not for ever.
  for (let round = 0; stdio && !started.ok && started.error.code === 'data_dir_locked' && round < RELAY_ROUNDS; round += 1) {
    onReload = () => log('SIGHUP: this process relays to the gateway that holds the data directory; send SIGHUP to that one');
    const relayed = await relayToRunningGateway({ dataDir: config.data_dir, apiKey: config.api_key, stopped, log });
    if (relayed.kind === 'done') return { ok: true };
    if (relayed.kind === 'refused') return { ok: false, code: 'config', message: relayed.message };
    if (relayed.kind === 'ended') return { ok: false, code: 'relay', message: relayed.message };
    onReload = () => void (reloadRequested = true);
    started = await startGateway(config, { stdio, log });
  }
  if (!started.ok) return { ok: false, code: 'config', message: inUseBy(started.error, config.data_dir) };
  const gateway = started.gateway;
  const endStartUp = endStartUpHeapPolicy(gateway.runtime);
  const source = config.source === EMBEDDED_DEFAULT ? 'the embedded default configuration' : config.source;
  let forgetAddress = (): void => {};
  if (gateway.origin !== undefined || gateway.socket !== undefined) {
    try {
      forgetAddress = recordGatewayAddress(config.data_dir, { ...(gateway.origin === undefined ? {} : { origin: gateway.origin }), ...(gateway.socket === undefined ? {} : { socket: gateway.socket }) });
    } catch (error) {
      // The CLI then falls back to the configured address; serving goes on.
      log(`cannot record the gateway's address in ${config.data_dir}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (gateway.url !== undefined) say(`mcpproxy gateway serving MCP at ${gateway.url} and REST at ${gateway.origin ?? ''}/api/v1 (config: ${source})`);
  else log(`gateway serving MCP on stdio (config: ${source})`);
  if (gateway.socket !== undefined) log(`operator commands (mcpproxy ...) reach this gateway over ${gateway.socket}`);

  const reloads = new ConfigReloads({
    configPath: options.configPath,
    overrides: override === undefined ? {} : { listen: override.listen },
    reload: (next) => gateway.reload(next),
    watch: config.watch_config,
    log,
  });
  onReload = () => void reloads.request('SIGHUP');
  if (reloadRequested) onReload();

  log(`${await stopped}: shutting down`);
  reloads.close();
  endStartUp();
  forgetAddress();
  try {
    await gateway.close();
    return { ok: true };
  } catch (error) {
    return { ok: false, code: 'shutdown', message: `shutdown: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** A locked data directory's message, naming where the gateway that holds it serves (when it says). */
function inUseBy(error: { readonly code: string; readonly message: string }, dataDir: string): string {
  if (error.code !== 'data_dir_locked') return error.message;
  const running = readGatewayAddress(dataDir);
  const where = [running?.origin, running?.socket].filter((part) => part !== undefined);
  return where.length === 0 ? error.message : `${error.message} (it serves ${where.join(' and ')})`;
}

/** `--listen`, else MCPPROXY_LISTEN, checked here so that a bad value is blamed on where it came from. */
function listenOverride(options: ServeOptions): { ok: true; listen: string } | { ok: false; message: string } | undefined {
  const fromEnv = (options.env ?? process.env)[LISTEN_ENV];
  const [value, source] = options.listen !== undefined ? [options.listen, '--listen'] : fromEnv !== undefined && fromEnv !== '' ? [fromEnv, LISTEN_ENV] : [undefined, ''];
  if (value === undefined) return undefined;
  const parsed = parseListenAddress(value);
  return parsed.ok ? { ok: true, listen: value.trim() } : { ok: false, message: `${source}: ${parsed.message}` };
}
