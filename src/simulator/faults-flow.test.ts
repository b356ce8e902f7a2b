/**
 * Fault switches that act on the terminal's flow, on webhooks and on isolation, plus the legal
 * ones: each changes exactly what it names.
 */
import { createHmac } from 'node:crypto';
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
  type TestSim,
} from './testkit.ts';

let t: TestSim;
let slowSim: TestSim;
const receivers = useFaultSims([{}, { stepDelayMs: 150, deadlineMs: 3000 }], ([a, b]) => ((t = a!), (slowSim = b!)));

const withFault = (id: FaultId, on: TestSim = t) => on.sim.setFaults([id]);
const hmac = (key: string, raw: Buffer) => createHmac('sha256', key).update(raw).digest('hex');

async function hooked(on: TestSim = t): Promise<{ c: Client; rx: Receiver }> {
  const rx = await startReceiver();
  receivers.push(rx);
  return { c: await pairClient(on, { webhookUrl: rx.url }), rx };
}

describe('terminal flow faults', () => {
  it('transition.final-changes flips SUCCESS to FAILED one step later; other finals stay', async () => {
    // On the slow sim: SUCCESS stands one 150 ms step, which polling sees even on a loaded machine (a
    // 10 ms step was missed between two polls there).
    const { c, rx } = await hooked(slowSim);
    withFault('transition.final-changes', slowSim);
    const id = (await c.post(P.generate, { amount: 1000 })).json.transaction_id;
    await pollUntil(c, P.status(id), (j) => j.status === 'SUCCESS', 5000);
    await pollUntil(c, P.status(id), (j) => j.status === 'FAILED', 5000);
    await rx.waitFor((d) => d.length >= 4);
    expect(rx.deliveries.map((d) => d.json.event)).toEqual([
      'transaction.initiated',
      'transaction.in_progress',
      'transaction.success',
      'transaction.failed',
    ]);
    const declined = await pay(c, 1051);
    await sleep(250); // past the step a flip would take
    expect((await c.get(P.status(declined.transaction_id))).json.status).toBe('DECLINED');
  });

  it('transaction.never-converges keeps transactions IN_PROGRESS past the deadline, cancel or not', async () => {
    const c = await pairClient(t);
    withFault('transaction.never-converges');
    const id = (await c.post(P.generate, { amount: 1000 })).json.transaction_id;
    await pollUntil(c, P.status(id), (j) => j.status === 'IN_PROGRESS');
    expect((await c.post(P.cancel(id))).status).toBe(200);
    await sleep(400); // past the 300 ms deadline
    expect((await c.get(P.status(id))).json.status).toBe('IN_PROGRESS');
  });

  it('generate.accepts-zero-amount accepts 0 and negatives on generate only', async () => {
    const c = await pairClient(t);
    withFault('generate.accepts-zero-amount');
    expect((await pay(c, 0)).status).toBe('SUCCESS');
    expect((await pay(c, -5)).amount).toBe(-5);
    expect((await c.post(P.generate, { amount: 1.5 })).status).toBe(400);
    expect((await c.post(P.preauth, { amount: 0 })).status).toBe(400);
  });

  it('cancel.final-accepted answers 200 to cancel of a final transaction, still changing nothing', async () => {
    const c = await pairClient(t);
    const s = await pay(c, 1000);
    withFault('cancel.final-accepted');
    expect((await c.post(P.cancel(s.transaction_id))).status).toBe(200);
    expect((await c.get(P.status(s.transaction_id))).json).toEqual(s);
  });

  it('busy.no-409 accepts a second transaction while one is pending', async () => {
    const c = await pairClient(t);
    const first = (await c.post(P.generate, { amount: 1055 })).json.transaction_id;
    expect((await c.post(P.generate, { amount: 1000 })).status).toBe(409);
    withFault('busy.no-409');
    const second = await c.post(P.generate, { amount: 1000 });
    expect(second.status).toBe(200);
    expect((await waitFinal(c, second.json.transaction_id)).status).toBe('SUCCESS');
    expect((await c.get(P.status(first))).json.status).toBe('INITIATED');
    await c.post(P.cancel(first));
  });

  it('preauth.increment-after-complete-succeeds changes only an increment after completion', async () => {
    const c = await pairClient(t);
    withFault('preauth.increment-after-complete-succeeds');
    const id = (await pay(c, 1000, P.preauth)).transaction_id;
    const run = async (path: string, amount: number) => waitOperation(c, (await c.post(path, { amount })).json.operation_id);
    expect((await run(P.increment(id), 151)).status).toBe('FAILED'); // the outcome table still holds
    expect((await run(P.complete(id), 2000)).status).toBe('FAILED'); // still above the authorized amount
    expect((await run(P.complete(id), 900)).status).toBe('SUCCESS');
    expect((await run(P.complete(id), 900)).status).toBe('FAILED'); // complete after complete still fails
    expect((await run(P.increment(id), 100)).status).toBe('SUCCESS'); // the broken rule
  });

  it('tip.ignored gives 57 no tip', async () => {
    const c = await pairClient(t);
    withFault('tip.ignored');
    expect(await pay(c, 1057)).toMatchObject({ status: 'SUCCESS', tip_amount: 0, total_amount: 1057 });
  });

  it("isolation.leak answers another pairing's status and slip; other endpoints stay isolated", async () => {
    const a = await pairClient(t);
    const b = await pairClient(t);
    const s = await pay(a, 1000);
    withFault('isolation.leak');
    expect((await b.get(P.status(s.transaction_id))).json).toEqual(s);
    expect((await b.get(P.slip(s.transaction_id))).status).toBe(200);
    expect((await b.post(P.cancel(s.transaction_id))).status).toBe(404);
    expect((await b.get(P.status('unknown'))).status).toBe(404);
  });
});

