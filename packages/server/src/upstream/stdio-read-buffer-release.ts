import type { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/** The parts of the SDK's stdio line buffer this module touches (@modelcontextprotocol/client 2.4.0, pinned). */
interface ReadBufferInternals {
  _buffer?: Buffer;
  clear(): void;
  append(chunk: Buffer): void;
}

interface TransportInternals {
  _readBuffer?: ReadBufferInternals;
  processReadBuffer?: () => void;
}

/**
 * Lets the SDK's stdio transport give back a message's bytes once it has read the message.
 *
 * The transport joins an upstream's output chunks into one buffer per line and, after reading a
 * line, keeps `buffer.subarray(end)`: an empty (or short) view that holds the whole joined buffer
 * until the upstream writes again. A tools/list answer of 1,000 tools is ~0.6 MB, so ten idle
 * upstreams kept ~5.6 MiB of listing bytes nobody reads, beside the gateway's own prepared copy.
 * After every batch of read messages the rest (if any) is copied out and the joined buffer dropped.
 * The rest is at most the tail of one chunk, so the copy is small; a buffer still filling with an
 * unfinished line is not a view and stays as it is.
 *
 * If a later SDK renames these internals, this does nothing (and test/stdio-read-buffer-release.test.ts fails).
 */
export function releaseReadMessages(transport: StdioClientTransport): void {
  const internals = transport as unknown as TransportInternals;
  const readBuffer = internals._readBuffer;
  const processReadBuffer = internals.processReadBuffer;
  if (readBuffer === undefined || typeof processReadBuffer !== 'function') return;
  internals.processReadBuffer = function (this: unknown) {
    processReadBuffer.call(this);
    const rest = readBuffer._buffer;
    if (rest === undefined || rest.byteLength === rest.buffer.byteLength) return;
    readBuffer.clear();
    if (rest.byteLength > 0) readBuffer.append(Buffer.from(rest));
  };
}
