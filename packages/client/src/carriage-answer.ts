import type { WireToolVerdict } from './tool-treatment.js';

/** What one carriage produced: a validated answer, or why it has none. */
export type CarriageAnswer =
  | { readonly ok: true; readonly answer: { readonly verdict: unknown; readonly checked_at: string; readonly request_id: string; readonly tools: readonly WireToolVerdict[] } }
  | { readonly ok: false; readonly reason: string };
