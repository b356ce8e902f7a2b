/**
 * Unit tests of the flow checks (what a scenario observes across several requests: echoes, cancel,
 * print slip, preauthorization, revert and refunds): for each, an input it passes and one it fails.
 */
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../core/index.ts';
import * as fc from './flow-checks.ts';
import { judge, message } from './test-judge.ts';

const ex = (status: number, body?: unknown, path = '/v1/pay-connect/transactions/t-1/refund/'): Exchange =>
  ({ seq: 3, request: { method: 'POST', path, headers: {}, body }, response: { status, headers: {}, body: {} } }) as unknown as Exchange;

describe('echoes', () => {
  it('sandbox.client-transaction-id: echoed intact passes; trimmed or renormalised fails, saying how', () => {
    expect(judge(fc.clientTransactionIdEchoed, { sent: 'a-1', record: { client_transaction_id: 'a-1' } }).outcome).toBe('pass');
    expect(message(fc.clientTransactionIdEchoed, { sent: ' a ', record: { client_transaction_id: 'a' } })).toMatch(
      /came back as "a" \(U\+0061\): trimmed$/,
    );
    expect(message(fc.clientTransactionIdEchoed, { sent: 'e\u0301', record: { client_transaction_id: '\u00e9' } })).toMatch(
      /normalised to another Unicode form$/,
    );
    expect(judge(fc.clientTransactionIdEchoed, { sent: 'a' }).outcome).toBe('skip');
  });

  it('sandbox.payment-method: the method sent (or the customer pick) passes; another fails', () => {
    expect(judge(fc.paymentMethodRecorded, { sent: 'TWINT', record: { payment_method: 'TWINT' } }).outcome).toBe('pass');
    expect(judge(fc.paymentMethodRecorded, { expectedPick: 'CARD', record: { payment_method: 'CARD' } }).outcome).toBe('pass');
    expect(
      message(fc.paymentMethodRecorded, { sent: 'TWINT', record: { transaction_id: 't-1', status: 'SUCCESS', payment_method: 'CARD' } }),
    ).toBe('status record of t-1 (SUCCESS) has payment_method "CARD"; payment_method "TWINT" was sent');
  });
});

describe('whose answer it is (spec)', () => {
  const slip = { transaction_id: 't-1', terminal_id: '80000001' };
  it("print-slip.transaction-id: the path's id passes; another id fails the run", () => {
    expect(judge(fc.slipTransactionId, { expected: 't-1', answer: slip }).outcome).toBe('pass');
    const r = judge(fc.slipTransactionId, { expected: 't-2', answer: slip });
    expect(r.findings[0]).toMatchObject({
      severity: 'failure',
      clause: 'spec#get-v1pay-connecttransactionstransaction_idprint-slip',
      message: 'the print slip says transaction_id "t-1", expected "t-2"',
    });
    expect(judge(fc.slipTransactionId, { expected: 't-1', answer: {} }).outcome).toBe('skip');
  });

  it('print-slip.terminal-id: the paired terminal passes; another fails the run', () => {
    expect(judge(fc.slipTerminalId, { expected: '80000001', answer: slip }).outcome).toBe('pass');
    expect(judge(fc.slipTerminalId, { expected: '90000001', answer: slip }).findings[0]).toMatchObject({
      severity: 'failure',
      clause: 'spec#what-the-service-does',
      message: 'the print slip says terminal_id "80000001", expected "90000001"',
    });
    expect(judge(fc.slipTerminalId, { expected: undefined, answer: slip }).outcome).toBe('skip');
  });

  it("operation.reference-transaction-id: the path's transaction passes; another fails the run", () => {
    expect(
      judge(fc.operationReferenceTransaction, { expected: 't-1', answer: { operation_id: 'o-1', transaction_id: 't-1' } }).outcome,
    ).toBe('pass');
    expect(
      judge(fc.operationReferenceTransaction, { expected: 't-1', answer: { operation_id: 'o-1', transaction_id: 't-0' } }).findings[0],
    ).toMatchObject({
      severity: 'failure',
      clause: 'spec#what-the-service-does',
      message: 'the operation reference says transaction_id "t-0", expected "t-1"',
    });
    expect(judge(fc.operationReferenceTransaction, { expected: 't-1' }).outcome).toBe('skip');
  });

  it('print-slip.agrees-with-status leaves the id to the spec rule (one defect, one finding)', () => {
    expect(
      judge(fc.slipAgreesWithStatus, {
        slip: { transaction_id: 't-0', status: 'SUCCESS' },
        record: { transaction_id: 't-1', status: 'SUCCESS' },
      }).outcome,
    ).toBe('pass');
  });
});

