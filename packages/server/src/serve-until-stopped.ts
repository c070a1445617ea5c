import { EMBEDDED_DEFAULT, loadConfig } from './config/gateway-config.js';
import { startGateway } from './gateway.js';

export interface ServeOptions {
  /** A configuration file; without one the embedded default runs. */
  readonly configPath?: string | undefined;
  /** Serve MCP on this process's stdin/stdout instead of HTTP. */
  readonly stdio: boolean;
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

  const loaded = await loadConfig(options.configPath);
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
  if (gateway.url !== undefined) say(`mcpproxy gateway serving MCP at ${gateway.url} and REST at ${gateway.origin ?? ''}/api/v1 (config: ${source})`);
  else log(`gateway serving MCP on stdio (config: ${source})`);

  log(`${await stopped}: shutting down`);
  try {
    await gateway.close();
    return { ok: true };
  } catch (error) {
    return { ok: false, code: 'shutdown', message: `shutdown: ${error instanceof Error ? error.message : String(error)}` };
  }
}
