/**
 * Registered checks of the webhook and property suites (see probes.ts for the pattern). Every
 * exported value with an `id` and a `run` is registered.
 */
import { canonicalJson } from '../core/index.ts';
import { defineCheck, fail, pass, skip } from './check.ts';
import type { ConvergenceObservation } from './observations.ts';

/** The status a transaction or operation is created in: its posting is optional (sandbox#webhooks). */
const CREATION_STATUS = 'INITIATED';

/**
 * Every status change that polling saw was also posted (sandbox: "Every status change of a
 * transaction or an operation is posted"). Order and duplicates do not matter (delivery is at least
 * once and may be out of order); the creation itself (`INITIATED`) is optional.
 */
export const everyStatusPosted = defineCheck<ConvergenceObservation, 'webhook.every-status-posted'>({
  id: 'webhook.every-status-posted',
  clause: 'sandbox#webhooks',
  source: 'sandbox',
  title: 'Every status change seen by polling is also delivered by a valid webhook',
  run(o) {
    if (!o.webhooksObservable) return skip('webhooks are not observable for this pairing');
    if (o.polled.length === 0) return skip('polling saw no status');
    const posted = new Set(o.webhooks.map((w) => w.status));
    const changes = [...new Set(o.polled.map((s) => s.status).filter((s) => s !== CREATION_STATUS))];
    const missing = changes.filter((s) => !posted.has(s));
    if (missing.length === 0) return pass();
    return fail({
      message: `${o.kind} ${o.id}: no valid webhook for ${missing.join(', ')} (polling saw ${o.polled.map((s) => s.status).join(' -> ')})`,
      evidence: { polled: o.polled, webhooks: o.webhooks, missing },
    });
  },
});

/** What a whole run saw of webhooks: the basis of {@link serviceSendsWebhooks}. */
export interface RunWebhookObservation {
  /** Transactions and operations that reached a final status by polling on a pairing whose deliveries this run could see. */
  observedFinals: number;
  /** Deliveries that arrived, whatever their signature. */
  deliveries: number;
  /** Deliveries whose signature verified with the pairing's key. */
  validDeliveries: number;
}

/**
 * "The service sends webhooks" (spec, Events), judged over the whole run: where deliveries could be
 * seen and statuses became final, at least one validly signed delivery must have arrived. The
 * per-transaction rule (sandbox: every status change is posted) stays a sandbox warning; a service that
 * sends none at all breaks the spec.
 */
export const serviceSendsWebhooks = defineCheck<RunWebhookObservation, 'webhook.service-sends'>({
  id: 'webhook.service-sends',
  clause: 'spec#events',
  source: 'spec',
  title: 'The service sends webhooks (over the whole run)',
  run(o) {
    if (o.observedFinals === 0) return skip('no status became final where this run could see deliveries');
    if (o.validDeliveries > 0) return pass();
    const seen =
      o.deliveries === 0
        ? 'no delivery arrived at all'
        : `${o.deliveries} deliver${o.deliveries === 1 ? 'y' : 'ies'} arrived, none validly signed with the pairing's webhook_secret_key`;
    return fail({
      message:
        `the service sent no valid webhook in the whole run: ${seen}, while ${o.observedFinals} transactions ` +
        `and operations reached a final status where deliveries were observable`,
      evidence: o,
    });
  },
});

/** Deliveries the receiver answered 500 on purpose, and what came after them. */
export interface RetryObservation {
  /** Deliveries answered 500 on purpose: the key is the event_id (else the raw body). */
  failed: { key: string; event?: string; seq: number; atMs: number }[];
  /** Later deliveries with the same keys, whatever they were answered. */
  redelivered: { key: string; seq: number; atMs: number; status: number }[];
  /** How long after the first failure the scenario stopped waiting. */
  waitedMs: number;
  /** The retry schedule assumed, in ms (the profile's, times the target's scale). */
  scheduleMs: readonly number[];
}

/**
 * A delivery that did not get a 2xx answer is delivered again (public profile: 500 is a temporary
 * failure, retried after 5, 10, 20, 40 and 80 s; sandbox: that schedule may be scaled): after the
 * first failure of an event, the same event_id arrives again.
 */
