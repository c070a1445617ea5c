import { EXTENSION_ID } from '@mcpproxy/schema';
import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { clientDeclaration, isNegotiated, isRecord, member } from './negotiation.js';

/**
 * The prototypes of the repository's decision records (docs/decisions/) the extension can serve:
 * `pins`, pin_hash on rider entries (record 0003); `error_facet`, a malformed rider answered by
 * the carrier's normal answer and an error facet instead of -32602 (record 0002); `batch_resolve`,
 * tools/resolve naming 1-50 tools in one exchange (record 0004); `ping_carrier`, the rider on
 * `ping` (record 0001). The gateway's
 * config enum (extension_experiments) lists the same names.
 */
export const EXTENSION_EXPERIMENTS = ['pins', 'error_facet', 'batch_resolve', 'ping_carrier'] as const;
export type ExtensionExperiment = (typeof EXTENSION_EXPERIMENTS)[number];

const KNOWN = new Set<string>(EXTENSION_EXPERIMENTS);
const NONE: ReadonlySet<ExtensionExperiment> = new Set();

/** The server's `experiments` option as a set; a name the extension does not have is refused, not ignored. */
export function enabledExperiments(option: Iterable<unknown> | undefined): ReadonlySet<ExtensionExperiment> {
  if (option === undefined) return NONE;
  const enabled = new Set<ExtensionExperiment>();
  for (const name of option) {
    if (typeof name !== 'string' || !KNOWN.has(name)) {
      throw new TypeError(`${EXTENSION_ID}: unknown experiment ${JSON.stringify(name)} (known: ${EXTENSION_EXPERIMENTS.join(', ')})`);
    }
    enabled.add(name as ExtensionExperiment);
  }
  return enabled;
}

/**
 * The prototypes that serve one request: those the server enabled AND the client asked for by name,
 * `experimental: { <name>: true }`, inside the declaration that negotiated the extension on this
 * request (2026-07-28: the request's own clientCapabilities; 2025-11-25: the session's initialize).
 * Both, because a client that mirrors the settings as they are must see exactly the settings-version
 * behaviour whatever the server enables, and the operator decides which unfinished paths the
 * agents of a server can reach. Empty whenever either side is silent.
 */
export function requestedExperiments(server: Server, ctx: ServerContext, enabled: ReadonlySet<ExtensionExperiment>): ReadonlySet<ExtensionExperiment> {
  return enabled.size === 0 ? NONE : grantedExperiments(clientDeclaration(server, ctx, EXTENSION_ID), enabled);
}

/** {@link requestedExperiments} for the client's declaration of the extension on the request. */
export function grantedExperiments(declaration: unknown, enabled: ReadonlySet<ExtensionExperiment>): ReadonlySet<ExtensionExperiment> {
  if (enabled.size === 0) return NONE;
  if (!isNegotiated(declaration)) return NONE;
  const asked = member(declaration, 'experimental');
  if (!isRecord(asked)) return NONE;
  const granted = new Set<ExtensionExperiment>();
  for (const name of enabled) {
    if (Object.hasOwn(asked, name) && asked[name] === true) granted.add(name);
  }
  return granted;
}
