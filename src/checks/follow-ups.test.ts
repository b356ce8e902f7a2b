import { describe, expect, it } from 'vitest';
import { FOLLOW_UPS } from './follow-ups.ts';
import type { Finding } from '../core/finding.ts';
import { linkFollowUps } from '../core/follow-up.ts';
import { markKnown } from '../core/known-finding.ts';

const TEST = 'print-slip > print slip of a SUCCESS transaction';
const total = (seq: number): Finding => ({
  check: 'invariant.total-amount',
  severity: 'failure',
  clause: 'spec#transaction-print-slip',
  test: TEST,
  message: 'total_amount 1301 != amount 1300 + tip_amount 0',
  evidence: { amount: 1300, tip_amount: 0, total_amount: 1301, exchange: { seq } },
});
const disagrees = (
  seq: number,
  slip: Record<string, unknown>,
  record: Record<string, unknown>,
  severity: Finding['severity'] = 'warning',
): Finding => ({
  check: 'print-slip.agrees-with-status',
  severity,
  clause: 'sandbox#status-and-print-slip',
  test: TEST,
  message: `print slip of t1 disagrees with its status record: ${Object.keys(slip)
    .map((k) => `${k} ${JSON.stringify(slip[k])} vs ${JSON.stringify(record[k])}`)
    .join('; ')}`,
  evidence: { slip, record, exchange: { seq } },
});

describe('linkFollowUps', () => {
  it('folds the slip/status disagreement on the total under the wrong total of the same slip', () => {
    const [root, follow] = linkFollowUps([total(8), disagrees(8, { total_amount: 1301 }, { total_amount: 1300 })], [], FOLLOW_UPS);
    expect(root!.followsFrom).toBeUndefined();
    expect(follow!.followsFrom).toMatchObject({
      check: 'invariant.total-amount',
      clause: 'spec#transaction-print-slip',
      message: root!.message,
      test: TEST,
    });
  });

  it('never folds an independent defect', () => {
    const cases: [string, Finding[]][] = [
      // The slip's status disagrees too: a field the root does not judge.
      ['another field', [total(8), disagrees(8, { status: 'COMPLETED', total_amount: 1301 }, { status: 'SUCCESS', total_amount: 1300 })]],
      // No root: the record's total, not the slip's arithmetic, is what differs.
      ['no root', [disagrees(8, { total_amount: 1301 }, { total_amount: 1300 })]],
      // The root is on another exchange (another transaction's slip).
      ['another exchange', [total(5), disagrees(8, { total_amount: 1301 }, { total_amount: 1300 })]],
      // A failure never folds under a warning (--strict makes the sandbox rule a failure; a root that warns is lighter).
      ['a lighter root', [{ ...total(8), severity: 'warning' }, disagrees(8, { total_amount: 1301 }, { total_amount: 1300 }, 'failure')]],
    ];
    for (const [why, list] of cases)
      expect(
        linkFollowUps(list, [], FOLLOW_UPS).every((f) => f.followsFrom === undefined),
        why,
      ).toBe(true);
  });

  it('folds under a root an earlier test reported and this test saw again on the same exchange', () => {
    const root = {
      check: 'invariant.total-amount',
      clause: 'spec#transaction-print-slip',
      message: 'total_amount 901 != amount 900 + tip_amount 0',
      test: 'payment > approve',
    };
    const [f] = linkFollowUps(
      [disagrees(8, { total_amount: 1301 }, { total_amount: 1300 })],
      [{ check: 'invariant.total-amount', severity: 'failure', exchangeSeq: 8, root }],
      FOLLOW_UPS,
    );
    expect(f!.followsFrom).toMatchObject(root);
    const [g] = linkFollowUps(
      [disagrees(8, { total_amount: 1301 }, { total_amount: 1300 })],
      [{ check: 'invariant.total-amount', severity: 'failure', exchangeSeq: 3, root }],
      FOLLOW_UPS,
    );
    expect(g!.followsFrom).toBeUndefined();
  });

  it('a baseline entry that knows the root knows what follows from it, and nothing independent', () => {
    const entries = [
      {
        check: 'invariant.total-amount',
        match: '^total_amount \\d+ != amount \\d+ \\+ tip_amount \\d+$',
        reason: 'off by one',
        expires: '2099-01-01',
      },
    ];
    const linked = linkFollowUps(
      [total(8), disagrees(8, { total_amount: 1301 }, { total_amount: 1300 }), disagrees(9, { status: 'FAILED' }, { status: 'SUCCESS' })],
      [],
      FOLLOW_UPS,
    );
    const [root, follow, other] = markKnown(linked, entries, Date.parse('2026-11-28'));
    expect(root!.known?.entry).toBe(1);
    expect(follow!.known).toEqual(root!.known);
    expect(other!.known).toBeUndefined();
  });

  it("folds an undocumented status under the finding on the same answer's status, and only there", () => {
    const answer = (check: string, seq: number, severity: Finding['severity']): Finding => ({
      check,
      severity,
      clause: 'spec#endpoints',
      test: TEST,
      message: `${check} 500`,
      evidence: { status: 500, exchange: { seq } },
    });
    const [root, follow] = linkFollowUps(
      [answer('request.accepted', 3, 'failure'), answer('response.status-documented', 3, 'warning')],
      [],
      FOLLOW_UPS,
    );
    expect(root!.followsFrom).toBeUndefined();
    expect(follow!.followsFrom?.check).toBe('request.accepted');
    expect(
      linkFollowUps([answer('request.accepted', 3, 'failure'), answer('response.status-documented', 4, 'warning')], [], FOLLOW_UPS)[1]!
        .followsFrom,
    ).toBeUndefined();
    // Where the spec lists the operation's statuses the undocumented one is a failure: never under a warning.
    expect(
      linkFollowUps(
        [answer('request.invalid-rejected', 3, 'warning'), answer('response.status-documented', 3, 'failure')],
        [],
        FOLLOW_UPS,
      )[1]!.followsFrom,
    ).toBeUndefined();
  });

  it('names only checks the registry has', async () => {
    const { CHECKS } = await import('./registry.ts');
    for (const r of FOLLOW_UPS) for (const id of [r.check, r.from]) expect(CHECKS.has(id), id).toBe(true);
  });
});
