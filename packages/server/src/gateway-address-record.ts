import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * `<data_dir>/gateway.json`: where the gateway that holds this data directory actually listens, so
 * that the CLI finds it with nothing to configure, also when it was told to take any free port
 * (`--listen 127.0.0.1:0`). The CLI reads this file by name; keep the two in step.
 */
export const GATEWAY_ADDRESS_FILE = 'gateway.json';

export interface GatewayAddress {
  readonly pid: number;
  /** The origin a client on this machine dials, e.g. http://127.0.0.1:8080 (MCP at /mcp, REST at /api/v1). */
  readonly origin: string;
}

/** Writes the record (complete, atomically, owner-only); the returned function removes it if it is still ours. */
export function recordGatewayAddress(dataDir: string, origin: string): () => void {
  const path = join(dataDir, GATEWAY_ADDRESS_FILE);
  const staging = `${path}.${process.pid}`;
  const record: GatewayAddress = { pid: process.pid, origin };
  writeFileSync(staging, `${JSON.stringify(record)}\n`, { mode: 0o600 });
  renameSync(staging, path);
  return () => {
    try {
      const current = JSON.parse(readFileSync(path, 'utf8')) as Partial<GatewayAddress>;
      if (current.pid === process.pid) unlinkSync(path);
    } catch {
      // gone already, or a successor's record that is not ours to remove
    }
  };
}
