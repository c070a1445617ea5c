import { specTypeSchemas, type Client, type Tool } from '@modelcontextprotocol/client';
import { z } from 'zod';
import { toolHash } from './tool-hash.js';

/** One tool as indexed: its definition as listed, and its sha256/v1 hash. */
export interface ListedTool {
  readonly definition: Tool;
  readonly hash: string;
}

/** A listed entry the gateway does not serve, and why (reported in the server's status). */
export interface InvalidTool {
  /** Absent when the entry has no usable name. */
  readonly name?: string;
  /** Its 0-based position in the whole listing (all pages). */
  readonly position: number;
  readonly reason: string;
}

export interface UpstreamListing {
  /** The servable tools, by name, in the upstream's order. */
  readonly tools: ReadonlyMap<string, ListedTool>;
  readonly invalid: readonly InvalidTool[];
}

const MAX_PAGES = 10_000;
const MAX_REASON = 300;

// Each entry is checked on its own below, so one bad tool cannot fail the whole page.
const LENIENT_PAGE = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/**
 * Walks every tools/list page (each request with its own timeout), and indexes the tools by
 * name in the upstream's order; a cursor that repeats ends the walk instead of looping forever.
 * An entry that is not a valid Tool is left out and reported, and so is every entry of a name
 * listed more than once: a call names a tool, so the gateway cannot tell which definition the
 * upstream would run, and approving either would let the other through unreviewed.
 */
export async function listUpstreamTools(client: Client, timeoutMs: number): Promise<UpstreamListing> {
  const entries: unknown[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    // A raw request, page by page: Client.listTools() without a cursor walks and caches pages
    // itself, with its own page cap, and rejects a whole page for one malformed tool.
    const result = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, LENIENT_PAGE, { timeout: timeoutMs });
    entries.push(...result.tools);
    cursor = result.nextCursor;
    if (cursor === undefined || cursors.has(cursor)) break;
    cursors.add(cursor);
  }
  return indexListing(entries);
}

/** The index and the report of one listing's entries (exported for the unit test). */
export function indexListing(entries: readonly unknown[]): UpstreamListing {
  const positions = new Map<string, number[]>();
  entries.forEach((entry, position) => {
    const name = nameOf(entry);
    if (name !== undefined) positions.set(name, [...(positions.get(name) ?? []), position]);
  });
  const tools = new Map<string, ListedTool>();
  const invalid: InvalidTool[] = [];
  entries.forEach((entry, position) => {
    const name = nameOf(entry);
    const seen = name === undefined ? undefined : positions.get(name);
    if (name !== undefined && seen !== undefined && seen.length > 1) {
      if (seen[0] === position) invalid.push({ name, position, reason: `listed ${seen.length} times (positions ${seen.join(', ')}): none of them is served` });
      return;
    }
    const checked = specTypeSchemas.Tool['~standard'].validate(entry);
    if (checked.issues !== undefined) {
      invalid.push({ ...(name === undefined ? {} : { name }), position, reason: describeIssues(checked.issues) });
      return;
    }
    const tool = checked.value as Tool;
    tools.set(tool.name, { definition: tool, hash: toolHash(tool) });
  });
  return { tools, invalid };
}

function nameOf(entry: unknown): string | undefined {
  if (typeof entry !== 'object' || entry === null || !Object.hasOwn(entry, 'name')) return undefined;
  const name = (entry as { name?: unknown }).name;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

type Issue = { readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined; readonly message: string };

function describeIssues(issues: readonly Issue[]): string {
  const where = (issue: Issue): string => {
    const path = (issue.path ?? []).map((part) => String(typeof part === 'object' ? part.key : part));
    return path.length === 0 ? 'the entry' : path.join('.');
  };
  const text = issues
    .slice(0, 3)
    .map((issue) => `${where(issue)}: ${issue.message}`)
    .join('; ');
  return text.length <= MAX_REASON ? text : `${text.slice(0, MAX_REASON - 1)}…`;
}
