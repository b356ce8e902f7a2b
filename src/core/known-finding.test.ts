import { describe, expect, it } from 'vitest';
import { type BaselineEntry, countsAsFailure, entryMatches, isExpired, markKnown } from './known-finding.ts';
import type { Finding } from './finding.ts';

const finding = (over: Partial<Finding> = {}): Finding => ({
  check: 'request.accepted',
  severity: 'failure',
  clause: 'spec#endpoints',
  message: 'POST /v1/pay-connect/transactions/generate/ answered 500; expected 200',
  evidence: { exchange: { operationId: 'generateTransaction' } },
  ...over,
});
const entry = (over: Partial<BaselineEntry> = {}): BaselineEntry => ({
  check: 'request.accepted',
  reason: 'known',
  expires: '2099-12-31',
  ...over,
});

describe('baseline entries', () => {
  it('match on the check, and on operation, clause and message where the entry gives them', () => {
    expect(entryMatches(entry(), finding())).toBe(true);
    expect(entryMatches(entry({ check: 'response.schema' }), finding())).toBe(false);
    expect(entryMatches(entry({ operation: 'generateTransaction', clause: 'spec#endpoints', match: 'answered 500' }), finding())).toBe(
      true,
    );
    expect(entryMatches(entry({ operation: 'cancelTransaction' }), finding())).toBe(false);
    expect(entryMatches(entry({ clause: 'sandbox#transactions' }), finding())).toBe(false);
    expect(entryMatches(entry({ match: 'answered 502' }), finding())).toBe(false);
    // An entry naming an operation never matches a finding that rests on no exchange.
    expect(entryMatches(entry({ operation: 'generateTransaction' }), finding({ evidence: { eventId: 'e' } }))).toBe(false);
  });

  it('expire at the end of their date (UTC), or at their date-time', () => {
    const end = Date.parse('2026-12-31T23:59:59.999Z');
    expect(isExpired({ expires: '2026-12-31' }, end)).toBe(false);
    expect(isExpired({ expires: '2026-12-31' }, end + 1)).toBe(true);
    expect(isExpired({ expires: '2026-12-31T12:00:00Z' }, Date.parse('2026-12-31T12:00:01Z'))).toBe(true);
  });

  it('mark the findings they know with the first live entry; an expired entry marks nothing', () => {
    const now = Date.parse('2026-11-26T00:00:00Z');
    const [a, b] = markKnown(
      [finding(), finding({ check: 'response.schema' })],
      [entry({ expires: '2026-01-01', ticket: 'OLD' }), entry({ ticket: 'PAY-1' })],
      now,
    );
    expect(a!.known).toEqual({ entry: 2, reason: 'known', ticket: 'PAY-1', expires: '2099-12-31' });
    expect(countsAsFailure(a!)).toBe(false);
    expect(b!.known).toBeUndefined();
    expect(countsAsFailure(b!)).toBe(true);
    const [c] = markKnown([finding()], [entry({ expires: '2026-01-01' })], now);
    expect(c!.known).toBeUndefined();
  });
});
