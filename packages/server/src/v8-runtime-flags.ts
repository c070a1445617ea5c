import { setFlagsFromString } from 'node:v8';

/** The V8 flags this process has set at run time, the latest of each by name (`--x`, `--no-x`, `--x=1`). */
const current = new Map<string, string>();

/** Sets a V8 flag now and remembers it, so that it can be set again after a worker thread starts. */
export function setRuntimeV8Flag(flag: string): void {
  current.set(flagName(flag), flag);
  setFlagsFromString(flag);
}

/**
 * Sets every remembered flag again. Starting a worker thread sets V8's (process-wide) flags back to the
 * command line's while the thread's isolate starts: without this, the store's checkpoint thread took the
 * gateway's young generation from 1 MiB semi-spaces back to V8's 16 MiB, and its scavenges from ~0.3 ms
 * to 1-5 ms, each one holding every answer in flight. Call it once the thread is online.
 */
export function reassertRuntimeV8Flags(): void {
  for (const flag of current.values()) setFlagsFromString(flag);
}

function flagName(flag: string): string {
  return flag
    .replace(/^--(no-)?/, '')
    .replace(/=.*$/, '')
    .replace(/_/g, '-');
}
