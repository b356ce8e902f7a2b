/**
 * Fault switches of cancel, print slips, preauthorization operations, revert, refunds, the terminal's
 * waiting rows and webhook retries: each changes exactly what it names, and the normal behaviour is
 * back once it is switched off.
 */
import { describe, expect, it } from 'vitest';
import type { FaultId } from './faults.ts';
import {
  P,
  pairClient,
  pay,
  pollUntil,
  sleep,
  startReceiver,
  useFaultSims,
  waitFinal,
  waitOperation,
  type Client,
  type Receiver,
  type Res,
  type TestSim,
} from './testkit.ts';

let t: TestSim;
let slowSim: TestSim;
const receivers = useFaultSims([{}, { stepDelayMs: 150, deadlineMs: 3000 }], ([a, b]) => ((t = a!), (slowSim = b!)));

const withFault = (id: FaultId, on: TestSim = t) => on.sim.setFaults([id]);
const off = (on: TestSim = t) => on.sim.setFaults([]);

/** Starts a transaction and waits for its final record. */
async function run(c: Client, path: string, body: Record<string, unknown>): Promise<Res['json']> {
  const r = await c.post(path, body);
  expect(r.status, r.text).toBe(200);
  return waitFinal(c, r.json.transaction_id);
}

/** Starts an operation (answer 200 expected) and waits for its final record. */
async function operate(c: Client, path: string, body?: unknown): Promise<Res['json']> {
  const r = await c.post(path, body);
  expect(r.status, r.text).toBe(200);
  return waitOperation(c, r.json.operation_id);
}

const status = async (c: Client, id: string) => (await c.get(P.status(id))).json;

describe('preauthorization operation faults', () => {
  it('operation.status-outside-enum says PROCESSED instead of a final status, in records and webhooks', async () => {
    const rx = await startReceiver();
    receivers.push(rx);
    const c = await pairClient(t, { webhookUrl: rx.url });
    const pre = (await pay(c, 1000, P.preauth)).transaction_id;
    withFault('operation.status-outside-enum');
    const r = await c.post(P.increment(pre), { amount: 100 });
    expect(r.status).toBe(200);
    const rec = (await pollUntil(c, P.operation(r.json.operation_id), (j) => j.status === 'PROCESSED')).json;
    expect(rec).toMatchObject({ operation_id: r.json.operation_id, transaction_id: pre, status: 'PROCESSED' });
    await rx.waitFor((d) => d.some((x) => x.json.event === 'operation.processed'));
    const ops = rx.deliveries.filter((d) => String(d.json.event).startsWith('operation.'));
    expect(ops.map((d) => d.json.data.status)).not.toContain('SUCCESS');
    off();
    expect((await operate(c, P.increment(pre), { amount: 100 })).status).toBe('SUCCESS');
  });

  it(
    'operation.wrong-transaction-id: the reference of an increment or complete names another transaction; ' +
      "the record and revert's reference stay",
    async () => {
      const c = await pairClient(t);
      const pre = (await pay(c, 1000, P.preauth)).transaction_id;
      withFault('operation.wrong-transaction-id');
      for (const [path, amount] of [
        [P.increment(pre), 100],
        [P.complete(pre), 1100],
      ] as const) {
        const r = await c.post(path, { amount });
        expect(r.status).toBe(200);
        expect(r.json.transaction_id).not.toBe(pre);
        expect(r.json.transaction_id).toHaveLength(pre.length);
        expect((await pollUntil(c, P.operation(r.json.operation_id), (j) => j.status === 'SUCCESS')).json.transaction_id).toBe(pre);
      }
      const rev = await c.post(P.revert(pre));
      expect(rev.json.transaction_id).toBe(pre);
      off();
    },
  );

  it('operation.wrong-type names increments transaction.preauth.complete; other types stay', async () => {
    const c = await pairClient(t);
    const pre = (await pay(c, 1000, P.preauth)).transaction_id;
    withFault('operation.wrong-type');
    const inc = await operate(c, P.increment(pre), { amount: 100 });
    expect(inc).toMatchObject({ operation_type: 'transaction.preauth.complete', transaction_id: pre, status: 'SUCCESS' });
    expect((await operate(c, P.complete(pre), { amount: 1100 })).operation_type).toBe('transaction.preauth.complete');
    expect((await status(c, pre)).amount).toBe(1100); // the increment really was an increment
    expect((await operate(c, P.revert(pre))).operation_type).toBe('transaction.revert');
    off();
    const again = (await pay(c, 1000, P.preauth)).transaction_id;
    expect((await operate(c, P.increment(again), { amount: 100 })).operation_type).toBe('transaction.preauth.increment');
  });

  it('preauth.ops-on-any-transaction answers 200 on a charge or a declined preauth; the operation fails, nothing changes', async () => {
    const c = await pairClient(t);
    const charge = await pay(c, 1000);
    const declined = await pay(c, 1051, P.preauth);
    expect((await c.post(P.increment(charge.transaction_id), { amount: 100 })).status).toBe(400);
    withFault('preauth.ops-on-any-transaction');
    for (const [path, body] of [
      [P.increment(charge.transaction_id), { amount: 100 }],
      [P.complete(charge.transaction_id), { amount: 500 }],
      [P.complete(declined.transaction_id), { amount: 1000 }],
    ] as const) {
      expect((await operate(c, path, body)).status).toBe('FAILED');
    }
    expect(await status(c, charge.transaction_id)).toEqual(charge);
    expect(await status(c, declined.transaction_id)).toEqual(declined);
    off();
    expect((await c.post(P.complete(charge.transaction_id), { amount: 500 })).status).toBe(400);
  });

  it('preauth.complete-keeps-amount: a successful complete leaves the authorized amount', async () => {
    const c = await pairClient(t);
    withFault('preauth.complete-keeps-amount');
    const pre = (await pay(c, 1000, P.preauth)).transaction_id;
    expect((await operate(c, P.increment(pre), { amount: 200 })).status).toBe('SUCCESS');
    expect((await operate(c, P.complete(pre), { amount: 1200 })).status).toBe('SUCCESS');
    expect(await status(c, pre)).toMatchObject({ amount: 1000, total_amount: 1000 });
    expect((await operate(c, P.complete(pre), { amount: 1000 })).status).toBe('FAILED'); // still completed once
    off();
    const again = (await pay(c, 1000, P.preauth)).transaction_id;
    await operate(c, P.complete(again), { amount: 900 });
    expect((await status(c, again)).amount).toBe(900);
  });
});

