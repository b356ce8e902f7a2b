import { afterEach, describe, expect, it, vi } from 'vitest';
import { isToolkitError } from '../core/errors.ts';
import type { DeliveryDraft } from './delivery-log.ts';
import { DeliveryLog } from './delivery-log.ts';
import { signBody } from './verify-signature.ts';

function draft(body: object | string, over: Partial<DeliveryDraft> = {}): [DeliveryDraft, Buffer] {
  const rawBody = typeof body === 'string' ? body : JSON.stringify(body);
  const parsed = typeof body === 'string' ? undefined : (body as Record<string, unknown>);
  const d: DeliveryDraft = {
    receivedAt: 0,
    receivedAtIso: new Date(0).toISOString(),
    method: 'POST',
    path: '/',
    headers: {},
    rawBody,
    body: parsed,
    event: typeof parsed?.['event'] === 'string' ? parsed['event'] : undefined,
    eventId: typeof parsed?.['event_id'] === 'string' ? parsed['event_id'] : undefined,
    signature: 'valid',
    malformed: parsed === undefined,
    tooLarge: false,
    status: 200,
    failedOnPurpose: false,
    ...over,
  };
  return [d, Buffer.from(rawBody, 'utf8')];
}

afterEach(() => {
  vi.useRealTimers();
});

describe('DeliveryLog', () => {
  it('flags a repeated event_id, or a repeated raw body without event_id, as duplicate', () => {
    const log = new DeliveryLog();
    log.record(...draft({ event_id: 'a' }));
    log.record(...draft({ event_id: 'a', extra: 1 }));
    log.record(...draft({ no: 'id' }));
    log.record(...draft({ no: 'id' }));
    log.record(...draft({ no: 'other' }));
    expect(log.all().map((d) => d.duplicate)).toEqual([false, true, false, true, false]);
    expect(log.counts().duplicates).toBe(2);
  });

  it('does not count a retry after a 500, or after a rejected forgery, as duplicate', () => {
    const log = new DeliveryLog();
    log.record(...draft({ event_id: 'a' }, { status: 500, failedOnPurpose: true }));
    log.record(...draft({ event_id: 'a' }, { signature: 'invalid', status: 403 }));
    log.record(...draft({ event_id: 'a' }));
    expect(log.all().map((d) => d.duplicate)).toEqual([false, false, false]);
  });

  it('re-verifies unchecked deliveries and recomputes duplicates from the new verdicts', () => {
    const log = new DeliveryLog();
    const [forged, forgedBytes] = draft({ event_id: 'x' }, { signature: 'unchecked' });
    log.record({ ...forged, headers: { signature: signBody(forgedBytes, 'wrong') } }, forgedBytes);
    const [genuine, genuineBytes] = draft({ event_id: 'x' }, { signature: 'unchecked' });
    log.record({ ...genuine, headers: { signature: signBody(genuineBytes, 'key') } }, genuineBytes);
    expect(log.all().map((d) => d.duplicate)).toEqual([false, true]);
    const changed = log.reverify('key');
    expect(changed.map((d) => d.signature)).toEqual(['invalid', 'valid']);
    expect(log.all().map((d) => d.duplicate)).toEqual([false, false]);
    expect(log.reverify('key')).toEqual([]);
  });

  it('keeps calling other listeners when one throws, and unsubscribes', () => {
    const log = new DeliveryLog();
    const seen: number[] = [];
    log.onDelivery(() => {
      throw new Error('listener bug');
    });
    const off = log.onDelivery((d) => seen.push(d.seq));
    log.record(...draft({ event_id: '1' }));
    off();
    log.record(...draft({ event_id: '2' }));
    expect(seen).toEqual([1]);
  });

  it('waitFor resolves with the first past match, then a future one, and leaves no timer', async () => {
    vi.useFakeTimers();
    const log = new DeliveryLog();
    log.record(...draft({ event_id: 'p1', event: 'transaction.in_progress' }));
    log.record(...draft({ event_id: 'p2', event: 'transaction.in_progress' }));
    const past = await log.waitFor((d) => d.event === 'transaction.in_progress', { timeoutMs: 1000 });
    expect(past.eventId).toBe('p1');
    const future = log.waitFor((d) => d.event === 'transaction.success', { timeoutMs: 1000 });
    expect(vi.getTimerCount()).toBe(1);
    log.record(...draft({ event_id: 'f', event: 'transaction.success' }));
    expect((await future).eventId).toBe('f');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('waitFor rejects PCC_TIMEOUT after timeoutMs, on close, on a throwing predicate and on abort', async () => {
    vi.useFakeTimers();
    const log = new DeliveryLog();
    const timedOut = log.waitFor(() => false, { timeoutMs: 500, description: 'transaction.success' });
    const caught = timedOut.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(499);
    log.record(...draft({ event_id: 'n' }));
    await vi.advanceTimersByTimeAsync(1);
    const error = await caught;
    expect(isToolkitError(error) && error.code).toBe('PCC_TIMEOUT');
    expect(String((error as Error).message)).toMatch(/transaction\.success within 500 ms \(1 received/);
    expect(vi.getTimerCount()).toBe(0);

    const pending = log.waitFor(() => false, { timeoutMs: 10_000 }).catch((e: unknown) => e);
    log.close();
    expect(isToolkitError(await pending)).toBe(true);

    const boom = new Error('predicate bug');
    await expect(
      log.waitFor(() => {
        throw boom;
      }),
    ).rejects.toBe(boom);

    const controller = new AbortController();
    const aborted = log.waitFor(() => false).catch((e: unknown) => e);
    controller.abort(new Error('stop'));
    const aborted2 = log.waitFor(() => false, { signal: controller.signal }).catch((e: unknown) => e);
    expect(((await aborted2) as Error).message).toBe('stop');
    log.close();
    await aborted;
    expect(vi.getTimerCount()).toBe(0);
  });

  it('eventsFor returns valid accepted deliveries about an id, in arrival order', () => {
    const log = new DeliveryLog();
    log.record(...draft({ event_id: '1', data: { transaction_id: 't' } }));
    log.record(...draft({ event_id: '2', data: { transaction_id: 't' } }, { signature: 'invalid', status: 403 }));
    log.record(...draft({ event_id: '3', data: { operation_id: 'o', transaction_id: 't2' } }));
    log.record(...draft({ event_id: '4', data: { transaction_id: 't' } }, { status: 500, failedOnPurpose: true }));
    log.record(...draft({ event_id: '5', data: { transaction_id: 't' } }));
    log.record(...draft({ event_id: '5', data: { transaction_id: 't' } }));
    expect(log.eventsFor('t').map((d) => d.eventId)).toEqual(['1', '5', '5']);
    expect(log.eventsFor('o').map((d) => d.eventId)).toEqual(['3']);
    expect(log.eventsFor('t2').map((d) => d.eventId)).toEqual(['3']);
    expect(log.eventsFor('nope')).toEqual([]);
  });
});
