import type { GetPromptResult, ListPromptsResult, ListResourcesResult, ReadResourceResult, Server } from '@modelcontextprotocol/server';
import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { FixtureEvents } from './fixture-events.js';

/** A text resource the fixture serves. */
export interface FixtureResource {
  readonly uri: string;
  readonly name: string;
  readonly text: string;
}

/** A prompt the fixture serves: one user message with this text. */
export interface FixturePrompt {
  readonly name: string;
  readonly description?: string;
  readonly text: string;
}

/** The resources and prompts of the tools file (`{ "tools": [...], "resources": [...], "prompts": [...] }`). */
export interface FixtureContent {
  readonly resources: readonly FixtureResource[];
  readonly prompts: readonly FixturePrompt[];
}

/** What a reload changed, as the client hears of it. */
export type FixtureContentChange = { readonly kind: 'resources_list' } | { readonly kind: 'prompts_list' } | { readonly kind: 'resource_updated'; readonly uri: string };

export const NO_CONTENT: FixtureContent = { resources: [], prompts: [] };

/** Reads `resources` and `prompts` from a parsed tools file (an array file has none). */
export function parseFixtureContent(value: unknown, source: string): FixtureContent {
  if (!isRecord(value)) return NO_CONTENT;
  const resources = listOf(value['resources'], source, 'resources').map((entry, index) => {
    const { uri, name, text } = entry;
    if (typeof uri !== 'string' || typeof name !== 'string' || typeof text !== 'string') throw new Error(`${source}: resources[${index}] needs string uri, name and text`);
    return { uri, name, text };
  });
  const prompts = listOf(value['prompts'], source, 'prompts').map((entry, index) => {
    const { name, description, text } = entry;
    if (typeof name !== 'string' || typeof text !== 'string' || (description !== undefined && typeof description !== 'string')) {
      throw new Error(`${source}: prompts[${index}] needs string name and text (and description, if any)`);
    }
    return { name, text, ...(description === undefined ? {} : { description }) };
  });
  return { resources, prompts };
}

/** list_changed when the set of resources or prompts changed, and an update per resource whose text changed. */
export function contentChanges(before: FixtureContent, after: FixtureContent): FixtureContentChange[] {
  const changes: FixtureContentChange[] = [];
  const names = (content: FixtureContent) => JSON.stringify(content.resources.map(({ uri, name }) => [uri, name]));
  if (names(before) !== names(after)) changes.push({ kind: 'resources_list' });
  if (JSON.stringify(before.prompts) !== JSON.stringify(after.prompts)) changes.push({ kind: 'prompts_list' });
  for (const resource of after.resources) {
    const old = before.resources.find((candidate) => candidate.uri === resource.uri);
    if (old !== undefined && old.text !== resource.text) changes.push({ kind: 'resource_updated', uri: resource.uri });
  }
  return changes;
}

const subscriptions = new WeakMap<Server, Set<string>>();

/** Serves the content on one server instance (its capabilities are declared by the caller); (un)subscriptions are recorded. */
export function serveFixtureContent(server: Server, content: () => FixtureContent, events: FixtureEvents): void {
  const subscribed = new Set<string>();
  subscriptions.set(server, subscribed);
  server.setRequestHandler('resources/list', (): ListResourcesResult => ({ resources: content().resources.map(({ uri, name }) => ({ uri, name, mimeType: 'text/plain' })) }));
  server.setRequestHandler('resources/read', (request): ReadResourceResult => {
    const resource = content().resources.find((candidate) => candidate.uri === request.params.uri);
    if (resource === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown resource: ${request.params.uri}`);
    return { contents: [{ uri: resource.uri, mimeType: 'text/plain', text: resource.text }] };
  });
  server.setRequestHandler('resources/subscribe', (request) => {
    subscribed.add(request.params.uri);
    events.record({ event: 'subscribed', uri: request.params.uri });
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', (request) => {
    subscribed.delete(request.params.uri);
    events.record({ event: 'unsubscribed', uri: request.params.uri });
    return {};
  });
  server.setRequestHandler('prompts/list', (): ListPromptsResult => ({ prompts: content().prompts.map(({ name, description }) => ({ name, ...(description === undefined ? {} : { description }) })) }));
  server.setRequestHandler('prompts/get', (request): GetPromptResult => {
    const prompt = content().prompts.find((candidate) => candidate.name === request.params.name);
    if (prompt === undefined) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `unknown prompt: ${request.params.name}`);
    return { messages: [{ role: 'user', content: { type: 'text', text: prompt.text } }] };
  });
}

/** Tells one 2025-era server instance (a session, or the stdio connection) what changed. */
export function announceContentChanges(server: Server, changes: readonly FixtureContentChange[]): void {
  for (const change of changes) {
    const sent =
      change.kind === 'resources_list'
        ? server.sendResourceListChanged()
        : change.kind === 'prompts_list'
          ? server.sendPromptListChanged()
          : subscriptions.get(server)?.has(change.uri)
            ? server.sendResourceUpdated({ uri: change.uri })
            : Promise.resolve();
    void sent.catch(() => undefined);
  }
}

function listOf(value: unknown, source: string, key: string): Record<string, unknown>[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every(isRecord)) throw new Error(`${source}: ${key} must be an array of objects`);
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