describe('cancel', () => {
  const before = {
    transaction_id: 't-1',
    status: 'SUCCESS',
    completed_at: '2026-11-24T10:00:00Z',
    canceled_at: null,
    amount: 100,
    tip_amount: 0,
  };
  it('sandbox.cancel-final-unchanged: nothing changed passes; a stamped canceled_at fails, named', () => {
    expect(judge(fc.cancelFinalUnchanged, { before, after: { ...before }, cancelStatus: 400 }).outcome).toBe('pass');
    expect(message(fc.cancelFinalUnchanged, { before, after: { ...before, canceled_at: '2026-11-24T10:01:00Z' }, cancelStatus: 400 })).toBe(
      'cancel of final transaction t-1 (answered 400) changed canceled_at null -> "2026-11-24T10:01:00Z"',
    );
  });

  it('sandbox.cancel-race: CANCELED or SUCCESS pass; anything else fails', () => {
    expect(judge(fc.cancelRaceOutcome, { amount: 1000, actual: 'CANCELED' }).outcome).toBe('pass');
    expect(judge(fc.cancelRaceOutcome, { amount: 1000, actual: 'SUCCESS' }).outcome).toBe('pass');
    expect(message(fc.cancelRaceOutcome, { amount: 1000, actual: 'FAILED' })).toBe(
      'amount 1000 canceled while IN_PROGRESS ended FAILED; the sandbox allows only CANCELED or SUCCESS',
    );
  });

  it('sandbox.waiting-status: the waiting status passes; another fails', () => {
    expect(judge(fc.waitingStatus, { amount: 1054, expected: 'IN_PROGRESS', actual: 'IN_PROGRESS' }).outcome).toBe('pass');
    expect(message(fc.waitingStatus, { amount: 1054, expected: 'IN_PROGRESS', actual: 'SUCCESS' })).toBe(
      'amount 1054: status SUCCESS while it should wait IN_PROGRESS until canceled or expired',
    );
  });
});

describe('print slip', () => {
  it('print-slip.final-available: 200 for a final transaction passes; a refusal fails', () => {
    expect(judge(fc.slipOfFinal, { status: 'DECLINED', exchange: ex(200) }).outcome).toBe('pass');
    expect(
      message(fc.slipOfFinal, { status: 'DECLINED', exchange: ex(400, undefined, '/v1/pay-connect/transactions/t-1/print-slip/') }),
    ).toBe('print slip of a DECLINED transaction: POST /v1/pay-connect/transactions/t-1/print-slip/ answered 400; expected 200');
  });

  it('print-slip.agrees-with-status: the same fields pass; a different total fails naming both values', () => {
    const record = { transaction_id: 't-1', status: 'SUCCESS', amount: 100, tip_amount: 0, total_amount: 100, tags: ['charge'] };
    expect(judge(fc.slipAgreesWithStatus, { slip: { ...record, currency: 'EUR' }, record }).outcome).toBe('pass');
    expect(message(fc.slipAgreesWithStatus, { slip: { ...record, total_amount: 101 }, record })).toBe(
      'print slip of t-1 disagrees with its status record: total_amount 101 vs 100',
    );
  });
});