describe('revert and refund faults', () => {
  it('revert.older-accepted answers 200 for an older SUCCESS; the operation fails and the transaction stays', async () => {
    const c = await pairClient(t);
    const older = await pay(c, 1000);
    await pay(c, 1100);
    expect((await c.post(P.revert(older.transaction_id))).status).toBe(400);
    withFault('revert.older-accepted');
    expect((await operate(c, P.revert(older.transaction_id))).status).toBe('FAILED');
    expect(await status(c, older.transaction_id)).toEqual(older);
    off();
    expect((await c.post(P.revert(older.transaction_id))).status).toBe(400);
  });

  it('revert.no-reverted-at turns the transaction REVERTED without reverted_at', async () => {
    const c = await pairClient(t);
    withFault('revert.no-reverted-at');
    const s = await pay(c, 1000);
    expect((await operate(c, P.revert(s.transaction_id))).status).toBe('SUCCESS');
    expect(await status(c, s.transaction_id)).toMatchObject({ status: 'REVERTED', reverted_at: null });
    off();
    const u = await pay(c, 1000);
    await operate(c, P.revert(u.transaction_id));
    expect((await status(c, u.transaction_id)).reverted_at).toEqual(expect.any(String));
  });

  it('refund.non-success-accepted starts a linked refund of a DECLINED transaction', async () => {
    const c = await pairClient(t);
    const declined = await pay(c, 1051);
    expect((await c.post(P.linkedRefund(declined.transaction_id), { amount: 100 })).status).toBe(400);
    withFault('refund.non-success-accepted');
    expect(await run(c, P.linkedRefund(declined.transaction_id), { amount: 100 })).toMatchObject({ status: 'SUCCESS', tags: ['refund'] });
    expect((await c.post(P.linkedRefund(declined.transaction_id), { amount: 2000 })).status).toBe(400); // the remainder still counts
    off();
    expect((await c.post(P.linkedRefund(declined.transaction_id), { amount: 100 })).status).toBe(400);
  });

  it('refund.above-remainder-accepted starts a linked refund above the remainder', async () => {
    const c = await pairClient(t);
    const s = await pay(c, 1000);
    expect((await c.post(P.linkedRefund(s.transaction_id), { amount: 1100 })).status).toBe(400);
    withFault('refund.above-remainder-accepted');
    expect((await run(c, P.linkedRefund(s.transaction_id), { amount: 1100 })).status).toBe('SUCCESS');
    expect((await status(c, s.transaction_id)).refund_total_amount).toBe(1100);
    off();
    expect((await c.post(P.linkedRefund(s.transaction_id), { amount: 1 })).status).toBe(400);
  });

  it('refund.tagged-charge tags linked and independent refunds charge; the original still counts the refund', async () => {
    const c = await pairClient(t);
    const s = await pay(c, 1000);
    withFault('refund.tagged-charge');
    const linked = await run(c, P.linkedRefund(s.transaction_id), { amount: 300 });
    expect(linked.tags).toEqual(['charge']);
    expect((await c.get(P.slip(linked.transaction_id))).json.tags).toEqual(['charge']);
    expect((await run(c, P.refund, { amount: 300 })).tags).toEqual(['charge']);
    expect((await status(c, s.transaction_id)).refund_total_amount).toBe(300);
    off();
    expect((await run(c, P.linkedRefund(s.transaction_id), { amount: 300 })).tags).toEqual(['refund']);
    expect((await run(c, P.refund, { amount: 300 })).tags).toEqual(['refund']);
  });

  it("refund.total-unchanged leaves the original's refund_total_amount at 0", async () => {
    const c = await pairClient(t);
    const s = await pay(c, 1000);
    withFault('refund.total-unchanged');
    expect((await run(c, P.linkedRefund(s.transaction_id), { amount: 300 })).status).toBe('SUCCESS');
    expect((await status(c, s.transaction_id)).refund_total_amount).toBe(0);
    off();
    await run(c, P.linkedRefund(s.transaction_id), { amount: 300 });
    expect((await status(c, s.transaction_id)).refund_total_amount).toBe(300);
  });
});

