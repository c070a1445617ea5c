// The gateway's rider memo: the same rider from the same scope on one published snapshot shares one
// (frozen) evaluation; another rider, scope, surface or snapshot is evaluated afresh.
import { describe, expect, it } from 'vitest';
import { prepareSnapshot, type GatewaySnapshot, type IndexedTool, type PreflightRequest, type Scope } from '@mcpproxy/evaluator';
import type { ServerContext } from '@modelcontextprotocol/server';
import { gatewayStateSource } from '../src/state-source.js';

const HASH = `sha256/v1:${'d'.repeat(64)}`;

function snapshot(version: number, quarantined: boolean): GatewaySnapshot {
  const echo: IndexedTool = { name: 'echo', hash: HASH };
  return {
    version,
    tool_quarantine: true,
    profiles: new Map(),
    servers: new Map([
      [
        'alpha',
        {
          name: 'alpha',
          enabled: true,
          quarantined,
          connection: { state: 'ready', ever_ready: true },
          tools: new Map([['echo', echo]]),
          approvals: new Map([['echo', { tool: 'echo', status: 'approved', approved_hash: HASH, current_hash: HASH, hash_schema_version: 1, user_disabled: false }]]),
          enabled_tools: [],
          disabled_tools: [],
          auto_approve_tool_changes: false,
        },
      ],
    ]),
  };
}

const ALL: Scope = { allowed_servers: '*' };
const ctx = {} as ServerContext;
const noListing = () => Promise.resolve([]);
const request = (...ids: string[]): PreflightRequest => ({ tools: ids.map((id) => ({ id })) });

describe('rider memo of a gateway state', () => {
  it('shares one frozen evaluation per rider, scope and snapshot; other surfaces evaluate each time', async () => {
    let state = { prepared: prepareSnapshot(snapshot(1, false)), scope: ALL };
    const source = gatewayStateSource({ state: () => state });
    const first = await source.evaluate(request('alpha:echo', 'alpha:nope'), ctx, noListing, 'mcp-rider');
    const again = await source.evaluate(structuredClone(request('alpha:echo', 'alpha:nope')), ctx, noListing, 'mcp-rider');
    expect(again).toBe(first);
    expect(Object.isFrozen(first.tools[0])).toBe(true);
    expect(first.tools.map((t) => t.reason ?? t.status)).toEqual(['ready', 'not_found']);

    expect(await source.evaluate(request('alpha:nope', 'alpha:echo'), ctx, noListing, 'mcp-rider')).not.toBe(first);
    const check = await source.evaluate(request('alpha:echo', 'alpha:nope'), ctx, noListing, 'mcp-check');
    expect(check).not.toBe(first);
    expect(await source.evaluate(request('alpha:echo', 'alpha:nope'), ctx, noListing, 'mcp-check')).not.toBe(check);

    state = { prepared: state.prepared, scope: { allowed_servers: ['beta'] } };
    const scoped = await source.evaluate(request('alpha:echo', 'alpha:nope'), ctx, noListing, 'mcp-rider');
    expect(scoped).not.toBe(first);
    expect(scoped.tools[0]?.status).not.toBe('ready');

    state = { prepared: prepareSnapshot(snapshot(2, true)), scope: ALL };
    const after = await source.evaluate(request('alpha:echo', 'alpha:nope'), ctx, noListing, 'mcp-rider');
    expect(after.tools[0]?.reason).toBe('server_quarantined');
  });
});
