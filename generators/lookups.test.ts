/** The contract's lookups emitted with the types (src/generated/contract.ts): by id, by request, a path, a transaction's start. */
import { describe, expect, it } from 'vitest';
import { operationById, operationFor, operationWithId, operations, pathFor, startsTransaction } from '../src/generated/contract.ts';

describe('the generated lookups', () => {
  it('operationById holds every operation under its own id', () => {
    expect(Object.keys(operationById).sort()).toEqual(operations.map((o) => o.operationId).sort());
    for (const o of operations) expect(operationById[o.operationId]).toBe(o);
    expect(operationWithId('getConfig')).toBe(operationById.getConfig);
    for (const id of [undefined, 'nope', 'toString', '__proto__']) expect(operationWithId(id), String(id)).toBeUndefined();
  });

  it('operationFor finds an operation by method and concrete path, a query ignored, and nothing for another method or path', () => {
    expect(operationFor('get', '/v1/pay-connect/transactions/abc-1/status/')?.operationId).toBe('getTransactionStatus');
    expect(operationFor('POST', '/v1/pay-connect/transactions/abc-1/cancel/?trace=1')?.operationId).toBe('cancelTransaction');
    expect(operationFor('DELETE', '/v1/pay-connect/transactions/abc-1/status/')).toBeUndefined();
    expect(operationFor('GET', '/paycon/v1/pay-connect/transactions/abc-1/status/')).toBeUndefined();
    expect(operationFor('GET', '/v1/pay-connect/transactions//status/')).toBeUndefined();
    for (const o of operations)
      expect(operationFor(o.method, pathFor(o.operationId, { transaction_id: 't1', operation_id: 'o1' }))).toBe(o);
  });

  it('pathFor fills each parameter as one encoded segment, and refuses a missing one', () => {
    expect(pathFor('getTransactionStatus', { transaction_id: 'a/b c' })).toBe('/v1/pay-connect/transactions/a%2Fb%20c/status/');
    expect(pathFor('getConfig')).toBe(operationById.getConfig.path);
    expect(() => pathFor('getTransactionStatus')).toThrow(/transaction_id of getTransactionStatus/);
  });

  it('startsTransaction: the state-changing operations whose 200 answer is a new transaction', () => {
    const starters = operations.filter((o) => startsTransaction(o.operationId)).map((o) => o.operationId);
    expect(starters).toEqual(expect.arrayContaining(['generateTransaction', 'startPreauth']));
    for (const o of operations)
      expect(startsTransaction(o.operationId), o.operationId).toBe(o.stateChanging && o.responses['200']?.schema === 'TransactionCreated');
    expect(startsTransaction('cancelTransaction')).toBe(false);
  });
});
