import type { GatewayEvent } from '@mcpproxy/schema';
import { OPERATOR } from '../auth/rest-principal.js';
import type { PublishedState, RuntimeServerSnapshot } from '../state/gateway-runtime.js';
import { serverInfo } from './server-inventory.js';
import { servedNames } from './served-set.js';
import { knownTools, toolInfo } from './tool-inventory.js';

/**
 * What a server's tool entries are computed from: its listing, its approvals, and whether it is
 * served at all (the served listing's own rule). A connection that flaps while these stay the same
 * (the common case) costs no walk over its tools.
 */
function sameToolInputs(a: RuntimeServerSnapshot, b: RuntimeServerSnapshot): boolean {
  return a.tools === b.tools && a.approvals === b.approvals && a.enabled === b.enabled && a.quarantined === b.quarantined && a.connection.ever_ready === b.connection.ever_ready;
}

/**
 * What an operator's event stream has been told, and the events that bring it to a new state: a
 * `server` event for each server whose listing entry changed, a `tool` event for each tool entry that
 * changed or appeared, `tool_removed` for one no longer known. Only servers whose snapshot object
 * changed are looked at (unchanged ones are the same object from one version to the next), their
 * tools only when what the entries are made of changed, and an entry is sent only when its JSON
 * differs from the last one sent.
 */
/** What one tool entry was made of when it was last sent: the same three give the same entry. */
interface SentTool {
  readonly approval: unknown;
  readonly indexed: unknown;
  readonly served: boolean;
}

export class GatewayEventDiff {
  private readonly servers = new Map<string, { snapshot: RuntimeServerSnapshot; json: string; tools: Map<string, SentTool> }>();

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
      const tools = known?.tools ?? new Map<string, SentTool>();
      if (known !== undefined && known.json !== json) events.push({ type: 'server', version, server: info });
      if (known !== undefined && sameToolInputs(known.snapshot, server)) {
        this.servers.set(name, { snapshot: server, json, tools });
        continue;
      }
      const now = new Set<string>();
      for (const tool of knownTools(server)) {
        now.add(tool);
        // Approval records and listed tools are immutable: the same objects make the same entry.
        const inputs: SentTool = { approval: server.approvals.get(tool), indexed: server.tools.get(tool), served: served.has(`${name}:${tool}`) };
        const sent = tools.get(tool);
        if (sent !== undefined && sent.approval === inputs.approval && sent.indexed === inputs.indexed && sent.served === inputs.served) continue;
        tools.set(tool, inputs);
        if (known !== undefined) events.push({ type: 'tool', version, tool: toolInfo(state, server, tool, 'operator', served) });
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
