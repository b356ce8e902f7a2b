/**
 * Observes one transaction or operation until it is final or the deadline passes, by polling (with
 * back-off, honouring Retry-After) and by webhook at once. After the first final status it keeps
 * watching for a short settle window, so a status that changes after it was final, or a webhook that
 * disagrees, is seen rather than missed. It judges nothing: the checks do.
 *
 * Waiting is done once. The client waits out a 429/503 with Retry-After inside a poll and sends it
 * again (the poll is told how long it may take: what is left of the deadline), so the back-off runs
 * from the start of a poll, not from its end: time spent waiting inside a poll is not waited again
 * (though a poll never follows an answer sooner than {@link MIN_POLL_GAP_MS}, or the first interval when shorter).
 * A Retry-After on the answer a poll returns is one the client did not wait for (it gave up): that
 * one replaces the back-off. No wait goes past the deadline, and the time polls take counts against it.
 */
import type { ConvergenceObservation, StatusSighting as StatusSightingLike } from '../core/index.ts';

/**
 * The least time between a poll's answer and the next poll (the first interval when shorter): a slow
 * answer is no reason to poll back to back. Not the first interval itself: where it is long (polls
 * spaced because webhooks wake them), a slow service's next poll, and the settle window's, would
 * come that much later after each answer (against answers 300 ms late, 180 ms more per convergence).
 */
export const MIN_POLL_GAP_MS = 20;

/** One poll's answer. */
export interface PollResult {
  /** The status read, or undefined when the answer had none (a 5xx, a malformed body...). */
  status?: string;
  /** Milliseconds the service asked to wait (Retry-After), if any. */
  retryAfterMs?: number;
}

export interface ObserveOptions {
  kind: 'transaction' | 'operation';
  id: string;
  /**
   * Reads the status once (GET: safe to repeat). `remainingMs` is what is left of the deadline: the
   * most the read may spend waiting for Retry-After (the client's `maxWaitMs`).
   */
  poll: (budget: { remainingMs: number }) => Promise<PollResult>;
  /** The valid webhook sightings for this id so far, in arrival order. */
  webhooks?: () => StatusSightingLike[];
  /** Subscribes to new deliveries, to wake up early; returns an unsubscribe. */
  subscribe?: (wake: () => void) => () => void;
  webhooksObservable: boolean;
  /** Statuses that end the observation. */
  final: readonly string[];
  deadlineMs: number;
  /** How long to keep watching after the first final status. @default 250 */
  settleMs?: number;
  /**
   * Present: the settle window scales to the service's own pace: `steps` of its quickest step seen in
   * this observation (the gap between two statuses in a row, by webhook or by polling), at least
   * `minMs`, never more than `settleMs`. A service whose terminal steps take 100 ms is watched 200 ms
   * after it is final (URL_SETTLE_SCALE), not a second; one whose steps were not seen (final at the
   * first poll, or reached at the deadline) by the step seen elsewhere ({@link stepElsewhere}), else
   * the whole `settleMs`. Absent: always `settleMs`.
   */
  settleScale?: { steps: number; minMs: number };
  /**
   * Statuses a service reaches at its deadline, not after a step (sandbox.md: "A transaction left
   * waiting reaches `EXPIRED` at the sandbox's deadline"): the wait into one says nothing of the
   * service's pace, so it is no step for {@link settleScale}. @default none
   */
  reachedAtDeadline?: readonly string[];
  /**
   * The service's step as other observations saw it (the worker's: runtime/service-steps.ts), for the
   * settle window of one that saw no step of its own: final at the first poll, or reached only at its
   * deadline. Undefined (none seen yet): the whole `settleMs`. @default none
   */
  stepElsewhere?: () => number | undefined;
  /**
   * How long after the first final status by polling a webhook of it is still waited for. A service
   * posts a status change as it happens (a delivery that got no 2xx is retried seconds later): a wait
   * up to the convergence deadline, minutes against a URL, only costs a broken service's run time.
   * @default the deadline
   */
  webhookGraceMs?: number;
  /**
   * Asked while waiting for a final status's webhook: true ends that wait now (the run has found such
   * waits futile meanwhile, e.g. two missed in other workers). @default never
   */
  webhookWaitFutile?: () => boolean;
  /** First poll interval, grown by `factor` up to `maxIntervalMs`. @default 20 */
  initialIntervalMs?: number;
  /** @default 1.5 */
  factor?: number;
  /** @default 1000 */
  maxIntervalMs?: number;
  /** Called after each poll with the status seen (for live progress). */
  onStatus?: (status: string) => void;
  /**
   * Called once, with what was seen so far, when the first final status is in and its webhook is seen
   * (or not awaited) but the settle window still runs: a caller that need not wait for the window can
   * go on while the watch runs to its end (the promise `observe` returns). Not called when the
   * observation ends without a final status, or ends the moment it is final.
   */
  onFinal?: (soFar: Observation) => void;
  /** Stops early (e.g. a manual operator aborted). */
  signal?: AbortSignal;
}

