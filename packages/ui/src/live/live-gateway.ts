import type { GatewayEvent, ServerInfo, ToolInfo } from '@mcpproxy/schema';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { followEvents } from '../api/event-stream.js';
import type { GatewayClient, GatewayError } from '../api/gateway-client.js';

export interface LiveGateway {
  readonly servers: readonly ServerInfo[];
  readonly tools: readonly ToolInfo[];
  /** The event stream is open: what is shown follows the gateway without a reload. */
  readonly live: boolean;
  readonly loadError?: string;
  /** Reads both lists again (after an action, whose answer the events will also bring). */
  reload(): Promise<void>;
}

/**
 * The servers and tools as the gateway has them now: read once per (re)connection of the event
 * stream (its hello), then kept current by its server, tool and tool_removed events.
 */
export function useLiveGateway(client: GatewayClient, onRefused: (error: GatewayError) => void): LiveGateway {
  const [servers, setServers] = useState<readonly ServerInfo[]>([]);
  const [tools, setTools] = useState<readonly ToolInfo[]>([]);
  const [live, setLive] = useState(false);
  const [loadError, setLoadError] = useState<string | undefined>(undefined);

  const reload = useCallback(async () => {
    try {
      const [nextServers, nextTools] = await Promise.all([client.servers(), client.tools()]);
      setServers(nextServers);
      setTools(nextTools);
      setLoadError(undefined);
    } catch (error) {
      if (isRefusal(error)) onRefused(error);
      else setLoadError(error instanceof Error ? error.message : String(error));
    }
  }, [client, onRefused]);

  useEffect(() => {
    void reload();
    return followEvents(client.key, {
      onEvent: (event) => {
        if (event.type === 'hello') void reload();
        else applyEvent(event, setServers, setTools);
      },
      onLive: setLive,
      onRefused,
    });
  }, [client, reload, onRefused]);

  return { servers, tools, live, ...(loadError === undefined ? {} : { loadError }), reload };
}

function applyEvent(
  event: GatewayEvent,
  setServers: (update: (servers: readonly ServerInfo[]) => readonly ServerInfo[]) => void,
  setTools: (update: (tools: readonly ToolInfo[]) => readonly ToolInfo[]) => void,
): void {
  const { server, tool, id } = event;
  if (event.type === 'server' && server !== undefined) {
    setServers((list) => replaceOrAdd(list, server, (entry) => entry.name === server.name, (a, b) => compare(a.name, b.name)));
  } else if (event.type === 'tool' && tool !== undefined) {
    setTools((list) => replaceOrAdd(list, tool, (entry) => entry.id === tool.id, (a, b) => compare(a.server, b.server) || compare(a.tool, b.tool)));
  } else if (event.type === 'tool_removed' && id !== undefined) {
    setTools((list) => list.filter((entry) => entry.id !== id));
  }
}

function replaceOrAdd<T>(list: readonly T[], item: T, same: (entry: T) => boolean, order: (a: T, b: T) => number): readonly T[] {
  const at = list.findIndex(same);
  if (at !== -1) return list.map((entry, i) => (i === at ? item : entry));
  return [...list, item].sort(order);
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isRefusal(error: unknown): error is GatewayError {
  return typeof error === 'object' && error !== null && 'status' in error && ((error as GatewayError).status === 401 || (error as GatewayError).status === 403);
}
