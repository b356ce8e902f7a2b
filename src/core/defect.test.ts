/** What makes two findings one defect: the ids and amounts a run drew are not part of it. */
import { describe, expect, it } from 'vitest';
import { defectKey, normaliseMessage } from './defect.ts';

describe('normaliseMessage', () => {
  it('takes out the amounts of amount fields and their sums, so the same arithmetic defect is one', () => {
    const one = normaliseMessage('total_amount 501 != amount 500 + tip_amount 0');
    expect(one).toBe('total_amount <n> != amount <n> + tip_amount <n>');
    expect(normaliseMessage('total_amount 1658 != amount 1557 + tip_amount 100')).toBe(one);
    expect(
      normaliseMessage('print slip of 4a8b1ede-d88b-48f3-a308-16e89ee3a3f5 disagrees with its status record: total_amount 1501 vs 1500'),
    ).toBe('print slip of <id> disagrees with its status record: total_amount <n> vs <n>');
  });

  it('keeps status codes, and a lone amount below four digits that names a sandbox scenario', () => {
    expect(normaliseMessage('POST /v1/pay-connect/transactions/generate/ answered 401; expected 200')).toBe(
      'POST /v1/pay-connect/transactions/generate/ answered 401; expected 200',
    );
    expect(normaliseMessage('amount 151: status SUCCESS while it should wait IN_PROGRESS')).toBe(
      'amount 151: status SUCCESS while it should wait IN_PROGRESS',
    );
  });
});

describe('defectKey', () => {
  it('is one key for a defect seen with other amounts and ids', () => {
    const f = (message: string) => ({
      check: 'invariant.total-amount',
      severity: 'failure' as const,
      clause: 'spec#transaction-print-slip',
      message,
      evidence: null,
    });
    expect(defectKey(f('total_amount 4501 != amount 4500 + tip_amount 0'))).toBe(
      defectKey(f('total_amount 801 != amount 800 + tip_amount 100')),
    );
    expect(defectKey(f('total_amount 801 != amount 800 + tip_amount 100'))).not.toBe(
      defectKey({ ...f('total_amount 801 != amount 800 + tip_amount 100'), severity: 'warning' }),
    );
  });
});
