/**
 * The webhook sender: signed, sorted-key JSON bodies POSTed in the background, retried on non-2xx or
 * network error after 5, 10, 20, 40, 80 s (times `retryScale`). Deliveries of one pairing go in order
 * through a lane (one in flight per lane, so events normally arrive in order); lanes share a global
 * in-flight cap, and the total number of pending deliveries is capped so a dead receiver cannot
 * grow memory without bound (beyond the cap new deliveries are dropped and counted).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { Agent, requestWith } from '../core/undici.ts';
import { canonicalJson, spacedJson } from './canonical-json.ts';
import type { FaultSet } from './faults.ts';
import type { Liberal } from './liberal.ts';
import type { DeliveryAttempt } from './recording.ts';
import type { Rng } from './rng.ts';

/** Back-off before each retry, in ms, before scaling (sandbox#webhooks). */
export const RETRY_SCHEDULE_MS = [5_000, 10_000, 20_000, 40_000, 80_000] as const;

/** Where one pairing's webhooks go. */
export interface WebhookTarget {
  /** Lane key: deliveries with the same key are sent one at a time, in order. */
  readonly key: string;
  readonly url: string;
  readonly secret: string;
}

/** Settings of the sender. */
export interface WebhookSenderOptions {
  readonly retryScale: number;
  readonly faults: FaultSet;
  readonly rng: Rng;
  /** Scale of the random delay of the `webhook.out-of-order` fault. */
  readonly stepDelayMs: number;
  /** @default 16 */
  readonly maxInFlight?: number;
  /** @default 10000 */
  readonly maxPending?: number;
  /** @default 10000 */
  readonly attemptTimeoutMs?: number;
  /** Told about every finished attempt, forged ones included (the recording). @default undefined */
  readonly onAttempt?: (a: DeliveryAttempt) => void;
  /**
   * After the first delivery of a lane that the receiver accepted (2xx), send that lane one forged
   * delivery: the same event with a fresh event_id, signed with a wrong key. @default false
   */
  readonly forgeAfterFirstAccepted?: boolean;
  /**
   * The liberal sandbox (webhook.duplicates, webhook.out-of-order, webhook.late, webhook.own-bytes,
   * webhook.extra-headers, ids.own-format): null or absent for the default sender. @default null
   */
  readonly liberal?: Liberal | null;
}

/** What a forged delivery got. */
export interface ForgedOutcome {
  readonly url: string;
  readonly event: string;
  /** The receiver's answer, or null when there was none. */
  readonly answer: number | null;
}

interface Delivery {
  readonly target: WebhookTarget;
  readonly payload: Record<string, unknown>;
  readonly body: Buffer;
  readonly signature: string | null;
  attempt: number;
}

interface Lane {
  readonly key: string;
  readonly queue: Delivery[];
  busy: boolean;
  ready: boolean;
}

