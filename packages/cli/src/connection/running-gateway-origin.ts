import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Written by `mcpproxy serve` into its data directory while it runs (the server package's GATEWAY_ADDRESS_FILE). */
export const GATEWAY_ADDRESS_FILE = 'gateway.json';

/**
 * The origin the gateway holding `dataDir` really listens on, when one runs: it may have been told to
 * take any free port. Undefined when there is no record, it cannot be read, or its process is gone
 * (a gateway killed without its clean shutdown leaves the file behind).
 */
export function runningGatewayOrigin(dataDir: string): string | undefined {
  let record: unknown;
  try {
    record = JSON.parse(readFileSync(join(dataDir, GATEWAY_ADDRESS_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const { pid, origin } = record as { pid?: unknown; origin?: unknown };
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0 || typeof origin !== 'string' || !/^https?:\/\/[^/]+$/.test(origin)) return undefined;
  return isRunning(pid) ? origin : undefined;
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
