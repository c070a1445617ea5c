import { writeFileSync } from 'node:fs';

/**
 * Counts every JSON-RPC message the fixture receives (a batch counts each member) and, when
 * given a file, rewrites the count there after each one, so a test can assert that some
 * gateway operation caused zero upstream I/O.
 */
export class MessageCounter {
  private count = 0;

  constructor(private readonly file: string | undefined) {
    this.flush();
  }

  get value(): number {
    return this.count;
  }

  /** One parsed JSON body (object or batch). Unparseable input still counts as one message. */
  addBody(body: unknown): void {
    this.add(Array.isArray(body) ? Math.max(body.length, 1) : 1);
  }

  /** Newline-delimited stdio input: one JSON value per non-empty line. */
  addLine(line: string): void {
    if (line.trim() === '') return;
    try {
      this.addBody(JSON.parse(line) as unknown);
    } catch {
      this.add(1);
    }
  }

  private add(n: number): void {
    this.count += n;
    this.flush();
  }

  private flush(): void {
    if (this.file !== undefined) writeFileSync(this.file, String(this.count));
  }
}
