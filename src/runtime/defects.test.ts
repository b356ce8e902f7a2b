import { describe, expect, it } from 'vitest';
import type { Finding } from '../core/index.ts';
import { DefectLedger, type LedgerNews, SYSTEMIC_AFTER } from './defects.ts';

const finding = (over: Partial<Finding> = {}): Finding => ({
  check: 'convergence.deadline',
  severity: 'failure',
  clause: 'spec#what-the-service-does',
  message: 'transaction 6f0c2b1e-8d4e-4c43-9a55-0d9f1e2b3c4d still IN_PROGRESS after 5000 ms',
  ...over,
});

describe('DefectLedger', () => {
  it('files the first finding of a defect as the root and later tests as repeats, ids and amounts aside', () => {
    const l = new DefectLedger();
    expect(l.file(finding(), 'a', true).kind).toBe('root');
    const again = l.file(
      finding({ message: 'transaction 11111111-2222-4333-8444-555555555555 still IN_PROGRESS after 5000 ms' }),
      'b',
      true,
    );
    expect(again.kind).toBe('repeat');
    expect(again.root.test).toBe('a');
    expect(
      l.file(finding({ message: 'transaction 11111111-2222-4333-8444-555555555555 still IN_PROGRESS after 5000 ms' }), 'a', true).kind,
    ).toBe('again');
    expect(l.defects()[0]!.repeats.get('b')).toBe(1);
  });

  it('keeps different defects apart: another check, another message, another status code', () => {
    const l = new DefectLedger();
    l.file(finding({ check: 'request.accepted', message: 'POST /x answered 409; expected 200' }), 'a', true);
    expect(l.file(finding({ check: 'request.accepted', message: 'POST /x answered 500; expected 200' }), 'b', true).kind).toBe('root');
    expect(l.file(finding({ check: 'response.enum', message: 'POST /x answered 409; expected 200' }), 'b', true).kind).toBe('root');
  });

  it('lets a reported sighting stand for one that was only recorded, in place', () => {
    const l = new DefectLedger();
    const first = l.file(finding(), 'stateful', false).root;
    expect(l.isReported(first)).toBe(false);
    const second = l.file(finding(), 'payment', true);
    expect(second.kind).toBe('root');
    expect(first.test).toBe('payment');
    expect(l.isReported(first)).toBe(true);
  });

  it(`makes a kind of wait systemic after ${SYSTEMIC_AFTER} misses in a row, naming the first miss`, () => {
    const l = new DefectLedger();
    const root = { ...finding(), test: 'a' };
    expect(l.waited('transaction-final', root)).toBe(false);
    expect(l.blocker('transaction-final')).toBeUndefined();
    expect(l.waited('transaction-final', { ...root, test: 'b' })).toBe(true);
    expect(l.blocker('transaction-final')?.test).toBe('a');
    // Once systemic it stays so: a later success does not reopen futile waits.
    l.waited('transaction-final', undefined);
    expect(l.blocker('transaction-final')?.test).toBe('a');
  });

  it('forgets a miss that a success follows', () => {
    const l = new DefectLedger();
    const root = { ...finding(), test: 'a' };
    l.waited('webhook-valid', root);
    l.waited('webhook-valid', undefined);
    expect(l.waited('webhook-valid', root)).toBe(false);
    expect(l.blocker('webhook-valid')).toBeUndefined();
  });

  it('tells the hub of a wait that ended well only while the run counts misses of its kind', () => {
    const l = new DefectLedger();
    const told: LedgerNews[] = [];
    l.connect((news) => told.push(news));
    // A clean run: no news per request.
    l.waited('answer', undefined);
    l.waited('webhook-valid', undefined);
    expect(told).toEqual([]);
    // Another worker's miss is counted: this one's good waits of that kind are news now.
    l.absorb({ kind: 'misses', wait: 'webhook-valid', counted: true });
    l.waited('webhook-valid', undefined);
    l.waited('answer', undefined);
    expect(told).toEqual([{ kind: 'waited', wait: 'webhook-valid' }]);
    // Counting starts again: silent again.
    l.absorb({ kind: 'misses', wait: 'webhook-valid', counted: false });
    l.waited('webhook-valid', undefined);
    expect(told).toHaveLength(1);
    // Its own miss is counted at once, before the hub says so.
    const root = { ...finding(), test: 'a' };
    l.waited('transaction-final', root);
    l.waited('transaction-final', undefined);
    expect(told.slice(1)).toEqual([
      { kind: 'waited', wait: 'transaction-final', missed: root },
      { kind: 'waited', wait: 'transaction-final' },
    ]);
  });

  it('blocks a named need', () => {
    const l = new DefectLedger();
    const root = { ...finding({ check: 'auth.token-obtained' }), test: 'a' };
    l.block('token:p1', root);
    expect(l.blocker('token:p1')).toBe(root);
    expect(l.blocker('token:p2')).toBeUndefined();
  });
});
