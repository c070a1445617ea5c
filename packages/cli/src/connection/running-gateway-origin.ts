import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Written by `mcpproxy serve` into its data directory while it runs (the server package's GATEWAY_ADDRESS_FILE). */
export const GATEWAY_ADDRESS_FILE = 'gateway.json';

/** Where the gateway holding a data directory can be reached: its HTTP origin, its local socket, or both. */
export interface RunningGateway {
  readonly pid: number;
  readonly origin?: string;
  readonly socket?: string;
}

/**
 * The origin the gateway holding `dataDir` really listens on, when one runs: it may have been told to
 * take any free port. Undefined when there is no record, it cannot be read, or its process is gone
 * (a gateway killed without its clean shutdown leaves the file behind).
 */
export function runningGatewayOrigin(dataDir: string): string | undefined {
  return runningGateway(dataDir)?.origin;
}

/**
 * The record of the gateway holding `dataDir`, when its process still runs: an HTTP origin (HTTP mode)
 * and the local socket every gateway opens in its data directory (a stdio gateway has only that). Parts
 * that do not have their shape are left out.
 */
export function runningGateway(dataDir: string): RunningGateway | undefined {
  let record: unknown;
  try {
    record = JSON.parse(readFileSync(join(dataDir, GATEWAY_ADDRESS_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const { pid, origin, socket } = record as { pid?: unknown; origin?: unknown; socket?: unknown };
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0 || !isRunning(pid)) return undefined;
  const validOrigin = typeof origin === 'string' && /^https?:\/\/[^/]+$/.test(origin) ? origin : undefined;
  const validSocket = typeof socket === 'string' && socket.startsWith('/') ? socket : undefined;
  if (validOrigin === undefined && validSocket === undefined) return undefined;
  return { pid, ...(validOrigin === undefined ? {} : { origin: validOrigin }), ...(validSocket === undefined ? {} : { socket: validSocket }) };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (cause) {
    // EPERM: it runs, as another user.
    return typeof cause === 'object' && cause !== null && (cause as { code?: unknown }).code === 'EPERM';
  }
}