/** Lowercase hex HMAC-SHA256 of `body` keyed with `secret` (UTF-8). */
export function sign(secret: string, body: Buffer | string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/** Background webhook delivery with retries. */
export class WebhookSender {
  /** Deliveries dropped because `maxPending` was reached. */
  dropped = 0;
  private readonly lanes = new Map<string, Lane>();
  private ready: Lane[] = [];
  private inFlight = 0;
  private pending = 0;
  private closed = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly controllers = new Set<AbortController>();
  private readonly agent = new Agent({ keepAliveTimeout: 4_000, connect: { timeout: 5_000 } });
  private readonly maxInFlight: number;
  private readonly maxPending: number;
  private readonly attemptTimeoutMs: number;
  /** The last event sent on each lane (what a forged delivery copies). */
  private readonly lastPayload = new Map<string, { target: WebhookTarget; payload: Record<string, unknown> }>();
  /** Lanes that got their forged delivery. */
  private readonly forgedLanes = new Set<string>();

  constructor(private readonly opts: WebhookSenderOptions) {
    this.maxInFlight = opts.maxInFlight ?? 16;
    this.maxPending = opts.maxPending ?? 10_000;
    this.attemptTimeoutMs = opts.attemptTimeoutMs ?? 10_000;
  }

  /** Queues `{data, event, event_id}` for `target`; returns at once. */
  send(target: WebhookTarget, event: string, data: unknown): void {
    const { faults, rng } = this.opts;
    const liberal = this.opts.liberal ?? null;
    if (this.closed || faults.has('webhook.none')) return;
    const eventId = liberal ? liberal.id('event') : rng.uuid();
    const payload: Record<string, unknown> = faults.has('webhook.bad-schema') ? { data, event } : { data, event, event_id: eventId };
    this.lastPayload.set(target.key, { target, payload });
    const signed = Buffer.from(liberal ? liberal.webhookJson(payload) : canonicalJson(payload), 'utf8');
    const key = faults.has('webhook.bad-signature') ? `${target.secret}-wrong` : target.secret;
    const signature = faults.has('webhook.unsigned') ? null : sign(key, signed);
    // webhook.signed-other-bytes: the receiver gets bytes other than the ones signed.
    const body = faults.has('webhook.signed-other-bytes') ? Buffer.from(spacedJson(payload), 'utf8') : signed;
    const copies = faults.has('webhook.duplicate') ? 2 : liberal ? liberal.copies() : 1;
    for (let i = 0; i < copies; i++) {
      if (this.pending >= this.maxPending) {
        this.dropped++;
        continue;
      }
      this.pending++;
      const d: Delivery = { target, payload, body, signature, attempt: 0 };
      if (faults.has('webhook.out-of-order')) this.later(rng.int(4 * this.opts.stepDelayMs + 20), () => this.enqueue(d));
      else if (liberal) this.later(liberal.deliveryDelayMs(), () => this.enqueue(d));
      else this.enqueue(d);
    }
  }

  /**
   * Sends one forged delivery to the lane `key` (a pairing): its last event with a fresh event_id,
   * signed with a random wrong key; never retried. Resolves null when the lane never had an event.
   */
  async forge(key: string): Promise<ForgedOutcome | null> {
    const last = this.lastPayload.get(key);
    if (!last || this.closed) return null;
    this.forgedLanes.add(key);
    const payload: Record<string, unknown> = { ...last.payload, event_id: randomUUID() };
    const body = Buffer.from(canonicalJson(payload), 'utf8');
    const d: Delivery = { target: last.target, payload, body, signature: sign(randomBytes(32).toString('hex'), body), attempt: 0 };
    const answer = await this.attempt(d, true);
    return { url: last.target.url, event: String(payload.event), answer };
  }

  /** Cancels pending retries and in-flight deliveries, and closes the connections. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    for (const c of this.controllers) c.abort();
    this.lanes.clear();
    this.ready = [];
    await this.agent.destroy().catch(() => undefined);
  }

  private later(ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      this.timers.delete(t);
      fn();
    }, ms);
    this.timers.add(t);
  }

  private enqueue(d: Delivery): void {
    if (this.closed) return;
    let lane = this.lanes.get(d.target.key);
    if (!lane) {
      lane = { key: d.target.key, queue: [], busy: false, ready: false };
      this.lanes.set(lane.key, lane);
    }
    lane.queue.push(d);
    this.markReady(lane);
    this.pump();
  }

  private markReady(lane: Lane): void {
    if (lane.busy || lane.ready || lane.queue.length === 0) return;
    lane.ready = true;
    this.ready.push(lane);
  }

  private pump(): void {
    while (!this.closed && this.inFlight < this.maxInFlight && this.ready.length > 0) {
      const lane = this.ready.shift() as Lane;
      lane.ready = false;
      const d = lane.queue.shift();
      if (!d) continue;
      lane.busy = true;
      this.inFlight++;
      void this.attempt(d, false).then((answer) => {
        const ok = answer !== null && answer >= 200 && answer < 300;
        if (ok && this.opts.forgeAfterFirstAccepted && !this.forgedLanes.has(d.target.key)) void this.forge(d.target.key);
        this.settle(lane, d, ok);
      });
    }
  }

  private settle(lane: Lane, d: Delivery, ok: boolean): void {
    this.inFlight--;
    lane.busy = false;
    if (this.closed) return;
    const delay = this.opts.faults.has('webhook.no-retry') ? undefined : RETRY_SCHEDULE_MS[d.attempt];
    if (!ok && delay !== undefined) {
      d.attempt++;
      this.later(delay * this.opts.retryScale, () => this.enqueue(d));
    } else {
      this.pending--;
    }
    if (lane.queue.length > 0) this.markReady(lane);
    else if (!lane.ready) this.lanes.delete(lane.key);
    this.pump();
  }

  /** One POST; the receiver's status, or null without an answer. Never throws. */
  private async attempt(d: Delivery, forged: boolean): Promise<number | null> {
    const ac = new AbortController();
    this.controllers.add(ac);
    const timer = setTimeout(() => ac.abort(), this.attemptTimeoutMs);
    const startedAt = performance.now();
    const report = (answer: number | null, error?: string) => {
      try {
        this.opts.onAttempt?.({
          url: d.target.url,
          payload: d.payload,
          attempt: d.attempt,
          forged,
          startedAt,
          answer,
          error,
          durationMs: performance.now() - startedAt,
        });
      } catch {
        // the recording must not break delivery
      }
    };
    try {
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        'user-agent': 'pay-connect-simulator',
        ...this.opts.liberal?.deliveryHeaders(),
      };
      if (d.signature !== null) headers.signature = d.signature;
      const res = await requestWith(this.agent, d.target.url, { method: 'POST', headers, body: d.body, signal: ac.signal });
      await res.body.dump().catch(() => undefined);
      report(res.statusCode);
      return res.statusCode;
    } catch (e) {
      if (!this.closed) report(null, (e as NodeJS.ErrnoException).code ?? (e as Error).name);
      return null;
    } finally {
      clearTimeout(timer);
      this.controllers.delete(ac);
    }
  }
}
