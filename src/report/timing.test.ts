import { describe, expect, it } from 'vitest';
import {
  type ConvergenceObservation,
  type Exchange,
  type Histogram,
  TimingRecorder,
  addSample,
  bucketOf,
  mergeTimingDigests,
} from '../core/index.ts';
import { buildSummary } from './summary.ts';
import { runRecord, testRecord } from './testing.ts';
import { mannWhitney, percentile, timingChange, timingSummaryOf } from './timing.ts';

const hist = (values: number[]): Histogram => {
  const h: Histogram = [];
  for (const v of values) addSample(h, v);
  return h;
};
const exchange = (operationId: string, durationMs: number, body?: unknown): Exchange => ({
  seq: 1,
  operationId,
  request: { method: operationId === 'generateTransaction' ? 'POST' : 'GET', url: 'http://x/', path: '/', headers: {} },
  response: { status: 200, headers: {}, body },
  startedAt: new Date(1_000_000).toISOString(),
  durationMs,
});
/** A seeded generator (mulberry32), so the samples are the same at every run. */
function rng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('timing statistics', () => {
  it('keeps whole milliseconds exact below 128 ms and is under 2 % off above', () => {
    expect(bucketOf(37.4)).toBe(37);
    expect(bucketOf(-12)).toBe(-12);
    for (const v of [128, 300, 1234, 98765]) expect(Math.abs(bucketOf(v) - v) / v).toBeLessThan(0.02);
  });

  it('takes percentiles by nearest rank', () => {
    const h = hist([5, 1, 3, 2, 4, 100, 6, 7, 8, 9]);
    expect(percentile(h, 0.5)).toBe(5);
    expect(percentile(h, 0.95)).toBe(100);
    expect(percentile([], 0.5)).toBe(0);
  });

  it('Mann-Whitney U matches the textbook value and finds no difference between two samples of one distribution', () => {
    // By hand: ranks of the second sample 4.5 (a tie at 4), 7, 8, 9, 10 sum to 38.5, so U = 38.5 - 15.
    const r = mannWhitney(hist([1, 2, 3, 4, 5]), hist([4, 6, 7, 8, 9]));
    expect(r.u).toBe(23.5);
    expect(r.superiority).toBeCloseTo(0.94, 10);
    const same = rng(7);
    const a = hist(Array.from({ length: 200 }, () => 20 + 30 * same()));
    const b = hist(Array.from({ length: 200 }, () => 20 + 30 * same()));
    expect(mannWhitney(a, b).p).toBeGreaterThan(0.01);
    const slow = hist(Array.from({ length: 200 }, () => 220 + 30 * same()));
    const test = mannWhitney(a, slow);
    expect(test.p).toBeLessThan(1e-6);
    expect(test.superiority).toBe(1);
  });

  it('flags a timing change only when it is both large and significant', () => {
    const r = rng(3);
    const fig = (values: number[]) => ({
      n: values.length,
      p50Ms: percentile(hist(values), 0.5),
      p95Ms: percentile(hist(values), 0.95),
      maxMs: Math.max(...values),
      samples: hist(values),
    });
    const base = fig(Array.from({ length: 40 }, () => 100 + 40 * r()));
    const slower = fig(Array.from({ length: 40 }, () => 300 + 40 * r()));
    expect(timingChange('convergence', 'transaction SUCCESS', base, slower)?.kind).toBe('regression');
    expect(timingChange('convergence', 'transaction SUCCESS', slower, base)?.kind).toBe('improvement');
    // 3x slower but only 6 ms apart: not large.
    expect(
      timingChange('operations', 'getConfig', fig([2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3]), fig([8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9])),
    ).toBeUndefined();
    // Large on p95 by one outlier, not significant.
    const even = [20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31];
    expect(timingChange('operations', 'getConfig', fig(even), fig([...even.slice(0, -1), 400]))).toBeUndefined();
    // A webhook's delay near zero: 60 ms behind polling has not grown 1.5x the floor (75 ms); 300 ms has.
    const zero = [-5, -4, -3, -2, -1, 0, 0, 1, 2, 3, 4, 5];
    expect(timingChange('webhookDelay', 'transaction SUCCESS', fig(zero), fig(zero.map((v) => v + 60)))).toBeUndefined();
    expect(timingChange('webhookDelay', 'transaction SUCCESS', fig(zero), fig(zero.map((v) => v + 300)))?.kind).toBe('regression');
    // Much slower, but too few samples to tell.
    expect(timingChange('convergence', 'transaction SUCCESS', fig([100, 110, 120]), fig([400, 410, 420]))).toBeUndefined();
  });
});

