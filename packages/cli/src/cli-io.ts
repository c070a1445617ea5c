/** The process surroundings a command runs in; the binary passes the real ones, nothing else is global. */
export interface CliIo {
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** Reads all of standard input (auth login --token-stdin). */
  readStdin(): Promise<string>;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** A hook for long-running commands (serve) to learn that the process should stop. */
  readonly signals?: NodeJS.EventEmitter;
}

export interface Writable {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/** Standard input read to its end as UTF-8. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