export const webhookRetried = defineCheck<RetryObservation, 'webhook.retried'>({
  id: 'webhook.retried',
  clause: 'profile#webhooks',
  source: 'profile',
  title: 'A webhook answered 500 is delivered again (same event_id)',
  run(o) {
    if (o.failed.length === 0) return skip('no delivery was answered 500 (none arrived while the receiver was failing)');
    const firsts = new Map<string, RetryObservation['failed'][number]>();
    for (const f of o.failed) if (!firsts.has(f.key) || firsts.get(f.key)!.seq > f.seq) firsts.set(f.key, f);
    const lost = [...firsts.values()].filter((f) => !o.redelivered.some((r) => r.key === f.key && r.seq > f.seq));
    if (lost.length === 0) return pass();
    const what = lost.map((f) => `${f.event ?? '(no event)'} ${f.key}`).join(', ');
    return fail({
      message: `not delivered again within ${o.waitedMs} ms after a 500: ${what}`,
      evidence: { lost, failed: o.failed, redelivered: o.redelivered, scheduleMs: o.scheduleMs, waitedMs: o.waitedMs },
    });
  },
});

/** What one convergence saw of a transaction's or operation's record on both channels. */
export interface WebhookDataObservation {
  kind: 'transaction' | 'operation';
  id: string;
  /** The data of the valid deliveries of its kind that arrived while it was polled, in arrival order. */
  deliveries: { event?: string; eventId?: string; data: Record<string, unknown> }[];
  /** The records polling read (status record or operation record), in order. */
  records: Record<string, unknown>[];
}

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Whether two values of one field say the same: one instant however written (to the second: the
 * profile's samples have second precision, and no document says more), a list of strings in any
 * order, else the same JSON.
 */
function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string' && DATE_TIME.test(a) && DATE_TIME.test(b))
    return Math.abs(Date.parse(a) - Date.parse(b)) < 1000;
  const sorted = (v: unknown) => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? [...v].sort() : v);
  return canonicalJson(sorted(a)) === canonicalJson(sorted(b));
}

/**
 * sandbox#webhooks: a transaction webhook's data is "the status record", an operation webhook's "the
 * operation record". Every field the data and the record polled in the same status both carry (with a
 * value) agrees: amounts, tip, total, currency, payment_method, tags, client_transaction_id,
 * timestamps, ... A record changes over time, so a delivery is compared only with the records polling
 * read in the delivery's own status (agreeing with any one of them is enough), and only deliveries that
 * arrived while polling went on. A field absent or null on either side is no disagreement: a record's
 * field may be set later (payment_method "null until chosen"), and no document makes the data carry
 * every field. The status itself is judged by webhook.agrees-with-polling.
 */
export const webhookDataMatchesRecord = defineCheck<WebhookDataObservation, 'webhook.data-matches-record'>({
  id: 'webhook.data-matches-record',
  clause: 'sandbox#webhooks',
  source: 'sandbox',
  title: 'Webhook data equals the polled record of the same status, field by field',
  run(o) {
    if (o.deliveries.length === 0) return skip('no valid delivery arrived while polling');
    let compared = 0;
    const bad: { event?: string; field: string; webhook: unknown; polled: unknown[] }[] = [];
    for (const d of o.deliveries) {
      const same = o.records.filter((r) => typeof d.data.status === 'string' && r.status === d.data.status);
      if (same.length === 0) continue;
      compared++;
      for (const [field, value] of Object.entries(d.data)) {
        if (field === 'status' || value === null || value === undefined) continue;
        const polled = same.map((r) => r[field]).filter((v) => v !== null && v !== undefined);
        if (polled.length === 0 || polled.some((v) => sameValue(value, v))) continue;
        if (!bad.some((b) => b.event === d.event && b.field === field))
          bad.push({
            ...(d.event === undefined ? {} : { event: d.event }),
            field,
            webhook: value,
            polled: [...new Map(polled.map((v) => [canonicalJson(v), v])).values()],
          });
      }
    }
    if (compared === 0) return skip('no delivery arrived in a status polling also read');
    if (bad.length === 0) return pass();
    const what = o.kind === 'transaction' ? 'status record' : 'operation record';
    const polledText = (b: (typeof bad)[number]) => b.polled.map((v) => JSON.stringify(v)).join(' or ');
    const differences = bad
      .map((b) => `${b.event ?? '(no event)'} ${b.field} ${JSON.stringify(b.webhook)}, polled ${polledText(b)}`)
      .join('; ');
    return fail({
      message: `${o.kind} ${o.id}: webhook data disagrees with the ${what} polled in the same status: ${differences}`,
      evidence: { mismatches: bad },
    });
  },
});
