import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.js';

/** The hash-schema version stored with every approval record. */
export const TOOL_HASH_SCHEMA_VERSION = 1;
export const TOOL_HASH_PREFIX = `sha256/v${TOOL_HASH_SCHEMA_VERSION}:`;

/** The parts of a tool definition the hash covers: what an agent relies on when it calls the tool. */
export interface HashedToolFields {
  readonly name: string;
  readonly description?: string | undefined;
  readonly inputSchema: unknown;
  readonly outputSchema?: unknown;
}

/**
 * `sha256/v1:<64 lowercase hex>` of one tool definition.
 *
 * Byte layout (v1): the UTF-8 encoding of the canonical JSON (see canonical-json.ts) of the array
 *   [name, description, inputSchema]                 when the tool has no outputSchema
 *   [name, description, inputSchema, outputSchema]   when it has one
 * where description is the JSON string, or null when the tool has none. A JSON array is
 * self-delimiting, so no field can bleed into the next one (a description holding a NUL or a
 * quote still hashes unambiguously). Annotations, title, icons and _meta are not covered: they
 * describe the tool but do not change what a call does, and annotations are judged by policy.
 *
 * Test vector (also in test/upstream-tool-hash.test.ts): name "echo", description "Echoes its
 * input", inputSchema {"type":"object","properties":{"text":{"type":"string"}}} hashes the bytes
 *   ["echo","Echoes its input",{"properties":{"text":{"type":"string"}},"type":"object"}]
 * = sha256/v1:df5efbdf64c2cf149efb11a938f4b448ed8a868327083258ba2d4d758c2eeb6d
 */
export function toolHash(tool: HashedToolFields): string {
  const fields: unknown[] = [tool.name, tool.description ?? null, tool.inputSchema];
  if (tool.outputSchema !== undefined) {
    fields.push(tool.outputSchema);
  }
  const digest = createHash('sha256').update(canonicalJson(fields), 'utf8').digest('hex');
  return `${TOOL_HASH_PREFIX}${digest}`;
}
