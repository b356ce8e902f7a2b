/**
 * The declared relations between checks that make one finding follow from another (core/follow-up.ts):
 * on the same exchange, a finding of `check` that names only fields of `fields` is what its root's
 * defect looks like from another angle, not a second defect. Each relation says why, and is narrow:
 * a field the root does not judge (the slip's status, say) keeps the follow-up a finding of its own.
 */
import type { FollowUpRule } from '../core/index.ts';

export const FOLLOW_UPS: readonly FollowUpRule[] = [
  {
    // The slip's own amounts do not add up (spec), so its total cannot agree with the status record's
    // (sandbox): a slip whose amount, tip or total disagrees is the same broken arithmetic.
    check: 'print-slip.agrees-with-status',
    from: 'invariant.total-amount',
    fields: ['amount', 'tip_amount', 'total_amount'],
    fieldsIn: 'slip',
    because: "the slip's amounts do not add up, so they cannot all agree with the status record's",
  },
  // An answer's status judged twice: a request that should have succeeded (or been refused with a
  // 4xx) got a status the operation does not document either. response.status-documented judges
  // nothing but the status, so on the same exchange it is the same wrong answer.
  ...(['request.accepted', 'request.invalid-rejected'] as const).map((from): FollowUpRule => ({
    check: 'response.status-documented',
    from,
    fields: ['status'],
    because: 'the same answer, whose status is already the finding',
  })),
];
