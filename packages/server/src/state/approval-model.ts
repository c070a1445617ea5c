import type { ApprovalRecord } from '@mcpproxy/evaluator';
import { TOOL_HASH_SCHEMA_VERSION } from '../upstream/tool-hash.js';

export interface ApprovalContext {
  /** The gateway's tool_quarantine switch. */
  readonly toolQuarantine: boolean;
  readonly quarantined: boolean;
  readonly autoApproveChanges: boolean;
  /** The server's baseline was approved before (later tools are pending). */
  readonly baselineApproved: boolean;
}

export interface ApprovalUpdate {
  /** Every record of the server after the update (tools no longer listed keep theirs). */
  readonly approvals: ReadonlyMap<string, ApprovalRecord>;
  /** The records that differ from before: what to persist. */
  readonly changed: readonly ApprovalRecord[];
  /** This update approved the server's baseline. */
  readonly baselineApproved: boolean;
}

/**
 * Reconciles a server's approval records with a fresh tool index (name -> hash):
 * - tool_quarantine off: every listed tool is approved as listed;
 * - a trusted (not quarantined) server seen for the first time: its tools are the baseline;
 * - otherwise a tool without a record is pending; an approved tool whose hash moved is
 *   changed (rug-pull), or re-approved when the server auto-approves changes (which also
 *   approves its new tools); a changed tool whose hash came back is approved again.
 * Records of tools that disappeared are kept, so a tool that comes back unchanged is still approved.
 */
export function reconcileApprovals(
  index: ReadonlyMap<string, string>,
  previous: ReadonlyMap<string, ApprovalRecord>,
  context: ApprovalContext,
): ApprovalUpdate {
  const takeBaseline = context.toolQuarantine && !context.quarantined && !context.baselineApproved;
  const trustEverything = !context.toolQuarantine || takeBaseline || context.autoApproveChanges;
  const approvals = new Map(previous);
  const changed: ApprovalRecord[] = [];
  for (const [tool, hash] of index) {
    const before = previous.get(tool);
    const after = trustEverything ? approve(before, tool, hash) : nextRecord(before, tool, hash);
    if (before === undefined || !sameRecord(before, after)) {
      approvals.set(tool, after);
      changed.push(after);
    }
  }
  return { approvals, changed, baselineApproved: takeBaseline };
}

/** The operator approves these tools as they are listed now (unquarantine, approve). */
export function approveListed(
  index: ReadonlyMap<string, string>,
  previous: ReadonlyMap<string, ApprovalRecord>,
  tools: Iterable<string>,
): { approvals: ReadonlyMap<string, ApprovalRecord>; changed: readonly ApprovalRecord[] } {
  const approvals = new Map(previous);
  const changed: ApprovalRecord[] = [];
  for (const tool of tools) {
    const hash = index.get(tool);
    if (hash === undefined) continue;
    const before = previous.get(tool);
    const after = approve(before, tool, hash);
    if (before === undefined || !sameRecord(before, after)) {
      approvals.set(tool, after);
      changed.push(after);
    }
  }
  return { approvals, changed };
}

function nextRecord(before: ApprovalRecord | undefined, tool: string, hash: string): ApprovalRecord {
  const userDisabled = before?.user_disabled ?? false;
  if (before === undefined || before.status === 'pending' || before.approved_hash === undefined) {
    return { tool, status: 'pending', current_hash: hash, hash_schema_version: TOOL_HASH_SCHEMA_VERSION, user_disabled: userDisabled };
  }
  return {
    tool,
    status: hash === before.approved_hash ? 'approved' : 'changed',
    approved_hash: before.approved_hash,
    current_hash: hash,
    hash_schema_version: TOOL_HASH_SCHEMA_VERSION,
    user_disabled: userDisabled,
  };
}

function approve(before: ApprovalRecord | undefined, tool: string, hash: string): ApprovalRecord {
  return {
    tool,
    status: 'approved',
    approved_hash: hash,
    current_hash: hash,
    hash_schema_version: TOOL_HASH_SCHEMA_VERSION,
    user_disabled: before?.user_disabled ?? false,
  };
}

export function sameRecord(a: ApprovalRecord, b: ApprovalRecord): boolean {
  return (
    a.tool === b.tool &&
    a.status === b.status &&
    a.approved_hash === b.approved_hash &&
    a.current_hash === b.current_hash &&
    a.hash_schema_version === b.hash_schema_version &&
    a.user_disabled === b.user_disabled
  );
}
