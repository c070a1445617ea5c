import { appendFileSync } from 'node:fs';

/** Something the fixture saw that a test wants to read back (one JSON line each in the events file). */
export type FixtureEvent =
  | { readonly event: 'cancelled'; readonly tool: string; readonly request_id: string | number; readonly progress_token?: string | number }
  | { readonly event: 'asked'; readonly tool: string; readonly method: string; readonly outcome: 'answered' | 'failed'; readonly detail: unknown }
  | { readonly event: 'subscribed' | 'unsubscribed'; readonly uri: string };

/**
 * Appends events to `--events-file`, so a test sees what reached this upstream from behind the
 * gateway (a cancellation and the id it named, what a request to the client came back with, resource
 * subscriptions coming and going).
 */
export class FixtureEvents {
  constructor(private readonly file: string | undefined) {}

  record(event: FixtureEvent): void {
    if (this.file !== undefined) appendFileSync(this.file, `${JSON.stringify(event)}\n`);
  }
}
