import { writeFileSync } from 'node:fs';

/**
 * Counts the event streams the fixture has opened to its clients (a 2025-11-25 session's GET stream,
 * a 2026-07-28 subscriptions/listen), rewriting the count in a file: a test waits for a stream to be
 * open, the way a notification needs it, instead of sleeping and hoping.
 */
export class StreamCounter {
  private count = 0;

  constructor(private readonly file: string | undefined) {
    this.flush();
  }

  opened(): void {
    this.count += 1;
    this.flush();
  }

  private flush(): void {
    if (this.file !== undefined) writeFileSync(this.file, String(this.count));
  }
}
