/**
 * Helpers of the webhook suite: what a receiver got for one transaction or operation, waiting for
 * deliveries without busy loops, and the retry window the profile's schedule allows.
 */
import type { ConvergenceObservation, Delivery, Pairing, WebhookReceiver } from '../../src/index.ts';
import type { ScenarioContext } from '../../src/suite.ts';

type Sighting = ConvergenceObservation['webhooks'][number];

/**
 * The factor the embedded simulator applies to the retry schedule (its `webhookRetryScale` default;
 * sandbox.md allows a sandbox to shrink the schedule by a constant factor). A URL target is assumed
 * to follow the profile's schedule unscaled: the slowest legal case.
 */
export const SIM_RETRY_SCALE = 0.01;

/** `data.status` of a delivery, when it has one. */
export function statusOf(d: Delivery): string | undefined {
  const s = (d.body as { data?: { status?: unknown } } | undefined)?.data?.status;
  return typeof s === 'string' ? s : undefined;
}

/** The key the receiver deduplicates by: event_id, else the raw body. */
export function keyOf(d: Delivery): string {
  return d.eventId ?? `raw:${d.rawBody}`;
}

/** Whether the receiver accepted the delivery (2xx, signature not rejected). */
export function accepted(d: Delivery): boolean {
  return d.status >= 200 && d.status <= 299 && (d.signature === 'valid' || d.signature === 'unchecked');
}

/** Valid webhook sightings about `id` of `kind`, as convergence records them. */
export function postedFor(rx: WebhookReceiver, kind: 'transaction' | 'operation', id: string, sinceMs: number): Sighting[] {
  return rx
    .eventsFor(id)
    .filter((d) => String(d.event ?? '').startsWith(`${kind}.`) && statusOf(d) !== undefined)
    .map((d) => ({ status: statusOf(d)!, channel: 'webhook' as const, atMs: d.receivedAt - sinceMs }));
}

/** Resolves true as soon as `cond()` holds (re-checked on each delivery and every 50 ms), false after `timeoutMs`. */
export function waitUntil(rx: WebhookReceiver, cond: () => boolean, timeoutMs: number): Promise<boolean> {
  if (cond()) return Promise.resolve(true);
  return new Promise((resolve) => {
    let done = false;
    const finish = (v: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      clearInterval(tick);
      unsubscribe();
      resolve(v);
    };
    const test = () => {
      try {
        if (cond()) finish(true);
      } catch {
        finish(false);
      }
    };
    const unsubscribe = rx.onDelivery(test);
    const tick = setInterval(test, 50);
    const timer = setTimeout(() => finish(cond()), Math.max(0, timeoutMs));
  });
}

/** Status rank for counting reordered arrivals (a report parameter only). */
const RANK: Record<string, number> = { INITIATED: 0, IN_PROGRESS: 1 };
const rank = (s: string) => RANK[s] ?? 2;

/**
 * Runs `webhook.every-status-posted` on a convergence, first giving late deliveries (out of order,
 * or retried) a grace period to cover every status polling saw. Records delivery counts as parameters.
 */
export async function judgePosted(t: ScenarioContext, p: Pairing, obs: ConvergenceObservation, label = obs.kind): Promise<void> {
  const rx = p.receiver;
  if (!rx || !p.webhooksObservable) {
    t.scope.check('webhook.every-status-posted', obs);
    return;
  }
  const since = Date.now() - obs.elapsedMs;
  const needed = new Set(obs.polled.map((s) => s.status).filter((s) => s !== 'INITIATED'));
  const covered = () => {
    const got = new Set(postedFor(rx, obs.kind, obs.id, since).map((w) => w.status));
    return [...needed].every((s) => got.has(s));
  };
  await waitUntil(rx, covered, Math.max(500, t.harness.ctx.settleMs * 4));
  const webhooks = postedFor(rx, obs.kind, obs.id, since);
  t.scope.check('webhook.every-status-posted', { ...obs, webhooks });
  const all = rx.deliveries().filter((d) => {
    const data = (d.body as { data?: Record<string, unknown> } | undefined)?.data;
    return data?.transaction_id === obs.id || data?.operation_id === obs.id;
  });
  let reordered = 0;
  for (let i = 1; i < webhooks.length; i++) if (rank(webhooks[i]!.status) < rank(webhooks[i - 1]!.status)) reordered++;
  t.param(`${label} deliveries`, all.length);
  t.param(`${label} valid`, webhooks.length);
  t.param(`${label} duplicates`, all.filter((d) => d.duplicate).length);
  t.param(`${label} reordered`, reordered);
  t.harness.judgeDeliveries(t.scope, p);
}

/** The retry schedule in ms for this target, and the window the first `n` retries need. */
export function retryWindow(t: ScenarioContext, n: number): { scale: number; scheduleMs: number[]; windowMs: number } {
  const scale = t.harness.ctx.targetKind === 'sim' ? SIM_RETRY_SCALE : 1;
  const scheduleMs = t.harness.profile.webhook.retrySchedule.map((s) => Math.round(s * 1000 * scale));
  const windowMs = scheduleMs.slice(0, n).reduce((a, b) => a + b, 0);
  return { scale, scheduleMs, windowMs };
}
