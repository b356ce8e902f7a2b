/**
 * A model-based part's memory stays flat in the number of sequences (issue 43): the exchanges of a
 * passed sequence that the report does not keep whole are slimmed; those it keeps are untouched.
 */
import { expect, test } from 'vitest';
import type { Exchange, Finding } from '../src/index.ts';
import { slimPassedExchanges } from '../suites/stateful/real.ts';

const exchange = (seq: number): Exchange => ({
  seq,
  operationId: 'getTransactionStatus',
  request: { method: 'GET', url: `http://127.0.0.1/x/${seq}`, path: `/x/${seq}`, headers: { authorization: 'Bearer t' } },
  response: { status: 200, headers: { 'content-type': 'application/json' }, body: { status: 'SUCCESS' }, rawBody: '{"status":"SUCCESS"}' },
  startedAt: '2026-11-28T10:00:00.000Z',
  durationMs: seq % 7,
});

test('slims what the report will not keep whole: not the first 50, the last 10, or one a finding names', () => {
  const exchanges = Array.from({ length: 100 }, (_, i) => exchange(i + 1));
  const originals = [...exchanges];
  const findings = [{ check: 'schema.response', evidence: { exchange: { seq: 70 } } } as unknown as Finding];
  slimPassedExchanges({ exchanges, findings }, 0);
  expect(exchanges).toHaveLength(100);
  const whole = exchanges.flatMap((x, i) => (x === originals[i] ? [x.seq] : []));
  expect(whole).toEqual([...Array.from({ length: 50 }, (_, i) => i + 1), 70, ...Array.from({ length: 10 }, (_, i) => 91 + i)]);
  const slim = exchanges[55]!;
  expect(slim).toEqual({
    seq: 56,
    operationId: 'getTransactionStatus',
    request: { method: 'GET', url: 'http://127.0.0.1/x/56', path: '/x/56', headers: {} },
    response: { status: 200, headers: {} },
    startedAt: '2026-11-28T10:00:00.000Z',
    durationMs: 0,
  });
  // The count and the service's time are the same.
  expect(exchanges.reduce((n, x) => n + x.durationMs, 0)).toBe(originals.reduce((n, x) => n + x.durationMs, 0));
});

test('starts where it is told: what came before (a failed sequence) stays whole', () => {
  const exchanges = Array.from({ length: 100 }, (_, i) => exchange(i + 1));
  const originals = [...exchanges];
  slimPassedExchanges({ exchanges, findings: [] }, 80);
  expect(exchanges.slice(0, 80)).toEqual(originals.slice(0, 80));
  expect(exchanges.slice(80, 90).every((x, i) => x !== originals[80 + i] && x.response?.body === undefined)).toBe(true);
  expect(exchanges.slice(90)).toEqual(originals.slice(90));
});
