import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { CliError } from '../cli-error.js';

/** What the CLI needs from a gateway configuration file to reach that gateway. */
export interface GatewayAddressConfig {
  readonly listen?: string;
  readonly data_dir?: string;
  readonly api_key?: string;
  /** The directory relative paths in the file are taken from. */
  readonly base: string;
}

/**
 * Reads only the connection facts of a configuration file. The gateway validates the whole file
 * when it starts; a client must not (it would refuse a gateway it can reach) and must never
 * generate the API key the way the gateway does on first start.
 */
export function readGatewayAddressConfig(path: string): GatewayAddressConfig {
  const file = resolve(path);
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''));
  } catch (cause) {
    const why = cause instanceof SyntaxError ? `not valid JSON (${cause.message})` : cause instanceof Error ? cause.message : String(cause);
    throw new CliError('config', `cannot read the configuration ${file}: ${why}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CliError('config', `${file}: expected a JSON object`);
  const record = value as Record<string, unknown>;
  const text = (key: string): string | undefined => {
    const field = record[key];
    if (field === undefined) return undefined;
    if (typeof field !== 'string') throw new CliError('config', `${file}: /${key}: expected a string`);
    return field;
  };
  const listen = text('listen');
  const dataDir = text('data_dir');
  const apiKey = text('api_key');
  return {
    base: dirname(file),
    ...(listen === undefined ? {} : { listen }),
    ...(dataDir === undefined ? {} : { data_dir: dataDir }),
    ...(apiKey === undefined ? {} : { api_key: apiKey }),
  };
}