describe('cancel, slip and waiting faults', () => {
  it('cancel.final-stamps-canceled-at: still 400, but canceled_at is set and nothing else changes', async () => {
    const c = await pairClient(t);
    const s = await pay(c, 1000);
    withFault('cancel.final-stamps-canceled-at');
    expect((await c.post(P.cancel(s.transaction_id))).status).toBe(400);
    const after = await status(c, s.transaction_id);
    expect(after.canceled_at).toEqual(expect.any(String));
    expect({ ...after, canceled_at: null }).toEqual(s);
    off();
    const u = await pay(c, 1000);
    expect((await c.post(P.cancel(u.transaction_id))).status).toBe(400);
    expect(await status(c, u.transaction_id)).toEqual(u);
  });

  it('cancel.in-progress-fails ends an approving IN_PROGRESS payment FAILED; 54 and INITIATED still cancel', async () => {
    const c = await pairClient(slowSim);
    const cancelInProgress = async (amount: number) => {
      const id = (await c.post(P.generate, { amount })).json.transaction_id;
      await pollUntil(c, P.status(id), (j) => j.status === 'IN_PROGRESS');
      expect((await c.post(P.cancel(id))).status).toBe(200);
      return (await waitFinal(c, id)).status;
    };
    withFault('cancel.in-progress-fails', slowSim);
    expect(await cancelInProgress(1000)).toBe('FAILED');
    expect(await cancelInProgress(1054)).toBe('CANCELED');
    const fresh = (await c.post(P.generate, { amount: 1000 })).json.transaction_id;
    await c.post(P.cancel(fresh));
    expect((await status(c, fresh)).status).toBe('CANCELED');
    off(slowSim);
    expect(await cancelInProgress(1000)).toBe('CANCELED');
  });

  it('terminal.offline-picks-up: a 55 is IN_PROGRESS at once and waits there until canceled', async () => {
    const c = await pairClient(t);
    withFault('terminal.offline-picks-up');
    const id = (await c.post(P.generate, { amount: 1055 })).json.transaction_id;
    expect((await status(c, id)).status).toBe('IN_PROGRESS');
    await sleep(60);
    expect((await status(c, id)).status).toBe('IN_PROGRESS');
    await c.post(P.cancel(id));
    expect((await waitFinal(c, id)).status).toBe('CANCELED');
    off();
    const waiting = (await c.post(P.generate, { amount: 1055 })).json.transaction_id;
    await sleep(60);
    expect((await status(c, waiting)).status).toBe('INITIATED');
    await c.post(P.cancel(waiting));
  });

  it('slip.unsuccessful-final-400 refuses the slip of DECLINED and CANCELED transactions; SUCCESS stays 200', async () => {
    const c = await pairClient(t);
    const declined = await pay(c, 1051);
    const canceled = (await c.post(P.generate, { amount: 1055 })).json.transaction_id;
    await c.post(P.cancel(canceled));
    const ok = await pay(c, 1000);
    withFault('slip.unsuccessful-final-400');
    for (const id of [declined.transaction_id, canceled]) {
      const r = await c.get(P.slip(id));
      expect(r.status).toBe(400);
      expect(r.json.detail).toEqual(expect.any(String));
    }
    expect((await c.get(P.slip(ok.transaction_id))).status).toBe(200);
    off();
    expect((await c.get(P.slip(declined.transaction_id))).status).toBe(200);
  });
});

describe('webhook retry fault', () => {
  /** A receiver that answers 500 to its first delivery and 200 afterwards. */
  async function failingFirst(): Promise<Receiver> {
    const rx = await startReceiver((n) => (n === 0 ? 500 : 200));
    receivers.push(rx);
    return rx;
  }

  it('webhook.no-retry drops a delivery answered 500; later events still arrive', async () => {
    const rx = await failingFirst();
    const c = await pairClient(t, { webhookUrl: rx.url });
    withFault('webhook.no-retry');
    await pay(c, 1000);
    await rx.waitFor((d) => d.length >= 3);
    await sleep(100); // far beyond the scaled retry schedule
    const ids = rx.deliveries.map((d) => d.json.event_id);
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    off();
    const back = await failingFirst();
    const d = await pairClient(t, { webhookUrl: back.url });
    await pay(d, 1000);
    await back.waitFor((x) => x.length >= 4);
    expect(back.deliveries.filter((x) => x.json.event_id === back.deliveries[0]?.json.event_id)).toHaveLength(2);
  });
});
