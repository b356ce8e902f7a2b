/**
 * summary.json's `timing`: the tests' timing digests summed up (see core/timing.ts), each key with its
 * count, median, 95th percentile and largest value, and its histogram, so merged shards, a re-judged
 * transcript and `compare` all work from the same samples. Also the statistics `compare` needs.
 */
import {
  type Histogram,
  TIMING_SERIES,
  addSample,
  type TimingDigest,
  type TimingSeriesName,
  emptyTimingDigest,
  mergeTimingDigests,
} from '../core/index.ts';
import type { TestRecord } from './records.ts';

/** One key's figures. */
export interface TimingFigure {
  n: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** The samples, bucketed (see core/timing.ts Histogram): what merges and comparisons use. */
  samples: Histogram;
}

/** summary.json's `timing`: per series (operations, convergence, webhookDelay, webhookArrival, steps), per key. */
export type TimingSummary = Record<TimingSeriesName, Record<string, TimingFigure>>;

/** The nearest-rank percentile `p` (0..1) of a histogram; 0 when empty. */
export function percentile(h: Histogram, p: number): number {
  const n = h.reduce((s, [, c]) => s + c, 0);
  if (n === 0) return 0;
  const rank = Math.max(1, Math.ceil(p * n));
  let seen = 0;
  for (const [v, c] of h) {
    seen += c;
    if (seen >= rank) return v;
  }
  return h.at(-1)![0];
}

/** The figures of one histogram. */
export function figureOf(h: Histogram, max?: number): TimingFigure {
  return {
    n: h.reduce((s, [, c]) => s + c, 0),
    p50Ms: percentile(h, 0.5),
    p95Ms: percentile(h, 0.95),
    maxMs: max ?? h.at(-1)?.[0] ?? 0,
    samples: h,
  };
}

/** The digest a summary's timing holds (to merge or compare summaries without their tests). */
export function digestOfSummary(t: TimingSummary): TimingDigest {
  const d = emptyTimingDigest();
  const max: Record<string, number> = {};
  for (const s of TIMING_SERIES) {
    for (const [k, f] of Object.entries(t[s] ?? {})) {
      d[s][k] = f.samples.map(([v, c]) => [v, c]);
      max[`${s} ${k}`] = f.maxMs;
    }
  }
  d.max = max;
  return d;
}

/** The figures of a digest. */
export function timingSummaryOfDigest(d: TimingDigest): TimingSummary {
  const out = { operations: {}, convergence: {}, webhookDelay: {}, webhookArrival: {}, steps: {} } as TimingSummary;
  for (const s of TIMING_SERIES) for (const k of Object.keys(d[s]).sort()) out[s][k] = figureOf(d[s][k]!, d.max?.[`${s} ${k}`]);
  return out;
}

/** The timing of a run's tests; undefined when no test recorded any (a run of an older toolkit). */
export function timingSummaryOf(tests: readonly TestRecord[]): TimingSummary | undefined {
  const digests = tests.filter((t) => t.timing).map((t) => t.timing!);
  if (digests.length === 0) return undefined;
  return timingSummaryOfDigest(digests.reduce(mergeTimingDigests, emptyTimingDigest()));
}

/**
 * The Mann-Whitney U test of two samples given as histograms (equal values are ties, given the mean
 * rank, with the tie correction of the variance), by the normal approximation with continuity
 * correction. Returns the two-sided p-value and the probability of superiority P(b > a) + P(b = a)/2
 * (0.5: neither is slower). A rank test, not a t-test: answer times are skewed with long tails, and a
 * rank test needs no assumption on their shape, works on the bucketed samples as they are stored (a
 * bucket is a tie) and is deterministic (a bootstrap would need a seed and thousands of resamples).
 */
export function mannWhitney(a: Histogram, b: Histogram): { p: number; superiority: number; u: number } {
  const n1 = a.reduce((s, [, c]) => s + c, 0);
  const n2 = b.reduce((s, [, c]) => s + c, 0);
  if (n1 === 0 || n2 === 0) return { p: 1, superiority: 0.5, u: 0 };
  const values = [...new Set([...a.map(([v]) => v), ...b.map(([v]) => v)])].sort((x, y) => x - y);
  const ca = new Map(a);
  const cb = new Map(b);
  let below = 0;
  let rankSumB = 0;
  let ties = 0;
  for (const v of values) {
    const x = ca.get(v) ?? 0;
    const y = cb.get(v) ?? 0;
    const t = x + y;
    const meanRank = below + (t + 1) / 2;
    rankSumB += y * meanRank;
    ties += t ** 3 - t;
    below += t;
  }
  const u = rankSumB - (n2 * (n2 + 1)) / 2;
  const n = n1 + n2;
  const mean = (n1 * n2) / 2;
  const variance = ((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1) || 1));
  const superiority = u / (n1 * n2);
  if (variance <= 0) return { p: 1, superiority, u };
  const z = (Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
  return { p: Math.min(1, 2 * (1 - normalCdf(Math.max(0, z)))), superiority, u };
}

/** The standard normal distribution function (Abramowitz and Stegun 26.2.17, error under 7.5e-8). */
export function normalCdf(z: number): number {
  const t = 1 / (1 + 0.2316419 * Math.abs(z));
  const d = 0.3989422804014327 * Math.exp((-z * z) / 2);
  const tail = d * t * (0.31938153 + t * (-0.356563782 + t * (1.781477937 + t * (-1.821255978 + t * 1.330274429))));
  return z >= 0 ? 1 - tail : tail;
}

