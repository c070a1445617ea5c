// Reads an SSE response as it arrives: the tests wait for a frame or for the stream's end, never sleep.
export interface EventStreamReader {
  /** Every `data:` payload so far, parsed. */
  readonly messages: unknown[];
  /** Settles when the server ends the stream (or the connection drops). */
  readonly ended: Promise<void>;
  /** Resolves with the first message (so far or later) that satisfies `predicate`. */
  waitFor(predicate: (message: unknown) => boolean): Promise<unknown>;
  cancel(): Promise<void>;
}

export function readEventStream(response: Response): EventStreamReader {
  if (response.body === null) throw new Error(`no event stream (status ${response.status})`);
  const reader = response.body.getReader();
  const messages: unknown[] = [];
  const waiters: { predicate: (message: unknown) => boolean; resolve: (message: unknown) => void }[] = [];
  const decoder = new TextDecoder();
  let buffered = '';
  const deliver = (message: unknown) => {
    messages.push(message);
    for (const waiter of waiters.splice(0)) {
      if (waiter.predicate(message)) waiter.resolve(message);
      else waiters.push(waiter);
    }
  };
  const ended = (async () => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return;
        buffered += decoder.decode(chunk.value, { stream: true });
        let cut: number;
        while ((cut = buffered.indexOf('\n\n')) !== -1) {
          const frame = buffered.slice(0, cut);
          buffered = buffered.slice(cut + 2);
          const data = frame.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n');
          if (data !== '') deliver(JSON.parse(data));
        }
      }
    } catch {
      // A dropped connection is an end too.
    }
  })();
  return {
    messages,
    ended,
    waitFor: (predicate) => {
      const seen = messages.find(predicate);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ predicate, resolve }));
    },
    cancel: () => reader.cancel().catch(() => undefined),
  };
}
