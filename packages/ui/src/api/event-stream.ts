import type { GatewayEvent } from '@mcpproxy/schema';
import { GatewayError } from './gateway-client.js';
import { SseParser } from './sse-parser.js';

export interface EventStreamHandlers {
  /** Every event, hello first on each (re)connection. */
  onEvent(event: GatewayEvent): void;
  /** Whether the stream is open now (for the page's live indicator). */
  onLive(live: boolean): void;
  /** The gateway refused the key (401) or the tier (403): the stream is not retried. */
  onRefused(error: GatewayError): void;
}

const RETRY_MS = 2000;

/**
 * Follows GET /api/v1/events with fetch, since the browser's EventSource cannot send the key
 * header (and a key in the URL would end up in logs and history). A dropped stream reconnects after
 * a pause, and its hello tells the page to read the lists again; a refused key ends it for good.
 * Returns the function that stops it.
 */
export function followEvents(key: string, handlers: EventStreamHandlers): () => void {
  const controller = new AbortController();
  const run = async () => {
    while (!controller.signal.aborted) {
      try {
        const response = await fetch('/api/v1/events', { headers: { 'x-api-key': key, accept: 'text/event-stream' }, signal: controller.signal, cache: 'no-store', credentials: 'omit' });
        if (response.status === 401 || response.status === 403) {
          const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string };
          handlers.onRefused(new GatewayError(response.status, body.code ?? 'unauthorized', body.message ?? 'The key was refused'));
          return;
        }
        if (!response.ok || response.body === null) throw new Error(`HTTP ${response.status}`);
        handlers.onLive(true);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        const parser = new SseParser();
        for (;;) {
          const chunk = await reader.read();
          if (chunk.done) break;
          for (const event of parser.push(chunk.value)) handlers.onEvent(JSON.parse(event.data) as GatewayEvent);
        }
      } catch {
        // A dropped connection or a gateway that is restarting: try again below.
      }
      handlers.onLive(false);
      if (controller.signal.aborted) return;
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  };
  void run();
  return () => controller.abort();
}
