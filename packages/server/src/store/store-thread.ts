import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { reassertRuntimeV8Flags } from '../v8-runtime-flags.js';

/** What every store thread receives besides its own data: its end of the channel and the shutdown flag. */
export interface StoreThreadData {
  readonly port: MessagePort;
  /** The thread sets [0] to 1 and notifies once it has finished and closed its database. */
  readonly closed: Int32Array;
}

/** The event loop's handle on one store thread. */
export interface StoreThread {
  readonly worker: Worker;
  /** The event loop's end of the channel (unref'd: a thread never keeps the process alive by itself). */
  readonly port: MessagePort;
  /**
   * Sends `request` (the thread's "finish" message) and blocks until the thread says it is done, at
   * most `timeoutMs`: the store's close() is synchronous, and must not return while a thread still
   * holds the database. Returns whether the thread finished in time.
   */
  finish(request: unknown, timeoutMs?: number): boolean;
}

/**
 * Starts one of the store's threads (`name` is a module next to this one). Built, it is the `.js`
 * file in dist. Run from the TypeScript source (the tests), Node cannot load a `.ts` thread on its
 * own, so the thread first registers tsx's loader, resolved from this package.
 */
export function startStoreThread(name: string, data: Readonly<Record<string, unknown>>): StoreThread {
  const { port1, port2 } = new MessageChannel();
  const closed = new Int32Array(new SharedArrayBuffer(4));
  // No options from the command line: a worker inherits them, and under `node -e <script>` (or `-p`)
  // they name the script, which the thread then ran in place of its own module (its close() waited out
  // the bound below). The thread needs none; V8's flags are the process's and reasserted once it is online.
  const options = { workerData: { ...data, port: port2, closed }, transferList: [port2], execArgv: [] };
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = new URL(`./${name}${fromSource ? '.ts' : '.js'}`, import.meta.url);
  let worker: Worker;
  if (fromSource) {
    const loader = import.meta.resolve('tsx/esm/api');
    const bootstrap = `import(${JSON.stringify(loader)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
    worker = new Worker(bootstrap, { ...options, eval: true });
  } else {
    worker = new Worker(entry, options);
  }
  // The thread's start set V8's flags back to the command line's (the gateway's young-generation bound among them).
  worker.once('online', reassertRuntimeV8Flags);
  worker.unref();
  port1.unref();
  return {
    worker,
    port: port1,
    finish(request, timeoutMs = 10_000) {
      if (Atomics.load(closed, 0) === 0) port1.postMessage(request);
      const finished = Atomics.wait(closed, 0, 0, timeoutMs) !== 'timed-out';
      void worker.terminate();
      return finished;
    },
  };
}
