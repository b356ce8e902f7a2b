/** sandbox#transactions: validation, one-at-a-time, the outcome table, cancel, status record, print slip. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { P, pairClient, pay, pollUntil, startTestSim, waitFinal, type Client, type TestSim } from './testkit.ts';

let t: TestSim;
let slowSim: TestSim;
beforeAll(async () => {
  t = await startTestSim({ deadlineMs: 500 }); // headroom between "two steps" and "the deadline" under load
  slowSim = await startTestSim({ stepDelayMs: 150, deadlineMs: 3000 });
});
afterAll(async () => {
  await t.close();
  await slowSim.close();
});

const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
const STATUS_KEYS = [
  'amount',
  'canceled_at',
  'client_transaction_id',
  'completed_at',
  'created_at',
  'currency',
  'payment_method',
  'refund_total_amount',
  'reverted_at',
  'status',
  'tags',
  'tip_amount',
  'total_amount',
  'transaction_id',
];
const SLIP_REQUIRED = [
  'transaction_id',
  'terminal_id',
  'organization',
  'point_of_sale',
  'amount',
  'tip_amount',
  'total_amount',
  'currency',
  'status',
  'payment_method',
  'tags',
  'timezone',
  'created_at',
  'digital_slip',
];

const start = async (c: Client, body: unknown, path: string = P.generate) => {
  const r = await c.post(path, body);
  expect(r.status, r.text).toBe(200);
  return r.json.transaction_id as string;
};

describe('amount and fields', () => {
  it.each([[undefined], [0], [-1], [1.5], ['100'], [100_000_000], [null], [true], [[100]]])(
    'refuses amount %j with 400',
    async (amount) => {
      const c = await pairClient(t);
      for (const path of [P.generate, P.preauth, P.refund]) {
        const r = await c.post(path, amount === undefined ? {} : { amount });
        expect(r.status).toBe(400);
        expect(r.json.detail).toMatch(/amount/);
      }
    },
  );

  it('accepts 1 and 99,999,999 cents', async () => {
    const c = await pairClient(t);
    expect((await pay(c, 1)).status).toBe('SUCCESS');
    expect((await pay(c, 99_999_999)).amount).toBe(99_999_999);
  });

  it('echoes client_transaction_id, and refuses non-string ids and unknown payment methods', async () => {
    const c = await pairClient(t);
    const id = await start(c, { amount: 1000, client_transaction_id: 'order-42' });
    expect((await waitFinal(c, id)).client_transaction_id).toBe('order-42');
    expect((await pay(c, 1000)).client_transaction_id).toBeNull();
    expect((await c.post(P.generate, { amount: 1000, client_transaction_id: 5 })).status).toBe(400);
    expect((await c.post(P.generate, { amount: 1000, payment_method: 'CASH' })).status).toBe(400);
    expect((await c.post(P.generate, { amount: 1000, payment_method: 7 })).status).toBe(400);
  });

  it('keeps a chosen payment method; without one the customer picks CARD (null until then)', async () => {
    const c = await pairClient(t);
    const m = await waitFinal(c, await start(c, { amount: 1000, payment_method: 'MBILLS' }));
    expect(m).toMatchObject({ status: 'SUCCESS', payment_method: 'MBILLS', card_number: null });
    const offline = await start(c, { amount: 1055 });
    expect((await c.get(P.status(offline))).json.payment_method).toBeNull();
    await c.post(P.cancel(offline));
    const card = await waitFinal(c, await start(c, { amount: 1000 }));
    expect(card.payment_method).toBe('CARD');
  });
});

describe('one transaction at a time', () => {
  it('answers 409 to generate, preauth and refunds while one is pending, and 200 once final', async () => {
    const c = await pairClient(t);
    const done = await pay(c, 1000);
    const id = await start(c, { amount: 1055 });
    for (const [path, body] of [
      [P.generate, { amount: 100 }],
      [P.preauth, { amount: 100 }],
      [P.refund, { amount: 100 }],
      [P.linkedRefund(done.transaction_id), { amount: 100 }],
    ] as const) {
      const r = await c.post(path, body);
      expect(r.status).toBe(409);
      expect(typeof r.json.detail).toBe('string');
    }
    expect((await c.post(P.cancel(id))).status).toBe(200);
    expect((await pay(c, 1000)).status).toBe('SUCCESS');
  });

  it('does not block another terminal', async () => {
    const a = await pairClient(t);
    const b = await pairClient(t);
    const id = await start(a, { amount: 1055 });
    expect((await b.post(P.generate, { amount: 100 })).status).toBe(200);
    await a.post(P.cancel(id));
  });
});

describe('outcome table', () => {
  it.each([
    [1051, 'DECLINED'],
    [1052, 'FAILED'],
    [1053, 'EXPIRED'],
    [1054, 'EXPIRED'],
    [1055, 'EXPIRED'],
    [1056, 'SUCCESS'],
    [1057, 'SUCCESS'],
    [1000, 'SUCCESS'],
    [1099, 'SUCCESS'],
  ])('amount %i ends %s', async (amount, status) => {
    const c = await pairClient(t);
    const began = Date.now();
    const r = await pay(c, amount);
    expect(r.status).toBe(status);
    expect(r.tip_amount).toBe(amount === 1057 ? 100 : 0);
    expect(r.total_amount).toBe(r.amount + r.tip_amount);
    // 54 and 55 wait for the deadline; the others finish after two steps.
    if (amount === 1054 || amount === 1055) expect(Date.now() - began).toBeGreaterThanOrEqual(480);
    else expect(Date.now() - began).toBeLessThan(400);
  });

  it('passes through IN_PROGRESS, and 54 waits there while 55 stays INITIATED', async () => {
    // The read right after the request lands in INITIATED only with steps it cannot miss (150 ms).
    const slow = await pairClient(slowSim);
    const id = await start(slow, { amount: 1000 });
    expect((await slow.get(P.status(id))).json.status).toBe('INITIATED');
    await pollUntil(slow, P.status(id), (j) => j.status === 'IN_PROGRESS');
    await waitFinal(slow, id);
    const c = await pairClient(t);
    const waiting = await start(c, { amount: 1054 });
    await pollUntil(c, P.status(waiting), (j) => j.status === 'IN_PROGRESS');
    await new Promise((r) => setTimeout(r, 100));
    expect((await c.get(P.status(waiting))).json.status).toBe('IN_PROGRESS');
    expect((await waitFinal(c, waiting)).status).toBe('EXPIRED');
    const offline = await start(c, { amount: 1055 });
    await new Promise((r) => setTimeout(r, 100));
    expect((await c.get(P.status(offline))).json.status).toBe('INITIATED');
    expect((await waitFinal(c, offline)).status).toBe('EXPIRED');
  });

  it('gives approved card payments their card details', async () => {
    const c = await pairClient(t);
    const r = await pay(c, 1000);
    expect(['VISA', 'MASTERCARD']).toContain(r.payment_option);
    expect(r.card_number).toMatch(/^\*{4} \*{4} \*{4} \d{4}$/);
    for (const k of ['card_tid', 'aid', 'approve_code', 'card_type']) expect(r[k]).toMatch(/.+/);
    const declined = await pay(c, 1051);
    expect(declined.payment_option).toBeUndefined();
    expect(declined.card_number).toBeNull();
  });
});

describe('cancel', () => {
  it('cancels an INITIATED transaction at once, answering {}', async () => {
    const c = await pairClient(t);
    const id = await start(c, { amount: 1055 });
    const r = await c.post(P.cancel(id));
    expect(r.status).toBe(200);
    expect(r.json).toEqual({});
    const s = (await c.get(P.status(id))).json;
    expect(s.status).toBe('CANCELED');
    expect(s.canceled_at).toMatch(TS);
  });

  it('cancels 54 waiting IN_PROGRESS', async () => {
    const c = await pairClient(t);
    const id = await start(c, { amount: 1054 });
    await pollUntil(c, P.status(id), (j) => j.status === 'IN_PROGRESS');
    expect((await c.post(P.cancel(id))).status).toBe(200);
    expect((await waitFinal(c, id)).status).toBe('CANCELED');
  });

  it('sends a cancel signal to a normal IN_PROGRESS transaction, which ends CANCELED', async () => {
    const c = await pairClient(slowSim);
    const id = await start(c, { amount: 1000 });
    await pollUntil(c, P.status(id), (j) => j.status === 'IN_PROGRESS');
    expect((await c.post(P.cancel(id))).status).toBe(200);
    expect((await c.post(P.cancel(id))).status).toBe(200); // still pending: a second cancel is fine
    expect((await waitFinal(c, id)).status).toBe('CANCELED');
  });

  it('56 refuses cancellation, INITIATED or IN_PROGRESS, and completes', async () => {
    const c = await pairClient(slowSim);
    const early = await start(c, { amount: 1056 });
    expect((await c.post(P.cancel(early))).status).toBe(200);
    expect((await waitFinal(c, early)).status).toBe('SUCCESS');
    const late = await start(c, { amount: 2056 });
    await pollUntil(c, P.status(late), (j) => j.status === 'IN_PROGRESS');
    expect((await c.post(P.cancel(late))).status).toBe(200);
    const r = await waitFinal(c, late);
    expect(r.status).toBe('SUCCESS');
    expect(r.canceled_at).toBeNull();
  });

  it('answers 400 for a final transaction and changes nothing; 404 for an unknown id', async () => {
    const c = await pairClient(t);
    const r = await pay(c, 1000);
    const before = (await c.get(P.status(r.transaction_id))).json;
    const cancel = await c.post(P.cancel(r.transaction_id));
    expect(cancel.status).toBe(400);
    expect(cancel.json.detail).toMatch(/final/);
    expect((await c.get(P.status(r.transaction_id))).json).toEqual(before);
    expect((await c.post(P.cancel('no-such-id'))).status).toBe(404);
  });
});

describe('status record', () => {
  it('has the fields of sandbox.md with ISO 8601 UTC second timestamps', async () => {
    const c = await pairClient(t);
    const r = await pay(c, 1000);
    expect(Object.keys(r)).toEqual(expect.arrayContaining(STATUS_KEYS));
    expect(r).toMatchObject({ currency: 'EUR', tags: ['charge'], refund_total_amount: 0, canceled_at: null, reverted_at: null });
    expect(r.created_at).toMatch(TS);
    expect(r.completed_at).toMatch(TS);
    expect((await c.get(P.status('unknown'))).status).toBe(404);
  });
});

describe('print slip', () => {
  it('answers 400 while INITIATED or IN_PROGRESS', async () => {
    const c = await pairClient(t);
    const offline = await start(c, { amount: 1055 });
    expect((await c.get(P.slip(offline))).status).toBe(400);
    await c.post(P.cancel(offline));
    const waiting = await start(c, { amount: 1054 });
    await pollUntil(c, P.status(waiting), (j) => j.status === 'IN_PROGRESS');
    const r = await c.get(P.slip(waiting));
    expect(r.status).toBe(400);
    expect(typeof r.json.detail).toBe('string');
    await c.post(P.cancel(waiting));
  });

  it('answers every required field for a final transaction, agreeing with config and status', async () => {
    const c = await pairClient(t);
    const s = await pay(c, 1057);
    const r = await c.get(P.slip(s.transaction_id));
    expect(r.status).toBe(200);
    const slip = r.json;
    for (const k of SLIP_REQUIRED) expect(slip, k).toHaveProperty(k);
    const config = (await c.get(P.config)).json;
    expect(slip).toMatchObject({
      transaction_id: s.transaction_id,
      terminal_id: c.pairing.terminal_id,
      currency: config.currency,
      timezone: config.timezone,
      amount: 1057,
      tip_amount: 100,
      total_amount: 1157,
      status: 'SUCCESS',
      payment_method: 'CARD',
      tags: ['charge'],
      card_number: s.card_number,
      payment_option: s.payment_option,
      created_at: s.created_at,
    });
    expect(slip.organization).toEqual({
      full_name: expect.any(String),
      country: 'SI',
      address: expect.any(String),
      postal_code: expect.any(String),
      city: expect.any(String),
      region: expect.toSatisfy((v) => v === null || typeof v === 'string'),
    });
    expect(slip.point_of_sale).toEqual({ full_name: expect.any(String) });
    expect(new URL(slip.digital_slip).protocol).toBe('https:');
    expect(slip.created_at).toMatch(TS);
  });

  it('answers for canceled and expired transactions too', async () => {
    const c = await pairClient(t);
    const id = await start(c, { amount: 1055 });
    await c.post(P.cancel(id));
    const r = await c.get(P.slip(id));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ status: 'CANCELED', payment_method: 'CARD' });
    expect(r.json.canceled_at).toMatch(TS);
  });
});
