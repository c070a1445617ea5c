import type { Scope, ToolAnnotations } from '@mcpproxy/evaluator';
import type { ListToolsResult, Tool } from '@modelcontextprotocol/server';
import type { PreflightSeam } from '../preflight/preflight-seam.js';
import type { RequiredToolsSource } from './required-tools-source.js';

export interface GatewaySourceOptions {
  /** The one preflight seam (the same one REST calls). */
  readonly preflight: PreflightSeam;
  /** The session's scope: token allow-list, token profile pin, the profile of its path. */
  readonly scope: Scope;
  /** The session's core tools/list page. */
  listTools(cursor: string | undefined): ListToolsResult | Promise<ListToolsResult>;
  /** The upstream tool the session's listing serves under this name (trimmed halves, like dispatch), if any. */
  servedTool(name: string): Tool | undefined;
  /** The gateway's own tool of this name (describe_tool), which the listing serves too. */
  builtinTool(name: string): Tool | undefined;
}

/**
 * The gateway as one user of the extension: every in-band check goes through the preflight seam
 * at the agent tier with the session's scope, whatever the session's credentials (the seam never
 * takes a tier from an in-band surface). The seam's outcome is the source's outcome as it is.
 */
export function gatewayRequiredToolsSource(options: GatewaySourceOptions): RequiredToolsSource {
  const { preflight, scope } = options;
  return {
    listTools: (params) => options.listTools(params.cursor),
    servedTool: (name) => options.servedTool(name) ?? options.builtinTool(name),
    evaluate: (check) => {
      // Resolving a built-in answers like any served tool, from its own annotations (not the upstreams' state).
      const builtin = check.surface === 'mcp-resolve' ? options.builtinTool(resolvedName(check.raw)) : undefined;
      const hostTool = builtin === undefined ? undefined : { ...(builtin.annotations === undefined ? {} : { annotations: definedHints(builtin.annotations) }) };
      return preflight.run({ surface: check.surface, raw: check.raw, scope, ...(hostTool === undefined ? {} : { hostTool }) });
    },
  };
}

function resolvedName(raw: unknown): string {
  const name = typeof raw === 'object' && raw !== null && Object.hasOwn(raw, 'name') ? (raw as { name: unknown }).name : undefined;
  return typeof name === 'string' ? name : '';
}

/** The annotations without keys whose value is undefined (exact optional types). */
function definedHints(annotations: NonNullable<Tool['annotations']>): ToolAnnotations {
  return Object.fromEntries(Object.entries(annotations).filter(([, value]) => value !== undefined)) as ToolAnnotations;
}
