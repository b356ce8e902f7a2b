import { describe, expect, it } from 'vitest';
import { assertMatchesContract, validated } from './contract-conformance.ts';

describe('assertMatchesContract (the guard every simulator test passes through)', () => {
  const slip = '/v1/pay-connect/transactions/tx1/print-slip/';
  it('accepts an answer that matches the contract and counts it', () => {
    const before = validated.get('getTransactionStatus 200') ?? 0;
    assertMatchesContract('GET', '/v1/pay-connect/transactions/tx1/status/', 200, JSON.stringify({ status: 'SUCCESS' }));
    expect(validated.get('getTransactionStatus 200')).toBe(before + 1);
  });
  it('rejects a body that breaks the schema, an undocumented status and a non-JSON body', () => {
    expect(() => assertMatchesContract('GET', slip, 200, JSON.stringify({ transaction_id: 'tx1' }))).toThrow(/does not match PrintSlip/);
    expect(() => assertMatchesContract('GET', slip, 418, '{}')).toThrow(/answered 418/);
    expect(() => assertMatchesContract('GET', slip, 400, 'Bad Request')).toThrow(/not JSON/);
  });
  it('leaves paths that are not operations of the contract alone', () => {
    expect(() => assertMatchesContract('GET', '/v1/pay-connect/config', 404, 'x')).not.toThrow();
  });
});