describe('timing of a run', () => {
  const observation = (o: Partial<ConvergenceObservation>): ConvergenceObservation => ({
    kind: 'transaction',
    id: 'tx1',
    polled: [],
    webhooks: [],
    webhooksObservable: true,
    deadlineMs: 5000,
    elapsedMs: 0,
    timedOut: false,
    ...o,
  });

  it('records answer times, convergence from the starting request, webhook delay and terminal steps', () => {
    const rec = new TimingRecorder();
    rec.exchange(exchange('generateTransaction', 40, { transaction_id: 'tx1' }));
    rec.exchange({ ...exchange('getConfig', 9), response: undefined });
    rec.convergence(
      observation({
        polled: [
          { status: 'INITIATED', channel: 'poll', atMs: 10 },
          { status: 'IN_PROGRESS', channel: 'poll', atMs: 120 },
          { status: 'SUCCESS', channel: 'poll', atMs: 400 },
        ],
        webhooks: [
          { status: 'IN_PROGRESS', channel: 'webhook', atMs: 100 },
          { status: 'SUCCESS', channel: 'webhook', atMs: 430 },
        ],
        finalByPoll: 'SUCCESS',
        finalByWebhook: 'SUCCESS',
      }),
      1_000_050,
      1_000_000,
    );
    const d = rec.digest();
    expect(d.operations).toEqual({ generateTransaction: [[40, 1]] });
    expect(d.convergence).toEqual({ 'transaction SUCCESS': [[bucketOf(450), 1]] });
    expect(d.webhookDelay).toEqual({ 'transaction IN_PROGRESS': [[-20, 1]], 'transaction SUCCESS': [[30, 1]] });
    expect(d.steps).toEqual({ 'transaction INITIATED>IN_PROGRESS': [[90, 1]], 'transaction IN_PROGRESS>SUCCESS': [[bucketOf(300), 1]] });
    expect(d.max?.['convergence transaction SUCCESS']).toBe(450);
  });

  it('gives merged shards the same figures as one run', () => {
    const r = rng(11);
    const tests = Array.from({ length: 30 }, (_, i) => {
      const rec = new TimingRecorder();
      for (let k = 0; k < 20; k++) rec.exchange(exchange(k % 2 ? 'getConfig' : 'getTransactionStatus', 5 + 300 * r() ** 3));
      return testRecord({ scenario: `t${i}`, timing: rec.digest() });
    });
    const whole = timingSummaryOf(tests)!;
    const halves = [tests.slice(0, 13), tests.slice(13)].map((part) => part.map((t) => t.timing!).reduce(mergeTimingDigests));
    const merged = timingSummaryOf([testRecord({ scenario: 'a', timing: halves[0]! }), testRecord({ scenario: 'b', timing: halves[1]! })])!;
    expect(merged).toEqual(whole);
    expect(whole.operations.getConfig!.n).toBe(300);
    const s = buildSummary(runRecord(tests), { name: 'x', version: '1' }, { kind: 'sim', baseUrl: 'http://127.0.0.1:1' });
    expect(s.timing?.operations.getTransactionStatus?.p95Ms).toBe(whole.operations.getTransactionStatus!.p95Ms);
  });
});
