import { createHash } from 'node:crypto';
import { ToolkitError } from '../core/errors.ts';
import type { Delivery, DeliveryCounts, DeliveryListener, SignatureState } from './delivery.ts';
import { verifySignature } from './verify-signature.ts';

/** A delivery before the log numbers it and decides whether it is a duplicate. */
export type DeliveryDraft = Omit<Delivery, 'seq' | 'duplicate'>;

/** Options of {@link DeliveryLog.waitFor}. */
export interface WaitForOptions {
  /** How long to wait for a matching delivery. @default 10000 */
  timeoutMs?: number;
  /** Words for the timeout message, e.g. `transaction.success for tx 42`. @default 'the predicate' */
  description?: string;
  /** Aborts the wait (rejects with the signal's reason). */
  signal?: AbortSignal;
}

interface Waiter {
  predicate: (d: Delivery) => boolean;
  settle: (result: { delivery: Delivery } | { error: unknown }) => void;
}

/** Signature states that do not get a delivery rejected. */
const NOT_REJECTED: ReadonlySet<SignatureState> = new Set(['valid', 'unchecked']);

/**
 * The in-memory record of a receiver's deliveries: arrival order, duplicate detection, counts,
 * listeners and waiters. Kept apart from the HTTP server so it can be tested without sockets.
 */
export class DeliveryLog {
  readonly #deliveries: Delivery[] = [];
  /** Dedupe keys, by seq (absent for a body that was not read). */
  readonly #keys = new Map<number, string>();
  /** Raw bytes and header of deliveries still `unchecked`, kept until a secret is known. */
  readonly #pending = new Map<number, { bytes: Buffer; header: string | undefined }>();
  /** Keys of accepted deliveries, for duplicate detection. */
  #accepted = new Set<string>();
  readonly #listeners = new Set<DeliveryListener>();
  readonly #waiters = new Set<Waiter>();

  /** Records a delivery and notifies listeners and waiters. */
  record(draft: DeliveryDraft, rawBytes: Buffer): Delivery {
    const seq = this.#deliveries.length + 1;
    const delivery: Delivery = { ...draft, seq, duplicate: false };
    if (!draft.tooLarge) {
      this.#keys.set(seq, dedupeKey(draft.eventId, rawBytes));
      if (draft.signature === 'unchecked') {
        this.#pending.set(seq, { bytes: rawBytes, header: draft.headers['signature'] });
      }
    }
    this.#classify(delivery, this.#accepted);
    this.#deliveries.push(delivery);
    for (const listener of this.#listeners) {
      try {
        listener(delivery);
      } catch {
        // A listener's bug must not take the receiver down or starve the other listeners.
      }
    }
    this.#offer([delivery]);
    return delivery;
  }

  /**
   * Verifies the deliveries still `unchecked` with `secret`, then recomputes duplicates (a delivery
   * that turns out forged must not make a later genuine one a duplicate). Returns those re-verified.
   */
  reverify(secret: string): Delivery[] {
    const changed: Delivery[] = [];
    for (const [seq, { bytes, header }] of this.#pending) {
      const delivery = this.#deliveries[seq - 1];
      if (!delivery) continue;
      delivery.signature = verifySignature(bytes, header, secret);
      changed.push(delivery);
    }
    this.#pending.clear();
    if (changed.length === 0) return changed;
    const accepted = new Set<string>();
    for (const d of this.#deliveries) this.#classify(d, accepted);
    this.#accepted = accepted;
    this.#offer(this.#deliveries);
    return changed;
  }

  /** All deliveries, in arrival order (a copy of the list; the records themselves are live). */
  all(): Delivery[] {
    return [...this.#deliveries];
  }

  /** Totals over all deliveries. */
  counts(): DeliveryCounts {
    const c: DeliveryCounts = {
      total: 0,
      valid: 0,
      invalid: 0,
      missing: 0,
      unchecked: 0,
      duplicates: 0,
      malformed: 0,
      tooLarge: 0,
      failedOnPurpose: 0,
    };
    for (const d of this.#deliveries) {
      c.total++;
      c[d.signature]++;
      if (d.duplicate) c.duplicates++;
      if (d.malformed) c.malformed++;
      if (d.tooLarge) c.tooLarge++;
      if (d.failedOnPurpose) c.failedOnPurpose++;
    }
    return c;
  }

  /**
   * Valid, accepted (2xx) deliveries whose `data.transaction_id` or `data.operation_id` equals `id`,
   * in arrival order. Duplicates are included (flagged); deliveries failed on purpose are not, since
   * the sender will deliver them again.
   */
  eventsFor(id: string): Delivery[] {
    return this.#deliveries.filter((d) => {
      if (d.signature !== 'valid' || d.status < 200 || d.status > 299) return false;
      const data = (d.body as { data?: unknown } | undefined)?.data;
      if (typeof data !== 'object' || data === null) return false;
      const { transaction_id, operation_id } = data as Record<string, unknown>;
      return transaction_id === id || operation_id === id;
    });
  }

