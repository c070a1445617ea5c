import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GATEWAY_ADDRESS_FILE } from '../gateway-address-record.js';

/** The operator socket's name in the data directory. */
export const SOCKET_FILE_NAME = 'gateway.sock';

/**
 * The longest socket path the platform's sockaddr_un holds, in bytes, without its closing NUL:
 * sun_path is 108 bytes on Linux and 104 on macOS and the BSDs. Node does not refuse a longer
 * path: it cuts it short without a word, and the socket would appear under another name.
 */
export function maxSocketPathBytes(platform: NodeJS.Platform = process.platform): number {
  return platform === 'linux' ? 107 : 103;
}

export type SocketLocation =
  | {
      readonly ok: true;
      readonly path: string;
      /** A private directory made for the socket (the data directory's path was too long); removed with it. */
      readonly privateDir?: string;
      /** Why the socket is not in the data directory, for the log. */
      readonly note?: string;
    }
  | { readonly ok: false; readonly message: string };

export interface SocketLocationOptions {
  readonly platform?: NodeJS.Platform;
  /** Where a private directory is made when the data directory's path is too long (default: the OS temp dir). */
  readonly tmpDir?: string;
}

/**
 * `<data_dir>/gateway.sock` when that path fits in sun_path. Otherwise the socket goes into a fresh
 * private directory (mode 0700, made by mkdtemp, so no other user can have prepared it) under the
 * temp directory, and the address record in the data directory names it, which is how the CLI
 * and a second gateway find it either way. Windows has no Unix domain sockets here: no socket.
 */
export function chooseSocketLocation(dataDir: string, options: SocketLocationOptions = {}): SocketLocation {
  const platform = options.platform ?? process.platform;
  if (platform === 'win32') return { ok: false, message: 'no local socket on Windows (operator commands reach an HTTP gateway only)' };
  const max = maxSocketPathBytes(platform);
  const inDataDir = join(dataDir, SOCKET_FILE_NAME);
  const length = Buffer.byteLength(inDataDir);
  if (length <= max) return { ok: true, path: inDataDir };
  const base = options.tmpDir ?? tmpdir();
  const probe = join(base, 'mcpproxy-XXXXXX', SOCKET_FILE_NAME);
  if (Buffer.byteLength(probe) > max) {
    return { ok: false, message: `no local socket: ${inDataDir} is ${length} bytes and ${probe} would be ${Buffer.byteLength(probe)}, both over the ${max}-byte limit of a socket path; use a shorter data_dir or TMPDIR` };
  }
  let privateDir: string;
  try {
    privateDir = mkdtempSync(join(base, 'mcpproxy-'));
  } catch (cause) {
    return { ok: false, message: `no local socket: ${inDataDir} is over the ${max}-byte limit of a socket path, and no private directory could be made in ${base}: ${cause instanceof Error ? cause.message : String(cause)}` };
  }
  const path = join(privateDir, SOCKET_FILE_NAME);
  return { ok: true, path, privateDir, note: `${inDataDir} is ${length} bytes, over the ${max}-byte limit of a socket path: the socket is ${path} instead (named in ${GATEWAY_ADDRESS_FILE})` };
}
