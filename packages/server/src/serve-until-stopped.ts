import { EMBEDDED_DEFAULT, loadConfig } from './config/gateway-config.js';
import { LISTEN_ENV } from './config/config-defaults.js';
import { recordGatewayAddress } from './gateway-address-record.js';
import { startGateway } from './gateway.js';
import { parseListenAddress } from './http/listen-address.js';

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

/** `config`: the configuration, or a start that it makes impossible (locked data dir, address in use). */
export type ServeFailureCode = 'config' | 'shutdown';
export type ServeOutcome = { readonly ok: true } | { readonly ok: false; readonly code: ServeFailureCode; readonly message: string };

/**
 * The gateway as a process runs it, for every start command (`mcpproxy serve` and the server package's
 * own `serve`): load the configuration, start, say where it serves, and shut down cleanly on SIGINT or
 * SIGTERM (with stdio, also when standard input closes). A second signal exits at once with 130: whoever
 * sends it has stopped waiting for the shutdown. Settles when the gateway has stopped or could not start.
 */
export async function serveUntilStopped(options: ServeOptions): Promise<ServeOutcome> {
  const { stdio, say, log } = options;
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

  const override = listenOverride(options);
  if (override !== undefined && !override.ok) return { ok: false, code: 'config', message: override.message };
  const loaded = await loadConfig(options.configPath, override === undefined ? {} : { listen: override.listen });
  if (!loaded.ok) return { ok: false, code: 'config', message: loaded.error.message };
  const config = loaded.config;
  if (config.api_key_generated) {
    say(`Generated an admin API key (shown once; stored in ${config.api_key_file ?? config.data_dir}):`);
    say(`  ${config.api_key}`);
  }
  const started = await startGateway(config, { stdio, log });
  if (!started.ok) return { ok: false, code: 'config', message: started.error.message };
  const gateway = started.gateway;
  const source = config.source === EMBEDDED_DEFAULT ? 'the embedded default configuration' : config.source;
  let forgetAddress = (): void => {};
  if (gateway.origin !== undefined) {
    try {
      forgetAddress = recordGatewayAddress(config.data_dir, gateway.origin);
    } catch (error) {
      // The CLI then falls back to the configured address; serving goes on.
      log(`cannot record the gateway's address in ${config.data_dir}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (gateway.url !== undefined) say(`mcpproxy gateway serving MCP at ${gateway.url} and REST at ${gateway.origin ?? ''}/api/v1 (config: ${source})`);
  else log(`gateway serving MCP on stdio (config: ${source})`);

  log(`${await stopped}: shutting down`);
  forgetAddress();
  try {
    await gateway.close();
    return { ok: true };
  } catch (error) {
    return { ok: false, code: 'shutdown', message: `shutdown: ${error instanceof Error ? error.message : String(error)}` };
  }
}

/** `--listen`, else MCPPROXY_LISTEN, checked here so that a bad value is blamed on where it came from. */
function listenOverride(options: ServeOptions): { ok: true; listen: string } | { ok: false; message: string } | undefined {
  const fromEnv = (options.env ?? process.env)[LISTEN_ENV];
  const [value, source] = options.listen !== undefined ? [options.listen, '--listen'] : fromEnv !== undefined && fromEnv !== '' ? [fromEnv, LISTEN_ENV] : [undefined, ''];
  if (value === undefined) return undefined;
  const parsed = parseListenAddress(value);
  return parsed.ok ? { ok: true, listen: value.trim() } : { ok: false, message: `${source}: ${parsed.message}` };
}