/** What makes a difference of timing worth reporting: see {@link timingChange}. */
export const TIMING_THRESHOLDS = { ratio: 1.5, minMs: 50, minTailMs: 100, alpha: 0.01, superiority: 0.8, minSamples: 10 } as const;

/** One key's change between two runs. */
export interface TimingChange {
  series: TimingSeriesName;
  key: string;
  base: { n: number; p50Ms: number; p95Ms: number };
  candidate: { n: number; p50Ms: number; p95Ms: number };
  /** The two-sided p-value of the Mann-Whitney U test. */
  p: number;
  /** The probability that a candidate's sample is the larger (Vargha-Delaney A): 0.5 no change, 1 every one slower. */
  a: number;
  /** Which percentile moved enough: `p50`, `p95` or both. */
  on: ('p50' | 'p95')[];
}

/**
 * Whether a key got slower (`regression`) or quicker (`improvement`), or neither. Both must hold: the
 * difference is large (p50 or p95 at least 1.5x the other run's, and at least 50 ms apart (100 ms for
 * p95), so a 2 ms answer becoming 4 ms is not news) and significant on the samples (Mann-Whitney
 * p < 0.01 with at least 10 samples each (a small run's few pairings, made while its workers start,
 * are no evidence), so one slow outlier on a busy runner is not a regression). The samples of one
 * run share its load (a busy runner slows all of them a little), so they are not independent and the
 * p-value alone overstates the evidence: measured here, two clean runs with one of them busy differ
 * with p < 0.001 on some operation, with an A up to 0.87 before the pace is taken out and up to 0.75
 * after (a webhook's delay behind polling on a busy machine). So the effect must be large too: A at
 * least 0.8 (or at most 0.2), where a real slow-down (a terminal step 200 ms slower) gives 0.95 to 1.
 */
export function timingChange(
  series: TimingSeriesName,
  key: string,
  base: TimingFigure,
  cand: TimingFigure,
): { kind: 'regression' | 'improvement'; change: TimingChange } | undefined {
  const th = TIMING_THRESHOLDS;
  if (base.n < th.minSamples || cand.n < th.minSamples) return undefined;
  // The tail (p95) moves with a burst of load on a shared runner: measured on clean pairs here, up to
  // 90 ms at 1.5x and more; so it must move 100 ms, the median 50 ms.
  const floor = { p50: th.minMs, p95: th.minTailMs };
  // A value near or below zero (a webhook's delay behind polling) is taken at the floor for the ratio:
  // a webhook 0 ms behind polling that is 132 ms behind on a busy machine has not grown 1.5x its floor.
  const grew = (q: 'p50' | 'p95', x: number, y: number) => y - x >= floor[q] && y >= th.ratio * Math.max(x, floor[q]);
  const slower = (['p50', 'p95'] as const).filter((q) => grew(q, base[`${q}Ms`], cand[`${q}Ms`]));
  const quicker = (['p50', 'p95'] as const).filter((q) => grew(q, cand[`${q}Ms`], base[`${q}Ms`]));
  if (slower.length === 0 && quicker.length === 0) return undefined;
  const test = mannWhitney(base.samples, cand.samples);
  if (test.p >= th.alpha) return undefined;
  const kind =
    test.superiority >= th.superiority && slower.length > 0
      ? 'regression'
      : test.superiority <= 1 - th.superiority && quicker.length > 0
        ? 'improvement'
        : undefined;
  if (!kind) return undefined;
  const pick = (f: TimingFigure) => ({ n: f.n, p50Ms: f.p50Ms, p95Ms: f.p95Ms });
  return {
    kind,
    change: {
      series,
      key,
      base: pick(base),
      candidate: pick(cand),
      p: Number(test.p.toPrecision(3)),
      a: Number(test.superiority.toFixed(3)),
      on: kind === 'regression' ? slower : quicker,
    },
  };
}

/**
 * How much slower the candidate's answers were across the board: the median, over the operations
 * answered at least 5 times in both runs, of the ratio of their medians (1 when fewer than 3 such
 * operations). A busy runner, or an embedded simulator sharing the machine with another run, slows
 * every answer alike; a change of the service slows some. Changes are judged beyond this pace, so a
 * uniform slow-down is reported as the pace, never as a regression of each operation.
 */
export function paceRatio(base: TimingSummary, cand: TimingSummary): number {
  const ratios: number[] = [];
  for (const [k, fb] of Object.entries(cand.operations ?? {})) {
    const fa = base.operations?.[k];
    if (fa && fa.n >= 5 && fb.n >= 5 && fa.p50Ms >= 1 && fb.p50Ms >= 1) ratios.push(fb.p50Ms / fa.p50Ms);
  }
  if (ratios.length < 3) return 1;
  ratios.sort((x, y) => x - y);
  const mid = ratios.length >> 1;
  return ratios.length % 2 ? ratios[mid]! : Math.sqrt(ratios[mid - 1]! * ratios[mid]!);
}

/** A figure with every sample multiplied by `factor` (the base at the candidate's pace). */
export function scaledFigure(f: TimingFigure, factor: number): TimingFigure {
  if (factor === 1) return f;
  const h: Histogram = [];
  for (const [v, c] of f.samples) addSample(h, v * factor, c);
  return figureOf(h, Math.round(f.maxMs * factor));
}