  /** Adds a listener called for each delivery recorded from now on. Returns its unsubscribe. */
  onDelivery(listener: DeliveryListener): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /**
   * Resolves with the first delivery, already recorded or arriving later, for which `predicate`
   * holds (also one that becomes valid when `setSecret` re-verifies it). Rejects with a PCC_TIMEOUT
   * ToolkitError after `timeoutMs`, when the log is closed, or when `predicate` throws. Clears its
   * timer and listeners whichever way it settles.
   */
  waitFor(predicate: (d: Delivery) => boolean, options: WaitForOptions = {}): Promise<Delivery> {
    const { timeoutMs = 10_000, description = 'the predicate', signal } = options;
    return new Promise<Delivery>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = (): void => waiter.settle({ error: signal?.reason });
      const waiter: Waiter = {
        predicate,
        settle: (result) => {
          if (!this.#waiters.delete(waiter)) return;
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          if ('delivery' in result) resolve(result.delivery);
          else reject(result.error);
        },
      };
      this.#waiters.add(waiter);
      this.#offer(this.#deliveries, [waiter]);
      if (!this.#waiters.has(waiter)) return;
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      timer = setTimeout(() => {
        const c = this.counts();
        waiter.settle({
          error: new ToolkitError(
            'PCC_TIMEOUT',
            `no webhook delivery matched ${description} within ${timeoutMs} ms ` +
              `(${c.total} received: ${c.valid} valid, ${c.invalid} invalid, ${c.missing} unsigned, ` +
              `${c.unchecked} unchecked, ${c.malformed} malformed)`,
            'check that the service can reach the receiver URL (use publicUrl when it cannot reach ' +
              'loopback) and that the pairing was made with this webhook_url',
          ),
        });
      }, timeoutMs);
    });
  }

  /** Rejects every pending `waitFor` (the receiver is closing) and drops all listeners. */
  close(): void {
    for (const waiter of [...this.#waiters]) {
      waiter.settle({
        error: new ToolkitError('PCC_TIMEOUT', 'the webhook receiver was closed while a wait for a delivery was pending'),
      });
    }
    this.#listeners.clear();
  }

  #classify(d: Delivery, accepted: Set<string>): void {
    const key = this.#keys.get(d.seq);
    const eligible = key !== undefined && NOT_REJECTED.has(d.signature) && !d.malformed && !d.tooLarge;
    d.duplicate = eligible && accepted.has(key);
    if (eligible && d.status >= 200 && d.status <= 299) accepted.add(key);
  }

  #offer(candidates: readonly Delivery[], waiters: Iterable<Waiter> = [...this.#waiters]): void {
    for (const waiter of waiters) {
      try {
        const match = candidates.find((d) => waiter.predicate(d));
        if (match) waiter.settle({ delivery: match });
      } catch (error) {
        waiter.settle({ error });
      }
    }
  }
}

function dedupeKey(eventId: string | undefined, rawBytes: Buffer): string {
  return eventId !== undefined ? `id:${eventId}` : `raw:${createHash('sha256').update(rawBytes).digest('hex')}`;
}
