// The public API is the contract the gateway codes against (briefs: evaluator-api.md).
import type { Action, ReasonCode, Verdict } from '@mcpproxy/schema';
import { describe, expectTypeOf, it } from 'vitest';
import {
  aggregateVerdict,
  checkPolicy,
  classifyTool,
  dedupeToolIds,
  evaluate,
  evaluateToolStates,
  parseToolId,
  prepareSnapshot,
  prepareToolStates,
  resolveScope,
  suggest,
  type ConnectionState,
  type Evaluation,
  type EvaluationContext,
  type GatewaySnapshot,
  type Policy,
  type PreflightRequest,
  type PreparedSnapshot,
  type PreparedToolStates,
  type ServerSnapshot,
  type ToolAnnotations,
  type ToolGate,
  type ToolResult,
  type ToolState,
} from '../src/index.js';

describe('public API', () => {
  it('has the contract signatures', () => {
    expectTypeOf(prepareSnapshot).toEqualTypeOf<(snapshot: GatewaySnapshot) => PreparedSnapshot>();
    expectTypeOf<PreparedSnapshot['snapshot']>().toEqualTypeOf<GatewaySnapshot>();
    expectTypeOf(evaluate).toEqualTypeOf<(prepared: PreparedSnapshot, request: PreflightRequest, context: EvaluationContext) => Evaluation>();
    expectTypeOf(prepareToolStates).toEqualTypeOf<(states: Iterable<ToolState>) => PreparedToolStates>();
    expectTypeOf(evaluateToolStates).toEqualTypeOf<(prepared: PreparedToolStates, request: PreflightRequest) => Evaluation>();
    expectTypeOf<ToolState['unavailable']>().toMatchTypeOf<{ reason: ReasonCode; action?: Action; detail?: string; remediation?: string } | undefined>();
    expectTypeOf(parseToolId).returns.toEqualTypeOf<{ ok: true; server: string; tool: string } | { ok: false }>();
    expectTypeOf(dedupeToolIds<{ id: string; pin?: string }>).returns.toEqualTypeOf<{ id: string; pin?: string }[]>();
    expectTypeOf(classifyTool).toEqualTypeOf<(server: ServerSnapshot, tool: string, toolQuarantine: boolean) => ToolGate | undefined>();
    expectTypeOf<ToolGate>().toEqualTypeOf<'tool_denied_by_config' | 'tool_blocked_by_user' | 'tool_changed' | 'tool_pending_approval'>();
    expectTypeOf(checkPolicy).parameters.toEqualTypeOf<[ToolAnnotations | undefined, Policy | undefined]>();
    expectTypeOf(checkPolicy).returns.toMatchTypeOf<
      { reason: 'missing_annotation' | 'policy_filtered'; rule: keyof Policy; annotation: string; value?: boolean } | undefined
    >();
    expectTypeOf(aggregateVerdict).toEqualTypeOf<(results: readonly { status: string; reason?: string }[]) => Verdict>();
    expectTypeOf(resolveScope).returns.toEqualTypeOf<ReadonlySet<string>>();
    expectTypeOf(suggest).toEqualTypeOf<(prepared: PreparedSnapshot, id: string, visible: ReadonlySet<string>) => string[]>();
    expectTypeOf<ConnectionState>().toEqualTypeOf<'connecting' | 'discovering' | 'authenticating' | 'pending_auth' | 'ready' | 'error' | 'disconnected'>();
  });

  it('shapes a result like the wire', () => {
    expectTypeOf<ToolResult>().toEqualTypeOf<{
      id: string;
      status: 'ready' | 'unavailable';
      reason?: ReasonCode;
      retryable?: boolean;
      action?: Action;
      detail?: string;
      remediation?: string;
      did_you_mean?: string[];
      hash?: string;
    }>();
    expectTypeOf<Evaluation>().toEqualTypeOf<{ verdict: Verdict; tools: ToolResult[] }>();
  });
});
