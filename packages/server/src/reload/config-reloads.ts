import { readFileSync } from 'node:fs';
import { loadConfig, type ConfigOverrides, type ResolvedConfig } from '../config/gateway-config.js';
import type { GatewayReload } from './gateway-reload.js';
import { watchConfigFile } from './config-file-watch.js';
import { reloadLogLines } from './reload-log.js';

export interface ConfigReloadsOptions {
  /** The file the gateway started on; undefined for the embedded default (nothing to reload). */
  readonly configPath: string | undefined;
  /** What the command line set over the file at start (`--listen`); applied again on every reload. */
  readonly overrides: ConfigOverrides;
  readonly reload: (next: ResolvedConfig) => Promise<GatewayReload>;
  /** Whether the configuration the gateway started on asks for the watch (watch_config). */
  readonly watch: boolean;
  readonly log: (line: string) => void;
}

export type ReloadTrigger = 'SIGHUP' | 'file change';

/**
 * Reloads the configuration file on request (SIGHUP) and, while watch_config is on, when it changes.
 * A file that does not load is refused with the same errors as at start, and the gateway runs on.
 * Requests that arrive during a reload fold into one more reload after it.
 */
export class ConfigReloads {
  private running: Promise<void> | undefined;
  private again: ReloadTrigger | undefined;
  private stopWatching: (() => void) | undefined;
  /** The text the last load read, so that a watch event that changed nothing reloads nothing. */
  private lastText: string | undefined;
  private closed = false;

  constructor(private readonly options: ConfigReloadsOptions) {
    this.lastText = this.readText();
    this.setWatch(options.watch);
  }

  /** Settles when this request (or the one it folded into) is done; never rejects. */
  request(trigger: ReloadTrigger): Promise<void> {
    if (this.running !== undefined) {
      this.again ??= trigger;
      return this.running;
    }
    this.running = this.reloadOnce(trigger).finally(() => {
      this.running = undefined;
      const next = this.again;
      this.again = undefined;
      if (next !== undefined && !this.closed) void this.request(next);
    });
    return this.running;
  }

  close(): void {
    this.closed = true;
    this.setWatch(false);
  }

  private async reloadOnce(trigger: ReloadTrigger): Promise<void> {
    const { configPath, log } = this.options;
    if (this.closed) return;
    if (configPath === undefined) {
      log(`${trigger}: no configuration file (the embedded default runs), nothing to reload`);
      return;
    }
    const text = this.readText();
    if (trigger === 'file change' && text !== undefined && text === this.lastText) return;
    this.lastText = text;
    log(`config reload (${trigger}): reading ${configPath}`);
    const loaded = await loadConfig(configPath, this.options.overrides);
    if (!loaded.ok) {
      log('config reload refused; the gateway keeps running on the configuration it had:');
      for (const line of loaded.error.message.split('\n')) log(`  ${line}`);
      return;
    }
    let result: GatewayReload;
    try {
      result = await this.options.reload(loaded.config);
    } catch (error) {
      log(`config reload failed, nothing changed: ${error instanceof Error ? error.message : String(error)}`);
      return;
    }
    for (const line of reloadLogLines(result)) log(`config reload: ${line}`);
    if (loaded.config.watch_config !== (this.stopWatching !== undefined)) {
      this.setWatch(loaded.config.watch_config);
      if (!loaded.config.watch_config) log('config reload: watch_config off');
    }
    log('config reload: done');
  }

  private setWatch(on: boolean): void {
    const { configPath, log } = this.options;
    if (!on || configPath === undefined || this.closed) {
      this.stopWatching?.();
      this.stopWatching = undefined;
      return;
    }
    if (this.stopWatching !== undefined) return;
    this.stopWatching = watchConfigFile(configPath, () => void this.request('file change'), (error) => log(`watching ${configPath}: ${error.message}`));
    log(`watch_config: reloading ${configPath} whenever it changes`);
  }

  private readText(): string | undefined {
    if (this.options.configPath === undefined) return undefined;
    try {
      return readFileSync(this.options.configPath, 'utf8');
    } catch {
      return undefined;
    }
  }
}
