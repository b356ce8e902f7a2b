/** sandbox#preauthorization and #revert-and-refund over real loopback. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { P, pairClient, pay, pollUntil, startTestSim, waitFinal, waitOperation, type Client, type TestSim } from './testkit.ts';

let t: TestSim;
beforeAll(async () => {
  t = await startTestSim();
});
afterAll(() => t.close());

const TS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/** Runs an operation request and waits for its final record. */
async function op(c: Client, path: string, body?: unknown) {
  const r = await c.post(path, body);
  expect(r.status, r.text).toBe(200);
  expect(r.json).toEqual({ operation_id: expect.any(String), transaction_id: expect.any(String) });
  return waitOperation(c, r.json.operation_id);
}

describe('preauthorization', () => {
  it('authorizes with the outcome table and tags charge', async () => {
    const c = await pairClient(t);
    expect(await pay(c, 1000, P.preauth)).toMatchObject({ status: 'SUCCESS', tags: ['charge'], amount: 1000 });
    expect((await pay(c, 1051, P.preauth)).status).toBe('DECLINED');
    const withId = await c.post(P.preauth, { amount: 1000, client_transaction_id: 'pre-1' });
    expect((await waitFinal(c, withId.json.transaction_id)).client_transaction_id).toBe('pre-1');
  });

  it('runs an operation INITIATED -> IN_PROGRESS -> SUCCESS with its record', async () => {
    // Steps of 250 ms, not the file's 10: the read right after the request must land in INITIATED
    // (with 10 ms steps, a loaded runner read IN_PROGRESS already).
    const slow = await startTestSim({ stepDelayMs: 250, deadlineMs: 5000 });
    try {
      const c = await pairClient(slow);
      const pre = await pay(c, 1000, P.preauth);
      const r = await c.post(P.increment(pre.transaction_id), { amount: 500 });
      expect(r.status).toBe(200);
      expect(r.json.transaction_id).toBe(pre.transaction_id);
      const first = (await c.get(P.operation(r.json.operation_id))).json;
      expect(first).toEqual({
        operation_id: r.json.operation_id,
        operation_type: 'transaction.preauth.increment',
        transaction_id: pre.transaction_id,
        status: 'INITIATED',
        metadata: { amount: 500 },
      });
      await pollUntil(c, P.operation(r.json.operation_id), (j) => j.status === 'IN_PROGRESS');
      expect((await waitOperation(c, r.json.operation_id)).status).toBe('SUCCESS');
      expect((await c.get(P.operation('nope'))).status).toBe(404);
    } finally {
      await slow.close();
    }
  });

  it('adds increments to the authorized amount; complete sets the amount', async () => {
    const c = await pairClient(t);
    const pre = await pay(c, 1000, P.preauth);
    const id = pre.transaction_id;
    expect((await op(c, P.increment(id), { amount: 500 })).status).toBe('SUCCESS');
    const complete = await op(c, P.complete(id), { amount: 1500 });
    expect(complete).toMatchObject({ status: 'SUCCESS', operation_type: 'transaction.preauth.complete' });
    const s = (await c.get(P.status(id))).json;
    expect(s).toMatchObject({ status: 'SUCCESS', amount: 1500, total_amount: 1500 });
  });

  it('fails a complete above the authorized amount, and one below it succeeds', async () => {
    const c = await pairClient(t);
    const id = (await pay(c, 1000, P.preauth)).transaction_id;
    expect((await op(c, P.complete(id), { amount: 1001 })).status).toBe('FAILED');
    expect((await c.get(P.status(id))).json.amount).toBe(1000);
    expect((await op(c, P.complete(id), { amount: 800 })).status).toBe('SUCCESS');
    expect((await c.get(P.status(id))).json.amount).toBe(800);
  });

  it('chooses the operation outcome by its amount: 51 FAILED, 53 EXPIRED (authorizing nothing)', async () => {
    const c = await pairClient(t);
    const id = (await pay(c, 1000, P.preauth)).transaction_id;
    expect((await op(c, P.increment(id), { amount: 151 })).status).toBe('FAILED');
    expect((await op(c, P.increment(id), { amount: 153 })).status).toBe('EXPIRED');
    expect((await op(c, P.complete(id), { amount: 1151 })).status).toBe('FAILED');
    expect((await op(c, P.complete(id), { amount: 1000 })).status).toBe('SUCCESS');
  });

  it('fails any increment or complete after completion, though the request answers 200', async () => {
    const c = await pairClient(t);
    const id = (await pay(c, 1000, P.preauth)).transaction_id;
    expect((await op(c, P.complete(id), { amount: 1000 })).status).toBe('SUCCESS');
    expect((await op(c, P.increment(id), { amount: 100 })).status).toBe('FAILED');
    expect((await op(c, P.complete(id), { amount: 500 })).status).toBe('FAILED');
    expect((await c.get(P.status(id))).json.amount).toBe(1000);
  });

  it('answers 400 for a charge, a failed or a pending preauth, and bad amounts; 404 for unknown ids', async () => {
    const c = await pairClient(t);
    const charge = (await pay(c, 1000)).transaction_id;
    const failed = (await pay(c, 1052, P.preauth)).transaction_id;
    const ok = (await pay(c, 1000, P.preauth)).transaction_id;
    for (const path of [P.increment, P.complete]) {
      expect((await c.post(path(charge), { amount: 100 })).status).toBe(400);
      expect((await c.post(path(failed), { amount: 100 })).status).toBe(400);
      expect((await c.post(path(ok), { amount: 0 })).status).toBe(400);
      expect((await c.post(path(ok), {})).status).toBe(400);
      expect((await c.post(path('unknown'), { amount: 100 })).status).toBe(404);
    }
    const pending = await c.post(P.preauth, { amount: 1055 });
    expect((await c.post(P.increment(pending.json.transaction_id), { amount: 100 })).status).toBe(400);
    await c.post(P.cancel(pending.json.transaction_id));
  });
});

