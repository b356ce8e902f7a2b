/**
 * How long the service took, as a test records it and a run sums it up: answer times per operation,
 * convergence per final status, webhook delay per event, terminal steps. Kept as histograms so the
 * figures of merged shards are those of one run (counts add; percentiles are never averaged) and the
 * storage is bounded whatever the number of exchanges (a property run makes thousands).
 */
import type { Exchange } from './exchange.ts';
import type { ConvergenceObservation, StatusSighting } from './observation.ts';

/**
 * Sample values by bucket: `[value, count]` pairs sorted by value. Whole milliseconds up to
 * {@link EXACT_BELOW_MS} are exact; above, 64 buckets per power of two (under 1.6 % off), so a
 * histogram holds a few hundred pairs at most. Negative values (a webhook ahead of polling) mirror it.
 */
export type Histogram = [number, number][];

/** Values below this (in absolute terms) are kept to the millisecond. */
export const EXACT_BELOW_MS = 128;
const SUB_BUCKETS = 64;

/** The bucket value a sample is counted under (see {@link Histogram}). */
export function bucketOf(ms: number): number {
  const sign = ms < 0 ? -1 : 1;
  const v = Math.round(Math.abs(ms));
  if (v < EXACT_BELOW_MS) return sign * v;
  const exp = Math.floor(Math.log2(v));
  const width = 2 ** exp / SUB_BUCKETS;
  return sign * Math.floor(v / width) * width;
}

/** One histogram with `ms` counted. */
export function addSample(h: Histogram, ms: number, count = 1): void {
  const b = bucketOf(ms);
  let lo = 0;
  let hi = h.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (h[mid]![0] < b) lo = mid + 1;
    else hi = mid;
  }
  if (h[lo]?.[0] === b) h[lo]![1] += count;
  else h.splice(lo, 0, [b, count]);
}

/** Two histograms as one. */
export function mergeHistograms(a: Histogram, b: Histogram): Histogram {
  const out: Histogram = a.map(([v, c]) => [v, c]);
  for (const [v, c] of b) addSample(out, v, c);
  return out;
}

/** Timings by key: operation id, final status, event, step. */
export type TimingSeries = Record<string, Histogram>;

/** What one test measured (see the file's comment); every key sorted, so a digest is the same whoever ran it. */
export interface TimingDigest {
  /** Answer time by operation id (an exchange without an answer is not counted). */
  operations: TimingSeries;
  /** From the request that started a transaction or operation to its final status first seen: `transaction SUCCESS`. */
  convergence: TimingSeries;
  /** A webhook's arrival minus the first sight of the same status by polling (negative: the webhook came first): `transaction SUCCESS`. */
  webhookDelay: TimingSeries;
  /** From the request that started a transaction or operation to a webhook's arrival: `transaction SUCCESS` (a webhook that now comes late). */
  webhookArrival: TimingSeries;
  /** Between the first sights of two statuses in a row, either channel: `transaction INITIATED>IN_PROGRESS`. */
  steps: TimingSeries;
  /** The largest value of each key of each series (exact, not bucketed): `operations getConfig`. */
  max?: Record<string, number>;
}

export const TIMING_SERIES = ['operations', 'convergence', 'webhookDelay', 'webhookArrival', 'steps'] as const;
export type TimingSeriesName = (typeof TIMING_SERIES)[number];

export const emptyTimingDigest = (): TimingDigest => ({ operations: {}, convergence: {}, webhookDelay: {}, webhookArrival: {}, steps: {} });

/** Two digests as one. */
export function mergeTimingDigests(a: TimingDigest, b: TimingDigest): TimingDigest {
  const out = emptyTimingDigest();
  for (const s of TIMING_SERIES) {
    for (const k of [...new Set([...Object.keys(a[s]), ...Object.keys(b[s])])].sort())
      out[s][k] = mergeHistograms(a[s][k] ?? [], b[s][k] ?? []);
  }
  const max: Record<string, number> = { ...(a.max ?? {}) };
  for (const [k, v] of Object.entries(b.max ?? {})) max[k] = Math.max(max[k] ?? -Infinity, v);
  if (Object.keys(max).length > 0) out.max = max;
  return out;
}

