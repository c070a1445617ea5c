import type { Policy, ReasonClass, Verdict } from '@mcpproxy/schema';

/** Which way the verdict travelled: the tools/list rider, describe_tool check mode, or REST. */
export type Carriage = 'rider' | 'check' | 'rest';

export interface CarriageAttempt {
  readonly carriage: Carriage;
  /** skipped: not tried (and why); failed: tried, no usable answer; answered: this one answered. */
  readonly outcome: 'skipped' | 'failed' | 'answered';
  readonly reason: string;
}

export interface ReadyTool {
  readonly id: string;
  readonly status: 'ready';
}

/**
 * An unavailable tool as this client treats it: the wire fields, with `retryable` and `class`
 * from the registry of the settings version this client knows. A code it does not know (a newer
 * server's) is permanent, non-retryable and blocked, whatever the wire says: `known` is false.
 */
export interface UnavailableTool {
  readonly id: string;
  readonly status: 'unavailable';
  readonly reason: string;
  readonly retryable: boolean;
  readonly class: ReasonClass;
  readonly known: boolean;
  readonly action?: string;
  readonly detail?: string;
  readonly remediation?: string;
  readonly did_you_mean?: readonly string[];
}

export type ToolResult = ReadyTool | UnavailableTool;

export interface PreflightResult {
  /** The worse of the answer's set verdict and the one recomputed from the per-tool results. */
  readonly verdict: Verdict;
  readonly checked_at: string;
  readonly request_id: string;
  /** One per unique id (trimmed), in order of first occurrence, ids echoed as sent. */
  readonly tools: readonly ToolResult[];
  readonly carriage: Carriage;
  /** Every carriage considered, in order, ending with the one that answered. */
  readonly attempts: readonly CarriageAttempt[];
}

export interface RestCarriageOptions {
  /** The gateway's origin (http://127.0.0.1:8080) or its MCP URL; /api/v1/preflight is beside it. */
  readonly url: string;
  /** An agent token (or the admin key) for Authorization: Bearer. */
  readonly token?: string;
  /** REST only: check within this profile. */
  readonly profile?: string;
  readonly fetch?: typeof fetch;
}

export interface PreflightOptions {
  readonly policy?: Policy;
  /** The last resort when the in-band carriages cannot answer. */
  readonly rest?: RestCarriageOptions;
  readonly signal?: AbortSignal;
  /** Per carriage request, in ms (default 10 000). */
  readonly timeoutMs?: number;
}