/** What was seen (the shape the checks judge). */
export type Observation = ConvergenceObservation;

function sleep(ms: number, wake: { fn?: () => void }, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      wake.fn = undefined;
      resolve();
    };
    const t = setTimeout(done, ms);
    wake.fn = done;
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * The quickest step between two statuses in a row among sightings of one channel, ms; undefined below
 * two. A change into one of `atDeadline` is no step (see {@link ObserveOptions.reachedAtDeadline}).
 */
export function quickestStep(sightings: readonly StatusSightingLike[], atDeadline: readonly string[] = []): number | undefined {
  let best: number | undefined;
  for (let i = 1; i < sightings.length; i++) {
    const a = sightings[i - 1]!;
    const b = sightings[i]!;
    if (a.status === b.status || atDeadline.includes(b.status)) continue;
    const gap = b.atMs - a.atMs;
    if (gap > 0 && (best === undefined || gap < best)) best = gap;
  }
  return best;
}

/**
 * The settle window against a URL (unless --settle fixes it): two of the service's quickest steps
 * seen, at least 200 ms. A status that changes one step after it was final is polled a step after it
 * changed, and its webhook (a service posts each change) wakes a poll at once; four steps, as before,
 * watched every final status two steps longer for nothing: against sim --step-delay 100 that was
 * 200 ms of each convergence, a fifth of a URL run's lane time.
 */
export const URL_SETTLE_SCALE: Readonly<NonNullable<ObserveOptions['settleScale']>> = Object.freeze({ steps: 2, minMs: 200 });

/**
 * The quickest step of the service that one observation saw, by polling or by webhook, ms; undefined
 * when it saw none (a change into one of `atDeadline` is none).
 */
export function serviceStep(
  polled: readonly StatusSightingLike[],
  webhooks: readonly StatusSightingLike[],
  atDeadline: readonly string[] = [],
): number | undefined {
  const steps = [quickestStep(polled, atDeadline), quickestStep(webhooks, atDeadline)].filter((x): x is number => x !== undefined);
  return steps.length === 0 ? undefined : Math.min(...steps);
}

/**
 * The settle window of an observation so far: see {@link ObserveOptions.settleScale}. The step is the
 * observation's own, else the one seen elsewhere (`pace`: {@link ObserveOptions.stepElsewhere}).
 */
export function settleWindow(
  settleMs: number,
  scale: ObserveOptions['settleScale'],
  polled: readonly StatusSightingLike[],
  webhooks: readonly StatusSightingLike[],
  pace: Pick<ObserveOptions, 'reachedAtDeadline' | 'stepElsewhere'> = {},
): number {
  if (!scale) return settleMs;
  const step = serviceStep(polled, webhooks, pace.reachedAtDeadline) ?? pace.stepElsewhere?.();
  if (step === undefined) return settleMs;
  return Math.min(settleMs, Math.max(scale.minMs, scale.steps * step));
}

