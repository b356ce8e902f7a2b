/** sandbox#webhooks: events, sorted keys, signature over the exact bytes, retries, background delivery. */
import { createHmac } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  P,
  pairClient,
  pay,
  sleep,
  startReceiver,
  startTestSim,
  waitOperation,
  type Delivery,
  type Receiver,
  type TestSim,
} from './testkit.ts';

let t: TestSim;
const receivers: Receiver[] = [];
beforeAll(async () => {
  t = await startTestSim();
});
afterAll(() => t.close());
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
  const r = await startReceiver(answer);
  receivers.push(r);
  return r;
}

/** Paths of objects whose keys (in received order) are not sorted. */
function unsortedPaths(v: unknown, at = '$'): string[] {
  if (Array.isArray(v)) return v.flatMap((x, i) => unsortedPaths(x, `${at}[${i}]`));
  if (v === null || typeof v !== 'object') return [];
  const keys = Object.keys(v);
  const here = keys.join() === [...keys].sort().join() ? [] : [at];
  return [...here, ...keys.flatMap((k) => unsortedPaths((v as Record<string, unknown>)[k], `${at}.${k}`))];
}

const events = (ds: Delivery[]) => ds.map((d) => d.json.event as string);
const hmac = (key: string, raw: Buffer) => createHmac('sha256', key).update(raw).digest('hex');

describe('webhook events', () => {
  it('posts every transaction status change, creation included, in order', async () => {
    const rx = await receiver();
    const c = await pairClient(t, { webhookUrl: rx.url });
    const s = await pay(c, 1000);
    await rx.waitFor((d) => d.length >= 3);
    expect(events(rx.deliveries)).toEqual(['transaction.initiated', 'transaction.in_progress', 'transaction.success']);
    expect(rx.deliveries[2]?.json.data).toEqual(s);
    expect(rx.deliveries.map((d) => d.json.data.status)).toEqual(['INITIATED', 'IN_PROGRESS', 'SUCCESS']);
    expect(new Set(rx.deliveries.map((d) => d.json.event_id)).size).toBe(3);
  });

  it('posts operation events and the transaction it reverts', async () => {
    const rx = await receiver();
    const c = await pairClient(t, { webhookUrl: rx.url });
    const s = await pay(c, 1000);
    const r = await c.post(P.revert(s.transaction_id));
    await waitOperation(c, r.json.operation_id);
    await rx.waitFor((d) => d.length >= 7);
    expect(events(rx.deliveries).slice(3)).toEqual([
      'operation.initiated',
      'operation.in_progress',
      'transaction.reverted',
      'operation.success',
    ]);
    expect(rx.deliveries[6]?.json.data).toEqual({
      operation_id: r.json.operation_id,
      operation_type: 'transaction.revert',
      transaction_id: s.transaction_id,
      status: 'SUCCESS',
    });
  });

  it('signs the exact body bytes (sorted keys, UTF-8) with the webhook secret', async () => {
    const rx = await receiver();
    const c = await pairClient(t, { webhookUrl: rx.url });
    const r = await c.post(P.generate, { amount: 1051, client_transaction_id: 'načrt €✓' });
    expect(r.status).toBe(200);
    await rx.waitFor((d) => d.length >= 3);
    for (const d of rx.deliveries) {
      expect(d.headers['content-type']).toBe('application/json');
      expect(d.headers.signature).toBe(hmac(c.pairing.webhook_secret_key as string, d.raw));
      expect(d.headers.signature).toMatch(/^[0-9a-f]{64}$/);
      expect(unsortedPaths(d.json)).toEqual([]); // keys sorted at every level, as sent
      expect(d.raw.toString('utf8')).toBe(JSON.stringify(d.json)); // compact: no whitespace
      expect(Object.keys(d.json)).toEqual(['data', 'event', 'event_id']);
    }
    expect(rx.deliveries[2]?.json).toMatchObject({ event: 'transaction.declined', data: { client_transaction_id: 'načrt €✓' } });
  });

  it('does not slow the API when the receiver hangs, and close() is prompt', async () => {
    const own = await startTestSim();
    const rx = await receiver(() => 'hang');
    const c = await pairClient(own, { webhookUrl: rx.url });
    const began = Date.now();
    for (let i = 0; i < 5; i++) await pay(c, 1000 + i);
    expect(Date.now() - began).toBeLessThan(1000);
    await rx.waitFor((d) => d.length >= 1);
    const closing = Date.now();
    await own.close();
    expect(Date.now() - closing).toBeLessThan(500);
  });
});

describe('webhook retries', () => {
  it('retries on non-2xx and on network errors until delivered, with the same event_id and bytes', async () => {
    const rx = await receiver((n) => (n === 0 ? 500 : n === 1 ? 'destroy' : n === 2 ? 400 : 200));
    const c = await pairClient(t, { webhookUrl: rx.url });
    await c.post(P.generate, { amount: 1055 });
    await rx.waitFor((d) => d.length >= 4);
    const first = rx.deliveries[0] as Delivery;
    expect(rx.deliveries.slice(0, 4).every((d) => d.json.event_id === first.json.event_id && d.raw.equals(first.raw))).toBe(true);
    expect(first.json.event).toBe('transaction.initiated');
  });

  it('follows 5, 10, 20, 40, 80 s times the scale, then gives up', async () => {
    const own = await startTestSim({ webhookRetryScale: 0.002, deadlineMs: 3000 });
    try {
      const times: number[] = [];
      const rx = await receiver(() => {
        times.push(Date.now());
        return 503;
      });
      const c = await pairClient(own, { webhookUrl: rx.url });
      await c.post(P.generate, { amount: 1055 }); // stays INITIATED: one event until the deadline
      await rx.waitFor((d) => d.length >= 6);
      await sleep(250);
      expect(rx.deliveries.filter((d) => d.json.event === 'transaction.initiated')).toHaveLength(6);
      const gaps = times.slice(1, 6).map((x, i) => x - (times[i] as number));
      [10, 20, 40, 80, 160].forEach((min, i) => expect(gaps[i]).toBeGreaterThanOrEqual(min - 3));
    } finally {
      await own.close();
    }
  });
});
