// The aggregated listing, its pagination and the dispatch gate over hand-built published states
// (the real evaluator, no runtime): the rules that decide what a session sees and may call.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { prepareSnapshot, type ApprovalRecord, type Scope } from '@mcpproxy/evaluator';
import { ProtocolError } from '@modelcontextprotocol/server';
import type { PublishedState, RuntimeServerSnapshot, RuntimeSnapshot, ServedTool } from '../src/state/gateway-runtime.js';
import { gateToolCall, refusalText } from '../src/mcp/dispatch-gate.js';
import { gatewayListing } from '../src/mcp/gateway-mcp-server.js';
import { sameListing } from '../src/mcp/served-listing.js';
import { toolListPage } from '../src/mcp/tool-list-page.js';

const HASH = `sha256/v1:${'a'.repeat(64)}`;
const OTHER_HASH = `sha256/v1:${'b'.repeat(64)}`;
const ALL: Scope = { allowed_servers: '*' };

interface ServerSpec {
  readonly tools: readonly string[];
  readonly enabled?: boolean;
  readonly quarantined?: boolean;
  readonly state?: 'ready' | 'connecting' | 'error' | 'pending_auth';
  readonly everReady?: boolean;
  readonly approvals?: Readonly<Record<string, { [K in keyof ApprovalRecord]?: ApprovalRecord[K] | undefined }>>;
  readonly enabledTools?: readonly string[];
  readonly disabledTools?: readonly string[];
}

function tool(name: string): ServedTool {
  return {
    name,
    hash: HASH,
    annotations: { readOnlyHint: true },
    definition: { name, description: `the ${name} tool`, inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } },
  };
}

function server(name: string, spec: ServerSpec): RuntimeServerSnapshot {
  const approvals = new Map<string, ApprovalRecord>();
  for (const toolName of spec.tools) {
    const record = { tool: toolName, status: 'approved', approved_hash: HASH, current_hash: HASH, hash_schema_version: 1, user_disabled: false, ...spec.approvals?.[toolName] };
    // An override of `undefined` removes the field (a pending tool has no approved hash).
    approvals.set(toolName, JSON.parse(JSON.stringify(record)) as ApprovalRecord);
  }
  return {
    name,
    enabled: spec.enabled ?? true,
    quarantined: spec.quarantined ?? false,
    connection: { state: spec.state ?? 'ready', ever_ready: spec.everReady ?? (spec.state ?? 'ready') === 'ready' },
    tools: new Map(spec.tools.map((t) => [t, tool(t)])),
    approvals,
    enabled_tools: spec.enabledTools ?? [],
    disabled_tools: spec.disabledTools ?? [],
    auto_approve_tool_changes: false,
    transport: 'stdio',
  };
}

function published(servers: Readonly<Record<string, ServerSpec>>, profiles: Readonly<Record<string, string[]>> = {}, version = 1): PublishedState {
  const snapshot: RuntimeSnapshot = {
    version,
    tool_quarantine: true,
    servers: new Map(Object.entries(servers).map(([name, spec]) => [name, server(name, spec)])),
    profiles: new Map(Object.entries(profiles)),
  };
  return { snapshot, prepared: prepareSnapshot(snapshot) };
}

const MIXED = published(
  {
    alpha: { tools: ['c', 'a', 'b'] },
    'a-b': { tools: ['z'] },
    quarantined: { tools: ['q'], quarantined: true },
    disabled: { tools: ['d'], enabled: false },
    starting: { tools: ['s'], state: 'connecting' },
    flapping: { tools: ['f'], state: 'error', everReady: true },
    gated: {
      tools: ['ok', 'pending', 'changed', 'blocked', 'denied', 'unlisted'],
      approvals: {
        pending: { status: 'pending', approved_hash: undefined },
        changed: { status: 'changed', current_hash: OTHER_HASH },
        blocked: { user_disabled: true },
      },
      disabledTools: ['denied'],
    },
    allowlisted: { tools: ['in', 'out'], enabledTools: ['in'] },
  },
  { dev: ['alpha', 'gated'] },
);

