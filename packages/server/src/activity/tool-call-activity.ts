import { freshRequestId } from '@mcpproxy/extension';
import type { ToolCallActivityRecord } from '@mcpproxy/schema';
import type { Store } from '../store/store.js';

/** What the MCP surface reports about one tools/call it handled: never the arguments or the result. */
export interface ToolCallEvent {
  readonly server: string;
  readonly tool: string;
  readonly outcome: 'success' | 'tool_error' | 'upstream_error' | 'refused';
  /** The refusal's reason code. */
  readonly reason?: string;
  readonly duration_ms: number;
}

export type ToolCallRecorder = (event: ToolCallEvent) => Promise<void>;

/**
 * The longest server or tool name a record keeps (UTF-16 code units), as long as a tool id may be.
 * A refused call's name is whatever the caller sent, and tools/call puts no limit on it.
 */
export const RECORDED_NAME_MAX = 512;

const STATUS: Readonly<Record<ToolCallEvent['outcome'], ToolCallActivityRecord['status']>> = {
  success: 'success',
  tool_error: 'error',
  upstream_error: 'error',
  refused: 'blocked',
};

/**
 * Writes a `tool_call` activity record per dispatched call. The call has already happened (or
 * been refused), so a store that cannot write loses the record, never the call's answer.
 */
export function toolCallRecorder(store: Pick<Store, 'appendActivity'>, log?: (line: string) => void): ToolCallRecorder {
  return async (event) => {
    const record: ToolCallActivityRecord = {
      type: 'tool_call',
      timestamp: new Date().toISOString(),
      status: STATUS[event.outcome],
      request_id: freshRequestId(),
      metadata: {
        server: recordedName(event.server),
        tool: recordedName(event.tool),
        outcome: event.outcome,
        ...(event.reason === undefined ? {} : { reason: event.reason }),
        duration_ms: Math.max(0, Math.round(event.duration_ms * 1000) / 1000),
      },
    };
    try {
      await store.appendActivity(record);
    } catch (cause) {
      log?.(`activity: a tool_call record was lost: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
  };
}

/** The name as sent, or its first RECORDED_NAME_MAX - 1 code units and an ellipsis. */
function recordedName(name: string): string {
  return name.length <= RECORDED_NAME_MAX ? name : `${name.slice(0, RECORDED_NAME_MAX - 1)}\u2026`;
}
