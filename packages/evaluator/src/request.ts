// What a surface hands the evaluator besides the snapshot: the (already deduplicated)
// request and who is asking.

export type Tier = 'operator' | 'agent';

export interface Scope {
  /** '*' = every configured server. */
  readonly allowed_servers: readonly string[] | '*';
  /** The token's profile; naming a profile that does not exist denies every server. */
  readonly profile_pin?: string;
  /** The session's or request's profile (already validated by the surface). */
  readonly active_profile?: string;
}

export interface EvaluationContext {
  readonly tier: Tier;
  readonly scope: Scope;
}

export interface Policy {
  readonly read_only_only?: boolean;
  readonly exclude_destructive?: boolean;
  readonly exclude_open_world?: boolean;
}

/** `id` is the caller's raw string (of its first occurrence). */
export interface RequestedTool {
  readonly id: string;
  readonly pin?: string;
}

/** Already deduplicated by the surface (see dedupeToolIds). */
export interface PreflightRequest {
  readonly tools: readonly RequestedTool[];
  readonly policy?: Policy;
}
