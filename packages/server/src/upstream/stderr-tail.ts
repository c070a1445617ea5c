import type { Stream } from 'node:stream';

/**
 * The longest line kept (UTF-16 code units). An upstream may write stderr without a newline for ever;
 * what it writes past this is dropped, so memory stays bounded and a chunk costs only its own length.
 */
export const STDERR_LINE_MAX = 4096;

/** Keeps the last few lines an upstream process wrote to stderr, for last_error and logs. */
export class StderrTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(private readonly keep = 20) {}

  attach(stream: Stream | null): void {
    stream?.on('data', (chunk: Buffer | string) => this.push(chunk.toString()));
  }

  last(): string | undefined {
    const pending = this.partial.trim();
    return pending !== '' ? pending : this.lines.at(-1);
  }

  all(): readonly string[] {
    return this.partial.trim() === '' ? [...this.lines] : [...this.lines, this.partial];
  }

  private push(text: string): void {
    const parts = text.split('\n');
    // The first part continues the unfinished line; every later part starts a line of its own.
    parts[0] = this.partial + parts[0];
    this.partial = clip(parts.pop() ?? '');
    for (const line of parts) {
      if (line.trim() === '') continue;
      this.lines.push(clip(line).trimEnd());
      if (this.lines.length > this.keep) this.lines.shift();
    }
  }
}

function clip(line: string): string {
  return line.length <= STDERR_LINE_MAX ? line : line.slice(0, STDERR_LINE_MAX);
}
