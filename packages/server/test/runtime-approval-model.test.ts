import type { ApprovalRecord } from '@mcpproxy/evaluator';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { approveListed, reconcileApprovals, sameRecord } from '../src/state/approval-model.js';

const hash = fc.constantFrom('sha256/v1:aa', 'sha256/v1:bb', 'sha256/v1:cc');
const toolName = fc.constantFrom('a', 'b', 'c', 'd', 'e');
const index = fc.dictionary(toolName, hash).map((d) => new Map(Object.entries(d)));
const record = (tool: string) =>
  fc.oneof(
    fc.record({ status: fc.constant('pending' as const), current_hash: hash, user_disabled: fc.boolean() }),
    fc.record({ status: fc.constantFrom('approved' as const, 'changed' as const), approved_hash: hash, current_hash: hash, user_disabled: fc.boolean() }),
  ).map((r): ApprovalRecord => ({ tool, hash_schema_version: 1, ...r }));
const previous = fc
  .uniqueArray(toolName)
  .chain((names) => fc.tuple(...names.map((name) => record(name))))
  .map((records) => new Map(records.map((r) => [r.tool, r])));
const context = fc.record({ toolQuarantine: fc.boolean(), quarantined: fc.boolean(), autoApproveChanges: fc.boolean(), baselineApproved: fc.boolean() });

describe('reconcileApprovals', () => {
  it('gives every listed tool a record whose current hash is the listed one, keeping user_disabled', () => {
    fc.assert(
      fc.property(index, previous, context, (idx, prev, ctx) => {
        const { approvals } = reconcileApprovals(idx, prev, ctx);
        for (const [tool, h] of idx) {
          const after = approvals.get(tool)!;
          expect(after.current_hash).toBe(h);
          expect(after.user_disabled).toBe(prev.get(tool)?.user_disabled ?? false);
          if (after.status === 'approved') expect(after.approved_hash).toBe(h);
          if (after.status === 'changed') expect(after.approved_hash).not.toBe(h);
        }
      }),
    );
  });

  it('never touches the records of tools that are not listed', () => {
    fc.assert(
      fc.property(index, previous, context, (idx, prev, ctx) => {
        const { approvals } = reconcileApprovals(idx, prev, ctx);
        for (const [tool, before] of prev) if (!idx.has(tool)) expect(approvals.get(tool)).toBe(before);
      }),
    );
  });

  it('reports exactly the records that differ, and is idempotent', () => {
    fc.assert(
      fc.property(index, previous, context, (idx, prev, ctx) => {
        const first = reconcileApprovals(idx, prev, ctx);
        const differing = [...first.approvals.values()].filter((r) => !prev.has(r.tool) || !sameRecord(prev.get(r.tool)!, r));
        expect(new Set(first.changed)).toEqual(new Set(differing));
        const again = reconcileApprovals(idx, first.approvals, { ...ctx, baselineApproved: ctx.baselineApproved || first.baselineApproved });
        expect(again.changed).toEqual([]);
      }),
    );
  });

  it('approves everything when tool quarantine is off, or for a trusted server\'s first baseline', () => {
    fc.assert(
      fc.property(index, previous, context, (idx, prev, ctx) => {
        const trusted = !ctx.toolQuarantine || (!ctx.quarantined && !ctx.baselineApproved);
        const { approvals, baselineApproved } = reconcileApprovals(idx, prev, ctx);
        expect(baselineApproved).toBe(ctx.toolQuarantine && !ctx.quarantined && !ctx.baselineApproved);
        if (trusted) for (const tool of idx.keys()) expect(approvals.get(tool)!.status).toBe('approved');
      }),
    );
  });

  it('under quarantine: new tools are pending, a moved hash is changed (or re-approved with auto-approve)', () => {
    fc.assert(
      fc.property(index, previous, context, (idx, prev, raw) => {
        const ctx = { ...raw, toolQuarantine: true, baselineApproved: true };
        const { approvals } = reconcileApprovals(idx, prev, ctx);
        for (const [tool, h] of idx) {
          const before = prev.get(tool);
          const status = approvals.get(tool)!.status;
          if (ctx.autoApproveChanges) expect(status).toBe('approved');
          else if (before === undefined || before.status === 'pending') expect(status).toBe('pending');
          else expect(status).toBe(h === before.approved_hash ? 'approved' : 'changed');
        }
      }),
    );
  });
});

describe('approveListed', () => {
  it('approves the named listed tools at their current hash, ignores unlisted names', () => {
    fc.assert(
      fc.property(index, previous, fc.uniqueArray(toolName), (idx, prev, names) => {
        const { approvals, changed } = approveListed(idx, prev, names);
        for (const name of names) {
          if (idx.has(name)) expect(approvals.get(name)).toMatchObject({ status: 'approved', approved_hash: idx.get(name), current_hash: idx.get(name) });
          else expect(approvals.get(name)).toBe(prev.get(name));
        }
        for (const r of changed) expect(names).toContain(r.tool);
      }),
    );
  });
});
