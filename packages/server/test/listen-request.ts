// A raw 2026-07-28 subscriptions/listen POST: the stream it opens, read as it arrives.
import { readEventStream, type EventStreamReader } from './event-stream-reader.js';

const MODERN = '2026-07-28';

export const isAcknowledged = (message: unknown) => (message as { method?: string }).method === 'notifications/subscriptions/acknowledged';
export const isListChanged = (message: unknown) => (message as { method?: string }).method === 'notifications/tools/list_changed';

/** Opens a listen stream for tools/list_changed and waits for its acknowledgement. */
export async function openListenStream(url: string, token?: string): Promise<EventStreamReader> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'subscriptions/listen',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'subscriptions/listen', params: { notifications: { toolsListChanged: true }, _meta: { 'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientCapabilities': {} } } }),
  });
  const reader = readEventStream(response);
  const first = await Promise.race([reader.waitFor(isAcknowledged), reader.ended.then(() => undefined)]);
  if (first === undefined) throw new Error(`the listen stream ended before its acknowledgement: ${JSON.stringify(reader.messages)}`);
  return reader;
}
