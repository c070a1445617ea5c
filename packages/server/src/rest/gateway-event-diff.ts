import type { GatewayEvent } from '@mcpproxy/schema';
import { OPERATOR } from '../auth/rest-principal.js';
import type { PublishedState, RuntimeServerSnapshot } from '../state/gateway-runtime.js';
import { serverInfo } from './server-inventory.js';
import { servedNames } from './served-set.js';
import { knownTools, toolInfo } from './tool-inventory.js';

/**
 * What an operator's event stream has been told, and the events that bring it to a new state: a
 * `server` event for each server whose listing entry changed, a `tool` event for each tool entry that
 * changed or appeared, `tool_removed` for one no longer known. Only servers whose snapshot object
 * changed are looked at (unchanged ones are the same object from one version to the next), and an
 * entry is sent only when its JSON differs from the last one sent.
 */
export class GatewayEventDiff {
  private readonly servers = new Map<string, { snapshot: RuntimeServerSnapshot; json: string; tools: Map<string, string> }>();

  /** Takes `state` as what the client has (it reads the lists after `hello`). */
  constructor(state: PublishedState) {
    this.advance(state);
  }

  /** The events from the last state to this one, in server then tool order. */
  advance(state: PublishedState): GatewayEvent[] {
    const events: GatewayEvent[] = [];
    const { version } = state.snapshot;
    let served: ReadonlySet<string> | undefined;
    for (const [name, server] of state.snapshot.servers) {
      const known = this.servers.get(name);
      if (known?.snapshot === server) continue;
      served ??= servedNames(state, OPERATOR.scope);
      const info = serverInfo(state, server, served);
      const json = JSON.stringify(info);
      const tools = known?.tools ?? new Map<string, string>();
      if (known !== undefined && known.json !== json) events.push({ type: 'server', version, server: info });
      const now = new Set<string>();
      for (const tool of knownTools(server)) {
        const entry = toolInfo(state, server, tool, 'operator', served);
        const text = JSON.stringify(entry);
        now.add(tool);
        if (tools.get(tool) !== text) {
          if (known !== undefined) events.push({ type: 'tool', version, tool: entry });
          tools.set(tool, text);
        }
      }
      for (const tool of tools.keys()) {
        if (now.has(tool)) continue;
        tools.delete(tool);
        events.push({ type: 'tool_removed', version, id: `${name}:${tool}` });
      }
      this.servers.set(name, { snapshot: server, json, tools });
    }
    return events;
  }
}
