import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
export interface ListeningClient {
  client: Client;
  /** Settles once the session's standalone GET event stream has its response headers. */
  streamOpen: Promise<void>;
}

/**
 * A legacy (2025-11-25) SDK client whose standalone GET stream can be awaited: a notification
 * travels on that stream, so a test waits for it to be open rather than sleeping and hoping.
 */
export async function connectListeningClient(url: string, token?: string): Promise<ListeningClient> {
  let opened!: () => void;
  const streamOpen = new Promise<void>((resolve) => (opened = resolve));
  const observe: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const isGet = (init?.method ?? 'GET').toUpperCase() === 'GET';
    if (isGet && response.ok && (response.headers.get('content-type') ?? '').startsWith('text/event-stream')) opened();
    return response;
  };
  const client = new Client({ name: 'c2-test-listening', version: '1.0.0' });
  const headers = token === undefined ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers }, fetch: observe }));
  return { client, streamOpen };
}
