import { readGatewayAddress, type GatewayAddress } from '../gateway-address-record.js';
import { dataDirLockHolder } from '../store/data-dir-lock.js';
import { openStdioRelay } from './stdio-relay.js';

export interface RelayToRunningOptions {
  readonly dataDir: string;
  readonly apiKey: string;
  /** Settles, with why, when this process is told to stop (a signal, or its stdin closed). */
  readonly stopped: Promise<string>;
  readonly log: (line: string) => void;
  /** How long to wait for the gateway holding the lock to record where it can be reached (it may be starting). */
  readonly findWithinMs?: number;
}

/**
 * done: the client closed its side, or this process was told to stop; refused: no relay could be
 * opened (nothing was served); ended: the running gateway stopped under the relayed session;
 * released: that gateway let the data directory go before it could be reached (it was stopping, say
 * while a desktop client restarted), so this process may start a gateway of its own after all.
 */
export type RelayOutcome =
  | { readonly kind: 'done' }
  | { readonly kind: 'released' }
  | { readonly kind: 'refused' | 'ended'; readonly message: string };

const FIND_WITHIN_MS = 10_000;
const FIND_EVERY_MS = 100;

/**
 * The second `serve --stdio` on a data directory: instead of refusing (desktop clients start one
 * gateway per window, and the SDK's own stdio client probes with a sibling), it relays its client's
 * MCP session to the gateway that holds the directory, over that gateway's local socket. The client
 * sees that gateway's servers and state, the same for every window; this process's own configuration
 * file is not applied. The relay lasts until the client closes its side or this process is stopped;
 * when the running gateway stops first, this one exits 1, as any server whose process ended. When the
 * gateway holding the directory lets it go before it could be reached (it was stopping: a desktop
 * client restarting), the outcome says so and the caller starts a gateway of its own after all.
 */
export async function relayToRunningGateway(options: RelayToRunningOptions): Promise<RelayOutcome> {
  const { dataDir, log } = options;
  const withinMs = options.findWithinMs ?? FIND_WITHIN_MS;
  const found = await findRunningGateway(dataDir, withinMs, options.stopped, () =>
    log(`data directory ${dataDir} is held by pid ${dataDirLockHolder(dataDir) ?? '?'}, which has not recorded where it can be reached yet: waiting up to ${withinMs / 1000} s`),
  );
  if (found === 'stopped') return { kind: 'done' };
  if (found === 'released') return { kind: 'released' };
  const inUse = `data directory ${dataDir} is in use by another gateway`;
  if (found === 'unrecorded') return { kind: 'refused', message: `${inUse}, which has not recorded where it can be reached; stop that gateway or start this one with another data_dir` };
  if (found.socket === undefined) {
    return { kind: 'refused', message: `${inUse} (${describe(found)}), which has no local socket to relay this stdio session to; stop that gateway or start this one with another data_dir` };
  }
  const opened = await openStdioRelay({ socketPath: found.socket, apiKey: options.apiKey, input: process.stdin, output: process.stdout });
  if (!opened.ok) return { kind: 'refused', message: `${inUse} (${describe(found)}) and relaying to it failed: ${opened.message}` };
  log(`data directory ${dataDir} is in use by the gateway pid ${found.pid}: relaying this stdio session to it over ${found.socket} (its configuration applies, not this process's)`);
  const stoppedFirst = options.stopped.then((why) => ({ stopped: why }));
  const end = await Promise.race([stoppedFirst, opened.relay.ended.then((how) => ({ relay: how }))]);
  if ('relay' in end && end.relay === 'gateway_closed') return { kind: 'ended', message: `the gateway pid ${found.pid} that this stdio session was relayed to has stopped` };
  opened.relay.close();
  return { kind: 'done' };
}

/**
 * The running gateway's record; 'released' when the lock went before a record showed (that gateway was
 * stopping); 'unrecorded' when neither happened in time; 'stopped' when this process was told to stop.
 */
async function findRunningGateway(dataDir: string, withinMs: number, stopped: Promise<string>, onWait: () => void): Promise<GatewayAddress | 'released' | 'unrecorded' | 'stopped'> {
  let stop = false;
  let waiting = false;
  void stopped.then(() => (stop = true));
  const deadline = Date.now() + withinMs;
  for (;;) {
    // The record is written once the gateway has started, so any record of a live process is final.
    const record = readGatewayAddress(dataDir);
    if (record !== undefined) return record;
    // A stopping gateway removes its record first and its lock last.
    if (dataDirLockHolder(dataDir) === undefined) return 'released';
    if (stop) return 'stopped';
    if (Date.now() >= deadline) return 'unrecorded';
    if (!waiting) onWait();
    waiting = true;
    await new Promise((resolve) => setTimeout(resolve, FIND_EVERY_MS));
  }
}

function describe(record: GatewayAddress): string {
  return `pid ${record.pid}${record.origin === undefined ? '' : `, serving ${record.origin}`}`;
}
