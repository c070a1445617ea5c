import type { ToolDefinition } from '@mcpproxy/schema';
import type { Tool } from '@modelcontextprotocol/client';
import { canonicalJson } from './canonical-json.js';

/**
 * The part of a listed tool an operator reviews before approving it: the fields the hash covers
 * (description, inputSchema, outputSchema) and the ones an agent relies on although the hash does
 * not cover them (title, annotations). Icons and _meta are left out: they do not change what a call does.
 */
export function reviewedDefinition(tool: Tool): ToolDefinition {
  return {
    ...(tool.title === undefined ? {} : { title: tool.title }),
    ...(tool.description === undefined ? {} : { description: tool.description }),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema === undefined ? {} : { outputSchema: tool.outputSchema as Record<string, unknown> }),
    ...(tool.annotations === undefined ? {} : { annotations: tool.annotations as Record<string, unknown> }),
  };
}

/** The stored form: canonical JSON, so one definition is always the same text. */
export function reviewedDefinitionText(tool: Tool): string {
  return canonicalJson(reviewedDefinition(tool));
}
