/** Unit tests of the model checks of the stateful suite: a prediction met passes, one missed fails. */
import { describe, expect, it } from 'vitest';
import { modelAnswer, modelCounterexample, modelFinalState, modelOperationOutcome } from './model-checks.ts';
import { judge, message } from './test-judge.ts';

describe('model checks', () => {
  it('model.answer: a predicted status passes; another fails with the why; a note fails even on a predicted status', () => {
    const o = { command: 'Cancel(t1)', request: 'POST /cancel/', expected: [200], why: 'pending', clause: 'sandbox#transactions' };
    expect(judge(modelAnswer, { ...o, actual: 200 }).outcome).toBe('pass');
    expect(message(modelAnswer, { ...o, actual: 400 })).toBe('Cancel(t1): POST /cancel/ answered 400; expected 200 (pending)');
    expect(message(modelAnswer, { ...o, actual: 200, note: 'answered although final' })).toBe(
      'Cancel(t1): POST /cancel/ answered 200; answered although final',
    );
  });

  it('model.final-state: the predicted record passes; a wrong status and tip fail, both named', () => {
    const expected = { status: ['SUCCESS'], amount: 1057, tipBy: { SUCCESS: 100 }, refundTotal: [0], refund: false };
    const base = { command: 'Wait(t1)', label: 't1 (id-1)', what: 'status record', expected, clause: 'sandbox#transactions' };
    expect(judge(modelFinalState, { ...base, actual: { status: 'SUCCESS', amount: 1057, tip_amount: 100 } }).outcome).toBe('pass');
    expect(message(modelFinalState, { ...base, actual: { status: 'DECLINED', amount: 1057, tip_amount: 0 } })).toBe(
      'Wait(t1): status record of t1 (id-1): status DECLINED, expected SUCCESS',
    );
    expect(message(modelFinalState, { ...base, actual: { status: 'SUCCESS', amount: 1057, tip_amount: 0 } })).toBe(
      'Wait(t1): status record of t1 (id-1): tip_amount 0, expected 100',
    );
  });

  it('model.operation-outcome: the predicted end passes; another end or type fails', () => {
    const base = {
      command: 'Complete(t1)',
      label: 't1',
      operationType: 'transaction.preauth.complete',
      transactionId: 'id-1',
      expected: ['SUCCESS'],
      why: 'authorized',
      clause: 'sandbox#preauthorization',
    };
    expect(
      judge(modelOperationOutcome, {
        ...base,
        actual: 'SUCCESS',
        record: { operation_type: 'transaction.preauth.complete', transaction_id: 'id-1' },
      }).outcome,
    ).toBe('pass');
    expect(message(modelOperationOutcome, { ...base, actual: 'FAILED' })).toBe(
      'Complete(t1): transaction.preauth.complete on t1 ended FAILED, expected SUCCESS (authorized)',
    );
  });

  it('model.counterexample: no failure passes; a shrunk failure names the sequence, seed, path and replay', () => {
    const o = {
      sequence: 'Generate(100, wait)',
      commands: 1,
      seed: 7,
      path: '0:1',
      replay: 'PAYCONNECT_STATEFUL_REPLAY=0:1',
      trace: [],
      numShrinks: 2,
    };
    expect(judge(modelCounterexample, { ...o, failures: [] }).outcome).toBe('pass');
    expect(message(modelCounterexample, { ...o, failures: ['[model.answer] x'] })).toBe(
      '1 command(s) break the model: Generate(100, wait) | seed 7 | path 0:1 | first: [model.answer] x | replay: PAYCONNECT_STATEFUL_REPLAY=0:1',
    );
  });
});