/** Watches `id` until final (plus the settle window) or the deadline; returns what was seen. */
export async function observe(o: ObserveOptions): Promise<Observation> {
  const start = Date.now();
  const settleMs = o.settleMs ?? 250;
  const maxInterval = o.maxIntervalMs ?? 1000;
  const factor = o.factor ?? 1.5;
  const firstInterval = o.initialIntervalMs ?? 20;
  let interval = firstInterval;
  const polled: StatusSightingLike[] = [];
  let finalAt: number | undefined;
  // When the polled final status last changed after it was final (a service that breaks the rules).
  let changedAt: number | undefined;
  const wake: { fn?: () => void } = {};
  // A delivery that comes while a poll is under way (a slow service's answer) is news that poll may
  // not have seen: before the status is final, the next poll goes at once, not after the back-off.
  let deliveredDuringPoll = false;
  const unsubscribe = o.subscribe?.(() => {
    if (wake.fn) wake.fn();
    else deliveredDuringPoll = true;
  });
  const webhookFinal = () => {
    const finals = (o.webhooks?.() ?? []).filter((w) => o.final.includes(w.status));
    return finals.at(-1)?.status;
  };
  const seen = (): Observation => {
    const lastPolled = polled.at(-1)?.status;
    return {
      kind: o.kind,
      id: o.id,
      polled: [...polled],
      webhooks: o.webhooks?.() ?? [],
      finalByPoll: lastPolled !== undefined && o.final.includes(lastPolled) ? lastPolled : undefined,
      finalByWebhook: webhookFinal(),
      webhooksObservable: o.webhooksObservable,
      deadlineMs: o.deadlineMs,
      elapsedMs: Date.now() - start,
      timedOut: finalAt === undefined,
    };
  };
  let onFinal = o.onFinal;
  try {
    for (;;) {
      const now = Date.now();
      if (o.signal?.aborted) break;
      if (now - start >= o.deadlineMs) break;
      deliveredDuringPoll = false;
      const r = await o.poll({ remainingMs: o.deadlineMs - (now - start) });
      const at = Date.now() - start;
      const tookMs = Date.now() - now;
      if (r.status !== undefined) {
        o.onStatus?.(r.status);
        if (polled.at(-1)?.status !== r.status) {
          if (finalAt !== undefined && o.final.includes(r.status)) changedAt = at;
          polled.push({ status: r.status, channel: 'poll', atMs: at });
        }
        if (finalAt === undefined && o.final.includes(r.status)) finalAt = at;
      }
      const hooks = o.webhooks?.() ?? []; // as of this answer, read once: each read filters the receiver's deliveries
      const window = settleWindow(settleMs, o.settleScale, polled, hooks, o);
      if (finalAt !== undefined) {
        const settled = at - finalAt >= window;
        // The webhook awaited is that of the status polling read last, not any final one: another may be of a
        // status polling never saw (SUCCESS became FAILED between two polls; FAILED's webhook is on its way).
        // The grace tells that from a webhook that disagrees (none of polling's status comes), which the
        // checks judge. After a change, it runs from the change (a service posts a change after making it).
        const latest = polled.at(-1)!.status;
        const awaited = hooks.some((w) => w.status === latest);
        const webhookSeen =
          !o.webhooksObservable ||
          awaited ||
          at - (changedAt ?? finalAt) >= (o.webhookGraceMs ?? Infinity) ||
          (o.webhookWaitFutile?.() ?? false);
        if (settled && webhookSeen) break;
        if (webhookSeen && onFinal) {
          onFinal(seen());
          onFinal = undefined;
        }
      }
      // Once final, the settle window is left: the next poll is at its end, where a status that changed
      // after it was final shows (a webhook of such a change wakes a poll at once). Polling through the
      // window saw nothing more and cost two or three requests per convergence, half a run's polls.
      // Past the window (a final webhook still awaited), a few polls per window length, not the back-off pace.
      if (finalAt !== undefined) {
        const left = window - (at - finalAt);
        interval = left > 0 ? Math.max(10, left + 1) : Math.min(interval, Math.max(10, window / 3));
      }
      // Counted from the poll's start (a Retry-After waited inside it is not waited again), never less than
      // MIN_POLL_GAP_MS after the answer. Not yet final, news that came during the poll (a status the poll
      // did not answer: the webhook of the status it saw is none) goes first, unless the service asked to wait.
      const news = deliveredDuringPoll && finalAt === undefined && hooks.at(-1)?.status !== r.status;
      const backoff = news ? 0 : Math.max(interval - tookMs, Math.min(interval, firstInterval, MIN_POLL_GAP_MS));
      const wait = Math.min(r.retryAfterMs ?? backoff, Math.max(0, o.deadlineMs - (Date.now() - start)));
      interval = Math.min(maxInterval, interval * factor);
      await sleep(wait, wake, o.signal);
    }
  } finally {
    unsubscribe?.();
    wake.fn?.();
  }
  return seen();
}