describe('revert', () => {
  it("reverts only the terminal's most recent SUCCESS transaction", async () => {
    const c = await pairClient(t);
    const older = (await pay(c, 1000)).transaction_id;
    const latest = (await pay(c, 2000)).transaction_id;
    const declined = (await pay(c, 1051)).transaction_id;
    expect((await c.post(P.revert(older))).status).toBe(400);
    expect((await c.post(P.revert(declined))).status).toBe(400);
    expect((await c.post(P.revert('unknown'))).status).toBe(404);
    const done = await op(c, P.revert(latest));
    expect(done).toEqual({
      operation_id: expect.any(String),
      operation_type: 'transaction.revert',
      transaction_id: latest,
      status: 'SUCCESS',
    });
    const s = (await c.get(P.status(latest))).json;
    expect(s.status).toBe('REVERTED');
    expect(s.reverted_at).toMatch(TS);
    expect((await c.post(P.revert(latest))).status).toBe(400);
    expect((await c.post(P.cancel(latest))).status).toBe(400);
  });
});

describe('refunds', () => {
  it('linked refund: new transaction tagged refund; SUCCESS grows the refunded total', async () => {
    const c = await pairClient(t);
    const orig = (await pay(c, 1057)).transaction_id; // total 1157 with the tip
    const r1 = await c.post(P.linkedRefund(orig), { amount: 500, client_transaction_id: 'rf-1' });
    expect(r1.status).toBe(200);
    expect(r1.json.transaction_id).not.toBe(orig);
    const refund = await waitFinal(c, r1.json.transaction_id);
    expect(refund).toMatchObject({ status: 'SUCCESS', tags: ['refund'], amount: 500, client_transaction_id: 'rf-1' });
    expect((await c.get(P.status(orig))).json.refund_total_amount).toBe(500);
    expect((await c.post(P.linkedRefund(orig), { amount: 658 })).status).toBe(400);
    const declined = await c.post(P.linkedRefund(orig), { amount: 151 });
    expect((await waitFinal(c, declined.json.transaction_id)).status).toBe('DECLINED');
    expect((await c.get(P.status(orig))).json.refund_total_amount).toBe(500);
    expect((await pay(c, 657, P.linkedRefund(orig))).status).toBe('SUCCESS');
    expect((await c.get(P.status(orig))).json.refund_total_amount).toBe(1157);
    expect((await c.post(P.linkedRefund(orig), { amount: 1 })).status).toBe(400);
  });

  it('linked refund: only for a SUCCESS transaction, with a valid amount', async () => {
    const c = await pairClient(t);
    const failed = (await pay(c, 1052)).transaction_id;
    expect((await c.post(P.linkedRefund(failed), { amount: 1 })).status).toBe(400);
    const ok = (await pay(c, 1000)).transaction_id;
    expect((await c.post(P.linkedRefund(ok), { amount: 0 })).status).toBe(400);
    expect((await c.post(P.linkedRefund(ok), { amount: '5' })).status).toBe(400);
    expect((await c.post(P.linkedRefund('unknown'), { amount: 1 })).status).toBe(404);
  });

  it('independent refund: tagged refund, same outcome table', async () => {
    const c = await pairClient(t);
    const ok = await c.post(P.refund, { amount: 700, client_transaction_id: 'ind-1' });
    expect(ok.status).toBe(200);
    expect(await waitFinal(c, ok.json.transaction_id)).toMatchObject({
      status: 'SUCCESS',
      tags: ['refund'],
      client_transaction_id: 'ind-1',
    });
    expect((await pay(c, 1052, P.refund)).status).toBe('FAILED');
    expect((await pay(c, 1051, P.refund)).status).toBe('DECLINED');
  });
});