const names = (state: PublishedState, scope: Scope) => gatewayListing(state, scope).entries.map((e) => e.definition.name);

describe('the served listing', () => {
  it('serves only tools every gate lets through, built-ins first, then by server and tool in code-unit order', () => {
    expect(names(MIXED, ALL)).toEqual([
      'describe_tool',
      'a-b:z',
      'allowlisted:in',
      'alpha:a',
      'alpha:b',
      'alpha:c',
      'flapping:f', // was ready: its last-known tools stay listed while the connection is down
      'gated:ok',
      'gated:unlisted',
    ]);
  });

  it('passes the upstream definition through unchanged apart from the served name', () => {
    const entry = gatewayListing(MIXED, ALL).entries.find((e) => e.definition.name === 'alpha:a');
    expect(entry?.definition).toEqual({ ...tool('a').definition, name: 'alpha:a' });
  });

  it('is filtered by scope: token allow-list, profile pin and active profile', () => {
    expect(names(MIXED, { allowed_servers: ['alpha'] })).toEqual(['describe_tool', 'alpha:a', 'alpha:b', 'alpha:c']);
    expect(names(MIXED, { allowed_servers: '*', active_profile: 'dev' })).toEqual(['describe_tool', 'alpha:a', 'alpha:b', 'alpha:c', 'gated:ok', 'gated:unlisted']);
    expect(names(MIXED, { allowed_servers: ['gated', 'a-b'], profile_pin: 'dev' })).toEqual(['describe_tool', 'gated:ok', 'gated:unlisted']);
    expect(names(MIXED, { allowed_servers: '*', profile_pin: 'deleted' })).toEqual(['describe_tool']);
  });

  it('is computed once per published state and scope', () => {
    expect(gatewayListing(MIXED, ALL)).toBe(gatewayListing(MIXED, { allowed_servers: '*' }));
  });

  it('tells a changed listing from an equal one', () => {
    const again = published({ alpha: { tools: ['a', 'b', 'c'] } }, {}, 2);
    const same = published({ alpha: { tools: ['c', 'b', 'a'] } }, {}, 3);
    const fewer = published({ alpha: { tools: ['a', 'b'] } }, {}, 4);
    expect(sameListing(gatewayListing(again, ALL), gatewayListing(same, ALL))).toBe(true);
    expect(sameListing(gatewayListing(again, ALL), gatewayListing(fewer, ALL))).toBe(false);
  });
});

