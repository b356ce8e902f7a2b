import { describe, expect, it } from 'vitest';
import type { BaselineEntry } from '../core/index.ts';
import { entryFor, isCompleteRun, judgeBaseline, matchOf, mergeBaseline, parseBaseline } from './baseline.ts';
import type { RunRecord, TestRecord } from './records.ts';

const e = (over: Partial<BaselineEntry> = {}): BaselineEntry => ({
  check: 'request.accepted',
  reason: 'r',
  expires: '2099-01-01',
  ...over,
});

describe('the baseline file', () => {
  it('is checked entry by entry, naming the entry and what is wrong', () => {
    expect(() => parseBaseline([], 'b.json')).toThrow(/b\.json: is not an object/);
    expect(() => parseBaseline({ entries: {} }, 'b.json')).toThrow(/"entries" is not an array/);
    expect(() => parseBaseline({ entries: [e(), { check: 'x', reason: 'r' }] }, 'b.json')).toThrow(/entry 2 has no "expires"/);
    expect(() => parseBaseline({ entries: [{ ...e(), severity: 'x' }] }, 'b.json')).toThrow(/entry 1 has an unknown key "severity"/);
    expect(() => parseBaseline({ entries: [e({ expires: '2026-02-30x' })] }, 'b.json')).toThrow(/not a date/);
    expect(() => parseBaseline({ version: 2, entries: [] }, 'b.json')).toThrow(/version 2/);
    expect(parseBaseline({ entries: [e({ ticket: ' PAY-1 ' })] }, 'b.json').entries[0]).toEqual(e({ ticket: 'PAY-1' }));
  });

  it('writes entries as narrow as their finding: the message with its ids as wildcards', () => {
    const m = matchOf('GET /v1/pay-connect/transactions/0f8fad5b-d9cb-469f-a165-70867728950e/status/ answered 500 after 12345 ms');
    expect(
      new RegExp(m).test('GET /v1/pay-connect/transactions/7c9e6679-7425-40de-944b-e07fc1f90ae7/status/ answered 500 after 99 ms'),
    ).toBe(true);
    expect(
      new RegExp(m).test('GET /v1/pay-connect/transactions/7c9e6679-7425-40de-944b-e07fc1f90ae7/status/ answered 502 after 99 ms'),
    ).toBe(false);
    const entry = entryFor(
      { check: 'c', clause: 'spec#x', message: 'm (1)', evidence: { exchange: { operationId: 'getConfiguration' } } },
      { reason: 'r', expires: '2099-01-01' },
    );
    expect(entry).toEqual({
      check: 'c',
      operation: 'getConfiguration',
      clause: 'spec#x',
      match: '^m \\(1\\)$',
      reason: 'r',
      expires: '2099-01-01',
    });
  });

  it('merges without adding an entry twice or widening one; --renew takes the new expiry and reason', () => {
    const old = { version: 1 as const, entries: [e({ match: '^a$', expires: '2099-01-01', reason: 'old' })] };
    const kept = mergeBaseline(old, [e({ match: '^a$', expires: '2099-06-01', reason: 'new' }), e({ match: '^b$' }), e({ match: '^b$' })]);
    expect(kept).toMatchObject({ added: 1, kept: 1, renewed: 0 });
    expect(kept.file.entries).toEqual([old.entries[0], e({ match: '^b$' })]);
    const renewed = mergeBaseline(old, [e({ match: '^a$', expires: '2099-06-01', reason: 'new' })], true);
    expect(renewed.file.entries).toEqual([e({ match: '^a$', expires: '2099-06-01', reason: 'new' })]);
    // A wider entry (no match) is added beside the narrow one, never merged into it.
    expect(mergeBaseline(old, [e()]).file.entries).toHaveLength(2);
  });

  it('judged after a run: expired entries, and, in a complete run only, entries nothing matched', () => {
    const t = {
      name: 't',
      findings: [
        {
          check: 'request.accepted',
          severity: 'failure',
          clause: 'c',
          message: 'm',
          known: { entry: 1, reason: 'r', expires: '2099-01-01' },
        },
      ],
    } as unknown as TestRecord;
    const record: RunRecord = { tests: [t], unhandled: [], startedAt: '', durationMs: 0 };
    const file = {
      version: 1 as const,
      entries: [e(), e({ check: 'response.schema' }), e({ check: 'response.enum', expires: '2020-01-01' })],
    };
    const complete = judgeBaseline('b.json', file, record, { now: Date.parse('2026-11-26'), complete: true });
    expect(complete.matched).toEqual([{ entry: 1, findings: 1 }]);
    expect(complete.expired.map((x) => x.entry)).toEqual([3]);
    expect(complete.resolved.map((x) => x.entry)).toEqual([2]);
    const partial = judgeBaseline('b.json', file, record, { now: Date.parse('2026-11-26'), complete: false });
    expect(partial.resolved).toEqual([]);
    expect(partial.unseen?.map((x) => x.entry)).toEqual([2]);
  });
});

describe('isCompleteRun', () => {
  it('is a run of every suite, unfiltered, unsharded, with nothing stopped', () => {
    const record = { tests: [{ name: 't' } as TestRecord], unhandled: [] };
    expect(isCompleteRun(record, { suitesSelected: [] })).toBe(true);
    expect(isCompleteRun(record, { suitesSelected: ['payment'] })).toBe(false);
    expect(isCompleteRun(record, { suitesSelected: [], grep: 'slip' })).toBe(false);
    expect(isCompleteRun(record, { suitesSelected: [], oneShard: true })).toBe(false);
    expect(
      isCompleteRun({ tests: [{ name: 't', notFinished: 'run budget exceeded' } as TestRecord], unhandled: [] }, { suitesSelected: [] }),
    ).toBe(false);
    expect(isCompleteRun({ tests: [], unhandled: ['boom'] }, { suitesSelected: [] })).toBe(false);
  });
});