describe('webhook faults', () => {
  it('webhook.unsigned drops the Signature header only', async () => {
    const { c, rx } = await hooked();
    withFault('webhook.unsigned');
    await pay(c, 1000);
    await rx.waitFor((d) => d.length >= 3);
    for (const d of rx.deliveries) {
      expect(d.headers.signature).toBeUndefined();
      expect(d.headers['content-type']).toBe('application/json');
    }
  });

  it('webhook.bad-signature signs with another key', async () => {
    const { c, rx } = await hooked();
    withFault('webhook.bad-signature');
    await pay(c, 1000);
    await rx.waitFor((d) => d.length >= 3);
    for (const d of rx.deliveries) {
      expect(d.headers.signature).toMatch(/^[0-9a-f]{64}$/);
      expect(d.headers.signature).not.toBe(hmac(c.pairing.webhook_secret_key as string, d.raw));
    }
  });

  it('webhook.signed-other-bytes signs the compact body and sends a spaced one: same JSON, other bytes', async () => {
    const { c, rx } = await hooked();
    withFault('webhook.signed-other-bytes');
    await pay(c, 1000);
    await rx.waitFor((d) => d.length >= 3);
    const key = c.pairing.webhook_secret_key as string;
    for (const d of rx.deliveries) {
      const compact = Buffer.from(JSON.stringify(d.json), 'utf8');
      expect(d.raw.toString('utf8')).toContain('", "');
      expect(d.raw.equals(compact)).toBe(false);
      expect(d.headers.signature).not.toBe(hmac(key, d.raw));
      // The signature is right for bytes the receiver never got: the compact, key-sorted form.
      expect(d.headers.signature).toBe(hmac(key, compact));
    }
  });

  it('webhook.disagrees-with-polling reports another final status; earlier events agree', async () => {
    const { c, rx } = await hooked();
    withFault('webhook.disagrees-with-polling');
    const ok = await pay(c, 1000);
    await rx.waitFor((d) => d.length >= 3);
    expect(rx.deliveries.map((d) => d.json.event)).toEqual(['transaction.initiated', 'transaction.in_progress', 'transaction.declined']);
    expect(rx.deliveries[2]?.json.data.status).toBe('DECLINED');
    expect(ok.status).toBe('SUCCESS');
    await pay(c, 1051);
    await rx.waitFor((d) => d.length >= 6);
    expect(rx.deliveries[5]?.json.event).toBe('transaction.success');
    for (const d of rx.deliveries) expect(d.headers.signature).toBe(hmac(c.pairing.webhook_secret_key as string, d.raw));
  });

  it('webhook.data-tip-mismatch: the final webhook of a tipped payment says no tip; polling and untipped payments keep it', async () => {
    const { c, rx } = await hooked();
    withFault('webhook.data-tip-mismatch');
    const tipped = await pay(c, 1057);
    expect(tipped).toMatchObject({ tip_amount: 100, total_amount: 1157 });
    await rx.waitFor((d) => d.length >= 3);
    const final = rx.deliveries[2]!.json.data;
    expect(final).toMatchObject({ status: 'SUCCESS', amount: 1057, tip_amount: 0, total_amount: 1057 });
    await pay(c, 1000);
    await rx.waitFor((d) => d.length >= 6);
    expect(rx.deliveries[5]?.json.data).toMatchObject({ status: 'SUCCESS', tip_amount: 0, total_amount: 1000 });
    for (const d of rx.deliveries) expect(d.headers.signature).toBe(hmac(c.pairing.webhook_secret_key as string, d.raw));
  });

  it('webhook.bad-schema sends bodies without event_id, still signed over the exact bytes', async () => {
    const { c, rx } = await hooked();
    withFault('webhook.bad-schema');
    await pay(c, 1000);
    await rx.waitFor((d) => d.length >= 3);
    for (const d of rx.deliveries) {
      const body = JSON.parse(d.raw.toString('utf8'));
      expect(Object.keys(body).sort()).toEqual(['data', 'event']);
      expect(d.headers.signature).toBe(hmac(c.pairing.webhook_secret_key as string, d.raw));
    }
  });

  it('webhook.none sends nothing; deliveries resume when it is switched off', async () => {
    const { c, rx } = await hooked();
    withFault('webhook.none');
    await pay(c, 1000);
    await sleep(100);
    expect(rx.deliveries).toHaveLength(0);
    t.sim.setFaults([]);
    await pay(c, 1000);
    await rx.waitFor((d) => d.length >= 3);
  });
});

