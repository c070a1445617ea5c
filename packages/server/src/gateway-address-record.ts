import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessRunning } from './store/data-dir-lock.js';

/**
 * `<data_dir>/gateway.json`: where the gateway that holds this data directory can be reached, so
 * that the CLI (and a second stdio gateway) find it with nothing to configure, also when it was
 * told to take any free port (`--listen 127.0.0.1:0`) or serves MCP on stdio with no HTTP listener.
 * The CLI reads this file by name; keep the two in step.
 */
export const GATEWAY_ADDRESS_FILE = 'gateway.json';

export interface GatewayAddress {
  readonly pid: number;
  /** The origin a client on this machine dials, e.g. http://127.0.0.1:8080 (MCP at /mcp, REST at /api/v1). Absent in stdio mode. */
  readonly origin?: string;
  /** The local operator socket (REST at /api/v1, the stdio relay channel), when one is open. */
  readonly socket?: string;
}

/** Writes the record (complete, atomically, owner-only); the returned function removes it if it is still ours. */
export function recordGatewayAddress(dataDir: string, where: { readonly origin?: string; readonly socket?: string }): () => void {
  const path = join(dataDir, GATEWAY_ADDRESS_FILE);
  const staging = `${path}.${process.pid}`;
  const record: GatewayAddress = { pid: process.pid, ...(where.origin === undefined ? {} : { origin: where.origin }), ...(where.socket === undefined ? {} : { socket: where.socket }) };
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

/** The record of the gateway holding `dataDir`, when there is one whose process still runs. */
export function readGatewayAddress(dataDir: string): GatewayAddress | undefined {
  let record: unknown;
  try {
    record = JSON.parse(readFileSync(join(dataDir, GATEWAY_ADDRESS_FILE), 'utf8'));
  } catch {
    return undefined;
  }
  if (typeof record !== 'object' || record === null) return undefined;
  const { pid, origin, socket } = record as Record<string, unknown>;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0 || !isProcessRunning(pid)) return undefined;
  return { pid, ...(typeof origin === 'string' ? { origin } : {}), ...(typeof socket === 'string' ? { socket } : {}) };
}