/** The first sight of each status, over both channels, in order of time. */
function firstSights(o: ConvergenceObservation): StatusSighting[] {
  const first = new Map<string, StatusSighting>();
  for (const s of [...o.polled, ...o.webhooks]) {
    const had = first.get(s.status);
    if (!had || s.atMs < had.atMs) first.set(s.status, s);
  }
  return [...first.values()].sort((x, y) => x.atMs - y.atMs);
}

/** Records a test's timings as they come: the scope hands it every exchange and convergence. */
export class TimingRecorder {
  readonly #d = emptyTimingDigest();

  #add(series: TimingSeriesName, key: string, ms: number): void {
    if (!Number.isFinite(ms)) return;
    addSample((this.#d[series][key] ??= []), ms);
    const mk = `${series} ${key}`;
    const max = (this.#d.max ??= {});
    max[mk] = Math.max(max[mk] ?? -Infinity, Math.round(ms));
  }

  /** An exchange: its answer time under its operation (none without an operation or an answer). */
  exchange(ex: Exchange): void {
    if (ex.operationId && ex.response) this.#add('operations', ex.operationId, ex.durationMs);
  }

  /**
   * A convergence observed from `startedAt` (epoch ms, the observation's zero); `started` is when the
   * request that started it was sent (epoch ms), when known: convergence counts from it.
   */
  convergence(o: ConvergenceObservation, startedAt: number, started: number | undefined): void {
    const sights = firstSights(o);
    const final = o.finalByPoll ?? o.finalByWebhook;
    const finalSight = final === undefined ? undefined : sights.find((s) => s.status === final);
    if (finalSight && started !== undefined && !o.timedOut)
      this.#add('convergence', `${o.kind} ${final}`, startedAt - started + finalSight.atMs);
    // The terminal's steps, INITIATED -> IN_PROGRESS -> final, where both ends were seen in that order.
    const at = (status: string | undefined) => sights.find((s) => s.status === status)?.atMs;
    const step = (from: string, to: string | undefined) => {
      const [a, b] = [at(from), at(to)];
      if (a !== undefined && b !== undefined && b >= a) this.#add('steps', `${o.kind} ${from}>${to}`, b - a);
    };
    step('INITIATED', 'IN_PROGRESS');
    if (final !== 'IN_PROGRESS') step('IN_PROGRESS', final);
    for (const w of o.webhooks) {
      if (o.webhooks.find((x) => x.status === w.status) !== w) continue;
      const poll = o.polled.find((p) => p.status === w.status);
      if (poll) this.#add('webhookDelay', `${o.kind} ${w.status}`, w.atMs - poll.atMs);
      if (started !== undefined) this.#add('webhookArrival', `${o.kind} ${w.status}`, startedAt - started + w.atMs);
    }
  }

  digest(): TimingDigest {
    const out = emptyTimingDigest();
    for (const s of TIMING_SERIES) for (const k of Object.keys(this.#d[s]).sort()) out[s][k] = this.#d[s][k]!.map(([v, c]) => [v, c]);
    if (this.#d.max) out.max = Object.fromEntries(Object.entries(this.#d.max).sort(([a], [b]) => a.localeCompare(b)));
    return out;
  }
}

/** The timing recorder of each test, by host: a clean-up scope of the same test adds to the same one. */
const recorders = new WeakMap<object, Map<string, TimingRecorder>>();

export function timingRecorderFor(host: object, testName: string): TimingRecorder {
  let byTest = recorders.get(host);
  if (!byTest) recorders.set(host, (byTest = new Map()));
  let r = byTest.get(testName);
  if (!r) byTest.set(testName, (r = new TimingRecorder()));
  return r;
}