describe('preauthorization', () => {
  it('sandbox.operation-outcome: an expected final passes; another fails with the why', () => {
    const o = { type: 'transaction.preauth.increment', amount: 51, expected: ['FAILED'], why: 'amount ending in 51' };
    expect(judge(fc.operationOutcome, { ...o, actual: 'FAILED' }).outcome).toBe('pass');
    expect(message(fc.operationOutcome, { ...o, actual: 'SUCCESS' })).toBe(
      'transaction.preauth.increment of 51 ended SUCCESS, expected FAILED (amount ending in 51)',
    );
  });

  it('preauth.completed-amount: the completed amount everywhere passes; a kept amount fails', () => {
    expect(judge(fc.completedAmount, { completed: 1500, record: { amount: 1500 }, slip: { amount: 1500 } }).outcome).toBe('pass');
    expect(message(fc.completedAmount, { completed: 1500, record: { amount: 1000 } })).toBe(
      'after completing 1500: status record amount 1000; expected 1500',
    );
  });

  it('preauth.authorized-only: 400 passes; an accepted increment of a plain charge fails', () => {
    expect(judge(fc.authorizedOnly, ex(400)).outcome).toBe('pass');
    expect(message(fc.authorizedOnly, ex(200))).toMatch(
      /answered 200 for a transaction that is not a successful preauthorization; expected 400$/,
    );
  });

  it('operation.record-matches: the right transaction and type pass; another type fails', () => {
    const good = {
      transactionId: 't-1',
      type: 'transaction.revert',
      reference: { transaction_id: 't-1' },
      record: { transaction_id: 't-1', operation_type: 'transaction.revert' },
    };
    expect(judge(fc.operationRecordMatches, good).outcome).toBe('pass');
    expect(
      message(fc.operationRecordMatches, { ...good, record: { transaction_id: 't-1', operation_type: 'transaction.preauth.complete' } }),
    ).toBe(
      'transaction.revert on t-1: record operation_type "transaction.preauth.complete"; expected transaction t-1 and type transaction.revert',
    );
  });
});

describe('revert and refunds', () => {
  it('revert.latest-only and refund.success-only: 400 passes; a 2xx breaks the profile rule, another 4xx only the sandbox one', () => {
    for (const check of [fc.revertLatestOnly, fc.refundSuccessOnly]) {
      expect(judge(check, ex(400)).outcome).toBe('pass');
      const accepted = judge(check, ex(200));
      expect(accepted.findings[0]).toMatchObject({ severity: 'warning', clause: 'profile#rules-of-behaviour' });
      expect(accepted.findings[0]!.message).toMatch(/answered 200; it must be refused \(400\)$/);
      expect(judge(check, ex(409)).findings[0]!.message).toMatch(/answered 409; expected 400$/);
    }
  });

  it('refund.within-remainder: 400 passes; an accepted refund above the remainder fails with both amounts', () => {
    expect(judge(fc.refundWithinRemainder, { remainder: 500, exchange: ex(400, { amount: 600 }) }).outcome).toBe('pass');
    expect(message(fc.refundWithinRemainder, { remainder: 500, exchange: ex(200, { amount: 600 }) })).toMatch(
      /^linked refund of 600 with 500 left unrefunded: POST .* answered 200; expected 400$/,
    );
  });

  it('revert.reverted: REVERTED with reverted_at passes; a missing reverted_at fails', () => {
    expect(
      judge(fc.revertedRecord, { record: { transaction_id: 't-1', status: 'REVERTED', reverted_at: '2026-11-24T10:00:00Z' } }).outcome,
    ).toBe('pass');
    expect(message(fc.revertedRecord, { record: { transaction_id: 't-1', status: 'REVERTED', reverted_at: null } })).toBe(
      'after a SUCCESS revert of t-1: status record reverted_at null; expected REVERTED with reverted_at',
    );
  });

  it('refund.tagged: a refund tag passes; a charge tag fails', () => {
    expect(
      judge(fc.refundTagged, { linked: true, where: 'status record', record: { transaction_id: 'r-1', tags: ['refund'] } }).outcome,
    ).toBe('pass');
    expect(message(fc.refundTagged, { linked: false, where: 'print slip', record: { transaction_id: 'r-1', tags: ['charge'] } })).toBe(
      'independent refund r-1: print slip tags ["charge"] lack "refund"',
    );
  });

  it('refund.total-grows: a SUCCESS adds its amount, another end adds nothing; anything else fails', () => {
    expect(judge(fc.refundTotalGrows, { before: null, after: 300, refundAmount: 300, refundStatus: 'SUCCESS' }).outcome).toBe('pass');
    expect(judge(fc.refundTotalGrows, { before: 300, after: 300, refundAmount: 200, refundStatus: 'DECLINED' }).outcome).toBe('pass');
    expect(message(fc.refundTotalGrows, { before: 300, after: 300, refundAmount: 200, refundStatus: 'SUCCESS' })).toBe(
      "refund of 200 ended SUCCESS: the original's refund_total_amount went 300 -> 300, expected 500",
    );
  });
});