describe('legal faults', () => {
  it('webhook.duplicate sends every delivery twice with the same event_id and bytes', async () => {
    const { c, rx } = await hooked();
    withFault('webhook.duplicate');
    await pay(c, 1000);
    await rx.waitFor((d) => d.length >= 6);
    await sleep(50);
    const byId = new Map<string, Buffer[]>();
    for (const d of rx.deliveries) byId.set(d.json.event_id, [...(byId.get(d.json.event_id) ?? []), d.raw]);
    expect(byId.size).toBe(3);
    for (const copies of byId.values()) {
      expect(copies).toHaveLength(2);
      expect(copies[0]?.equals(copies[1] as Buffer)).toBe(true);
    }
  });

  it('webhook.out-of-order delivers every event, signed, but not always in order', async () => {
    const { c, rx } = await hooked();
    withFault('webhook.out-of-order');
    for (let i = 0; i < 10; i++) await pay(c, 1000 + i);
    await rx.waitFor((d) => d.length >= 30, 3000);
    const ranks: Record<string, number> = { 'transaction.initiated': 0, 'transaction.in_progress': 1, 'transaction.success': 2 };
    const byTxn = new Map<string, number[]>();
    for (const d of rx.deliveries) {
      expect(d.headers.signature).toBe(hmac(c.pairing.webhook_secret_key as string, d.raw));
      byTxn.set(d.json.data.transaction_id, [...(byTxn.get(d.json.data.transaction_id) ?? []), ranks[d.json.event] as number]);
    }
    expect(byTxn.size).toBe(10);
    for (const r of byTxn.values()) expect([...r].sort()).toEqual([0, 1, 2]);
    expect([...byTxn.values()].some((r) => r.join() !== '0,1,2')).toBe(true);
  });

  it('slow delays every answer by 150 ms, changing nothing else', async () => {
    const c = await pairClient(t);
    withFault('slow');
    const began = Date.now();
    const r = await c.get(P.config);
    expect(Date.now() - began).toBeGreaterThanOrEqual(145);
    expect(r.json.currency).toBe('EUR');
    expect((await c.get(P.status('x'))).status).toBe(404);
  });

  it('cancel.race-success lets an approving IN_PROGRESS payment complete; 54 and INITIATED still cancel', async () => {
    const c = await pairClient(slowSim);
    withFault('cancel.race-success', slowSim);
    const id = (await c.post(P.generate, { amount: 1000 })).json.transaction_id;
    await pollUntil(c, P.status(id), (j) => j.status === 'IN_PROGRESS');
    expect((await c.post(P.cancel(id))).status).toBe(200);
    expect((await waitFinal(c, id)).status).toBe('SUCCESS');
    const waiting = (await c.post(P.generate, { amount: 1054 })).json.transaction_id;
    await pollUntil(c, P.status(waiting), (j) => j.status === 'IN_PROGRESS');
    await c.post(P.cancel(waiting));
    expect((await waitFinal(c, waiting)).status).toBe('CANCELED');
    const fresh = (await c.post(P.generate, { amount: 1000 })).json.transaction_id;
    await c.post(P.cancel(fresh));
    expect((await c.get(P.status(fresh))).json.status).toBe('CANCELED');
  });

  it('token.short-lived answers expires_in "2" and the token really expires', async () => {
    withFault('token.short-lived');
    const c = await pairClient(t);
    expect((await c.login()).json.expires_in).toBe('2');
    expect((await c.get(P.config)).status).toBe(200);
    await sleep(2100);
    expect((await c.get(P.config)).status).toBe(401);
  });
});
