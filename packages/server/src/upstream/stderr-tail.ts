import type { Stream } from 'node:stream';

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
    const parts = (this.partial + text).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) {
      if (line.trim() === '') continue;
      this.lines.push(line.trimEnd());
      if (this.lines.length > this.keep) this.lines.shift();
    }
  }
}
