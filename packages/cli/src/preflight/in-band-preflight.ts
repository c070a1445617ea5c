import { PreflightError, preflight, requiredToolsCapabilities, type PreflightResult } from '@mcpproxy/client';
import type { Policy } from '@mcpproxy/schema';
import { CliError, messageOf, usageError } from '../cli-error.js';
import { CLI_VERSION } from '../cli-version.js';
import type { CommandContext } from '../command-spec.js';
import { resolveConnection } from '../connection/connection-settings.js';
import { preflightReport, type PreflightReport, type ReportTool } from './preflight-report.js';

export const PROTOCOL_VERSIONS = ['auto', '2025-11-25', '2026-07-28'] as const;

export interface InBandOptions {
  readonly policy?: Policy;
  readonly profile?: string;
  readonly protocol?: string;
}

/**
 * `tools preflight --in-band`: the same check through MCP, as any harness would make it with
 * @mcpproxy/client: the rider on tools/list, or describe_tool check mode when the session cannot
 * carry the rider. In-band verdicts are always at the agent tier. An agent token is sent as the
 * session's bearer; the admin key is not an MCP credential and is never sent to /mcp.
 */
export async function inBandPreflight(context: CommandContext, ids: readonly string[], options: InBandOptions): Promise<PreflightReport> {
  const protocol = options.protocol ?? 'auto';
  if (!(PROTOCOL_VERSIONS as readonly string[]).includes(protocol)) throw usageError(`--protocol-version: expected ${PROTOCOL_VERSIONS.join(', ')}, got ${JSON.stringify(protocol)}`);
  const connection = resolveConnection({ values: context.values, env: context.io.env });
  if (connection.socket !== undefined) {
    throw new CliError(
      'connection',
      `the gateway of this data directory serves MCP on stdio, with no HTTP listener for --in-band to open /mcp on (its local socket ${connection.socket} serves REST): run the check without --in-band, or pass --url of a gateway that serves HTTP`,
    );
  }
  const endpoint = new URL(`${connection.origin}/mcp${options.profile === undefined ? '' : `/p/${encodeURIComponent(options.profile)}`}`);
  const headers: Record<string, string> = { 'user-agent': `cli/${CLI_VERSION}` };
  if (connection.credential.kind === 'token') headers['authorization'] = `Bearer ${connection.credential.secret}`;

  // The MCP SDK is loaded only for --in-band: the REST commands start without it.
  const { Client, StreamableHTTPClientTransport } = await import('@modelcontextprotocol/client');
  const client = new Client(
    { name: 'mcpproxy-cli', version: CLI_VERSION },
    { capabilities: requiredToolsCapabilities(), versionNegotiation: { mode: protocol === 'auto' ? 'auto' : protocol === '2025-11-25' ? 'legacy' : { pin: protocol } } },
  );
  try {
    await client.connect(new StreamableHTTPClientTransport(endpoint, { requestInit: { headers } }));
  } catch (error) {
    throw new CliError('connection', `cannot open an MCP session at ${endpoint.href}: ${messageOf(error)}`);
  }
  let result: PreflightResult;
  try {
    result = await preflight(client, ids, options.policy === undefined ? {} : { policy: options.policy });
  } catch (error) {
    if (error instanceof PreflightError) throw new CliError('in_band', error.message);
    throw new CliError('in_band', `in-band preflight failed: ${messageOf(error)}`);
  } finally {
    await client.close().catch(() => undefined);
  }
  const tools: ReportTool[] = result.tools.map((tool) => {
    if (tool.status === 'ready') return { id: tool.id, status: 'ready' };
    const { class: _class, known: _known, ...wire } = tool;
    return wire;
  });
  return preflightReport({ verdict: result.verdict, checked_at: result.checked_at, request_id: result.request_id, tools }, result.carriage === 'check' ? 'check' : 'rider', ids);
}
