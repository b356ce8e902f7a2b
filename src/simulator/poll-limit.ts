/**
 * The `poll.rate-limited` fault: a service that rate-limits polling. Past {@link POLL_LIMIT} status
 * reads (transaction status, operation details) of one pairing within the last second, a read answers
 * 429 with `Retry-After: 1` before it is looked at; a refused read is not counted, so a client that
 * waits as asked is served again. Legal: the spec shows no rate limits (spec#limits), and a 429 with
 * Retry-After asks the client to wait, it judges nothing.
 */
import { HttpError } from './errors.ts';
import { LIBERAL_POLL_LIMIT } from './liberal.ts';
import type { SimContext } from './sim-state.ts';
import type { Pairing } from './store.ts';

/** Status reads a pairing is served per window under `poll.rate-limited`. */
export const POLL_LIMIT = 5;

/** The window, in milliseconds: one second, what `Retry-After: 1` asks to wait. */
export const POLL_WINDOW_MS = 1000;

/** When each pairing's served status reads happened, within the last window. */
const served = new WeakMap<Pairing, number[]>();

/**
 * Counts one status read of `pairing`; under `poll.rate-limited` a read past the limit throws the
 * 429 instead. Without the fault nothing is counted.
 */
export function admitStatusRead(ctx: SimContext, pairing: Pairing): void {
  // limits.poll-rate: the liberal sandbox rate-limits polling too, a little more generously.
  const limit = ctx.faults.has('poll.rate-limited') ? POLL_LIMIT : ctx.liberal ? LIBERAL_POLL_LIMIT : null;
  if (limit === null) return;
  const now = ctx.now();
  const recent = (served.get(pairing) ?? []).filter((at) => now - at < POLL_WINDOW_MS);
  if (recent.length >= limit) {
    served.set(pairing, recent);
    throw new HttpError(429, `more than ${limit} status reads a second; wait and read again`, {
      'retry-after': String(POLL_WINDOW_MS / 1000),
    });
  }
  recent.push(now);
  served.set(pairing, recent);
}
