import { SETTINGS_VERSION } from '@mcpproxy/schema';
import type { Server, ServerContext } from '@modelcontextprotocol/server';

/** The 2026-07-28 envelope key holding the client's capabilities of this one request. */
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';
/** The 2026-07-28 envelope key every request of that revision carries. */
const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

/** Whether this request was sent on the 2026-07-28 revision (it carries the per-request envelope). */
export function isModernRequest(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;
  return envelope !== undefined && Object.hasOwn(envelope, PROTOCOL_VERSION_KEY);
}

/**
 * The client's declaration of `id`, read where the revision puts it: on 2026-07-28 in the
 * `extensions` of this request's own clientCapabilities (nothing is remembered between requests);
 * on 2025-11-25 in the `experimental` capabilities the client declared at initialize of this session.
 */
export function clientDeclaration(server: Server, ctx: ServerContext, id: string): unknown {
  const envelope = ctx.mcpReq.envelope as Readonly<Record<string, unknown>> | undefined;
  if (envelope !== undefined && Object.hasOwn(envelope, CLIENT_CAPABILITIES_KEY)) return envelopeDeclaration(envelope, id);
  // The accessor is deprecated for 2026-07-28 requests only; on a 2025-11-25 session it is the
  // initialize-scoped declaration, which is exactly the legacy negotiation.
  return member(server.getClientCapabilities()?.experimental, id);
}

/** The client's declaration of `id` in a 2026-07-28 request's own envelope (its clientCapabilities' `extensions`). */
export function envelopeDeclaration(envelope: Readonly<Record<string, unknown>>, id: string): unknown {
  return member(member(envelope[CLIENT_CAPABILITIES_KEY], 'extensions'), id);
}

/**
 * Negotiated = the client mirrored the identifier with `version` absent or a settings version
 * this server can answer: 1 up to its own. A later settings version only adds or deprecates
 * codes, which a client of an earlier one reads leniently (unknown = permanent, blocked), so a
 * client mirroring an earlier version is still served. A mirror naming a version above ours, or
 * not an object at all, is not negotiated: the caller reverts to core behaviour.
 */
export function isNegotiated(declaration: unknown): boolean {
  if (!isRecord(declaration)) return false;
  if (!('version' in declaration)) return true;
  const version = declaration['version'];
  return typeof version === 'number' && Number.isInteger(version) && version >= 1 && version <= SETTINGS_VERSION;
}

/** Whether a draft extension the server serves without settings (e.g. tool-resolution) is declared at all. */
export function isDeclared(declaration: unknown): boolean {
  return isRecord(declaration);
}

/** `value[key]` when `value` is a plain object that has `key` as its own member. */
export function member(value: unknown, key: string): unknown {
  return isRecord(value) && Object.hasOwn(value, key) ? value[key] : undefined;
}

export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
