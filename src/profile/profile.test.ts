import { describe, expect, it } from 'vitest';
import { enums } from '../generated/contract.ts';
import { OPERATION_STATUSES, PROFILES, TRANSACTION_STATUSES } from './profile.ts';

describe('status lists', () => {
  it('come from the contract, and the final ones are every status but INITIATED and IN_PROGRESS', () => {
    expect(TRANSACTION_STATUSES).toEqual(enums.TransactionStatus);
    expect(OPERATION_STATUSES).toEqual(enums.OperationStatus);
    for (const p of Object.values(PROFILES)) {
      expect([...p.transactionFinal].sort()).toEqual(['CANCELED', 'DECLINED', 'EXPIRED', 'FAILED', 'REVERTED', 'SUCCESS']);
      expect([...p.operationFinal].sort()).toEqual(['EXPIRED', 'FAILED', 'SUCCESS']);
    }
  });

  it('every status of the transition graphs is a status of the contract', () => {
    for (const p of Object.values(PROFILES)) {
      for (const [from, to] of Object.entries(p.transactionGraph)) for (const s of [from, ...to]) expect(TRANSACTION_STATUSES).toContain(s);
      for (const [from, to] of Object.entries(p.operationGraph)) for (const s of [from, ...to]) expect(OPERATION_STATUSES).toContain(s);
    }
  });
});