describe('pagination', () => {
  const walk = (state: PublishedState, pageSize: number) => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 1000; pages++) {
      const page = toolListPage(gatewayListing(state, ALL), cursor, pageSize);
      seen.push(...page.tools.map((t) => t.name));
      if (page.nextCursor === undefined) return seen;
      cursor = page.nextCursor;
    }
    throw new Error('pagination did not terminate');
  };

  it('walks the whole listing exactly once for any page size', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.stringMatching(/^[a-z0-9_-]{1,6}$/), { maxLength: 40 }), fc.integer({ min: 1, max: 50 }), (tools, pageSize) => {
        const state = published({ one: { tools }, two: { tools: tools.slice(0, 5) } });
        expect(walk(state, pageSize)).toEqual(names(state, ALL));
      }),
    );
  });

  it('continues after the last tool seen when the listing changes between pages', () => {
    const before = published({ alpha: { tools: ['a', 'b', 'c', 'd', 'e'] } });
    const first = toolListPage(gatewayListing(before, ALL), undefined, 3);
    expect(first.tools.map((t) => t.name)).toEqual(['describe_tool', 'alpha:a', 'alpha:b']);
    const after = published({ alpha: { tools: ['b', 'c', 'e', 'f'] } }, {}, 2);
    const second = toolListPage(gatewayListing(after, ALL), first.nextCursor, 3);
    expect(second.tools.map((t) => t.name)).toEqual(['alpha:c', 'alpha:e', 'alpha:f']);
    expect(second.nextCursor).toBeUndefined();
  });

  it('rejects any cursor it did not issue with -32602', () => {
    const listing = gatewayListing(MIXED, ALL);
    const issued = new Set<string>();
    for (let size = 1; size < 10; size++) {
      let cursor: string | undefined;
      do {
        cursor = toolListPage(listing, cursor, size).nextCursor;
        if (cursor !== undefined) issued.add(cursor);
      } while (cursor !== undefined);
    }
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (cursor) => {
        fc.pre(!issued.has(cursor));
        let error: unknown;
        try {
          toolListPage(listing, cursor, 3);
        } catch (caught) {
          error = caught;
        }
        // A random string may decode to a well-formed cursor by chance; everything else is -32602.
        if (error !== undefined) expect(error instanceof ProtocolError && error.code === -32602).toBe(true);
      }),
    );
    for (const bad of ['', 'x', '!!', Buffer.from('[2,"a","b"]').toString('base64url'), Buffer.from('{"a":1}').toString('base64url')]) {
      expect(() => toolListPage(listing, bad, 3)).toThrow(ProtocolError);
    }
  });
});

describe('the dispatch gate', () => {
  const reason = (id: string, scope: Scope = ALL) => {
    const decision = gateToolCall(MIXED, scope, id);
    return decision.allowed ? 'allowed' : decision.refusal.reason;
  };

  it('allows exactly the served tools of ready servers', () => {
    expect(gateToolCall(MIXED, ALL, 'alpha:a')).toEqual({ allowed: true, server: 'alpha', tool: 'a' });
    expect(gateToolCall(MIXED, ALL, ' alpha : b ')).toEqual({ allowed: true, server: 'alpha', tool: 'b' });
  });

  it('refuses every gate with its registry reason', () => {
    expect(reason('quarantined:q')).toBe('server_quarantined');
    expect(reason('disabled:d')).toBe('server_disabled');
    expect(reason('starting:s')).toBe('server_initializing');
    expect(reason('flapping:f')).toBe('server_unhealthy');
    expect(reason('gated:pending')).toBe('tool_pending_approval');
    expect(reason('gated:changed')).toBe('tool_changed');
    expect(reason('gated:blocked')).toBe('tool_blocked_by_user');
    expect(reason('gated:denied')).toBe('tool_denied_by_config');
    expect(reason('allowlisted:out')).toBe('tool_denied_by_config');
    expect(reason('alpha:nope')).toBe('not_found');
    expect(reason('nowhere:x')).toBe('not_found');
    expect(reason('no-colon')).toBe('not_found');
  });

  it('treats an out-of-scope tool exactly like an unknown one', () => {
    const outOfScope = gateToolCall(MIXED, { allowed_servers: ['gated'] }, 'alpha:a');
    const unknown = gateToolCall(MIXED, { allowed_servers: ['gated'] }, 'nowhere:a');
    expect(outOfScope.allowed).toBe(false);
    if (outOfScope.allowed || unknown.allowed) return;
    expect(outOfScope.refusal.reason).toBe('not_found');
    expect(refusalText(outOfScope.refusal).replace('alpha', 'X')).toBe(refusalText(unknown.refusal).replace('nowhere', 'X'));
  });

  it('words a refusal with the reason code first and the remediation', () => {
    const decision = gateToolCall(MIXED, ALL, 'quarantined:q');
    if (decision.allowed) throw new Error('expected a refusal');
    const text = refusalText(decision.refusal);
    expect(text.split('\n')[0]).toBe('Tool call refused: server_quarantined');
    expect(text).toContain(`Remediation: ${decision.refusal.remediation!}`);
  });
});
