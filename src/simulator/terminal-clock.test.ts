/**
 * A terminal's clock skipped ahead (`POST /_sim/clock`, issue 43): what would have happened in real
 * time happens at once, in the same order and with the same outcome, on that terminal only.
 */
import { describe, expect, it } from 'vitest';
import { TerminalClock } from './terminal-clock.ts';
import { P, pairClient, sleep, startReceiver, useFaultSims, type Client, type TestSim } from './testkit.ts';

describe('TerminalClock', () => {
  it('fires the timers due within the skip, earliest first (equal dues in the order set), and moves its time', () => {
    let base = 1_000;
    const clock = new TerminalClock(() => base);
    const seen: string[] = [];
    clock.set(() => seen.push('b@300'), 300);
    clock.set(() => seen.push('a@100'), 100);
    clock.set(() => {
      seen.push('c@100');
      clock.set(() => seen.push(`d@${clock.now() - 1_000}`), 50); // set while skipping: due at 150
    }, 100);
    clock.set(() => seen.push('late@900'), 900);
    const s = clock.skip(400);
    expect(seen).toEqual(['a@100', 'c@100', 'd@150', 'b@300']);
    expect(s).toEqual({ skippedMs: 400, fired: 4 });
    expect(clock.now()).toBe(1_400);
    expect(clock.pending).toBe(1);
    base += 10;
    expect(clock.skippedMs).toBe(400);
    clock.clearAll();
    expect(clock.pending).toBe(0);
  });

  it('stops at the timer after which the condition holds, and leaves the rest to real time', async () => {
    const clock = new TerminalClock(() => Date.now());
    let state = 'INITIATED';
    const before = clock.now();
    clock.set(() => (state = 'IN_PROGRESS'), 200);
    clock.set(() => (state = 'SUCCESS'), 400);
    let flipped = false;
    clock.set(() => (flipped = true), 430);
    const s = clock.skip(60_000, () => state === 'SUCCESS');
    expect(state).toBe('SUCCESS');
    expect(s.fired).toBe(2);
    expect(s.skippedMs).toBeGreaterThanOrEqual(395);
    expect(s.skippedMs).toBeLessThan(600);
    expect(clock.now() - before).toBeGreaterThanOrEqual(400);
    expect(flipped).toBe(false);
    await sleep(120); // 30 ms of the clock after the skip: real time fires it
    expect(flipped).toBe(true);
  });
});

describe('POST /_sim/clock', () => {
  let sim: TestSim;
  const receivers = useFaultSims([{ stepDelayMs: 50, deadlineMs: 5_000 }], ([s]) => (sim = s!));
  const skip = (body: unknown) => sim.http.call('POST', '/_sim/clock', { body });
  async function start(c: Client, amount: number, path: string = P.generate): Promise<string> {
    const r = await c.post(path, { amount });
    expect(r.status, r.text).toBe(200);
    return r.json.transaction_id as string;
  }

  it('a 54 waits for its deadline: a skip expires it at once, its webhook posted, stamped on the skipped clock', async () => {
    const rx = await startReceiver();
    receivers.push(rx);
    const c = await pairClient(sim, { webhookUrl: rx.url });
    const id = await start(c, 1054);
    const started = Date.now();
    const r = await skip({ id, max_ms: 60_000 });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toMatchObject({ terminal_id: c.pairing.terminal_id, id, status: 'EXPIRED', fired: 2 });
    expect(r.json.skipped_ms).toBeGreaterThanOrEqual(4_900);
    expect(Date.now() - started).toBeLessThan(2_000);
    const rec = (await c.get(P.status(id))).json;
    expect(rec.status).toBe('EXPIRED');
    await rx.waitFor((d) => d.some((x) => x.json.event === 'transaction.expired'));
    // Its terminal's clock is ahead: the record's created_at is of the old time, and a new one is stamped later.
    const next = await start(c, 1000);
    const created = Date.parse(String((await c.get(P.status(next))).json.created_at));
    expect(created - Date.parse(String(rec.created_at))).toBeGreaterThanOrEqual(4_000);
  });

  it('goes through the steps real time would: an approved payment passes IN_PROGRESS and a cancel signal still wins', async () => {
    const rx = await startReceiver();
    receivers.push(rx);
    const c = await pairClient(sim, { webhookUrl: rx.url });
    const paid = await start(c, 1000);
    expect((await skip({ id: paid, max_ms: 60_000 })).json.status).toBe('SUCCESS');
    await rx.waitFor((d) => d.filter((x) => x.json.data?.transaction_id === paid).length === 3);
    expect(rx.deliveries.filter((x) => x.json.data?.transaction_id === paid).map((x) => x.json.event)).toEqual([
      'transaction.initiated',
      'transaction.in_progress',
      'transaction.success',
    ]);
    // 52 (declined) picked up, then canceled: CANCELED a step later, the skip takes it there.
    const declined = await start(c, 1052);
    await sleep(80);
    expect((await c.post(P.cancel(declined))).status).toBe(200);
    expect((await skip({ id: declined, max_ms: 60_000 })).json.status).toBe('CANCELED');
  });

  it('an operation converges at once; another terminal keeps real time', async () => {
    const c = await pairClient(sim);
    const other = await pairClient(sim);
    const pre = await start(c, 2000, P.preauth);
    await skip({ id: pre, max_ms: 60_000 });
    const waiting = await start(other, 3054);
    const op = await c.post(P.complete(pre), { amount: 1500 });
    expect(op.status, op.text).toBe(200);
    const r = await skip({ id: op.json.operation_id, max_ms: 60_000 });
    expect(r.json).toMatchObject({ id: op.json.operation_id, status: 'SUCCESS', fired: 2 });
    expect(['INITIATED', 'IN_PROGRESS']).toContain((await other.get(P.status(waiting))).json.status);
  });

  it('settle_ms: once final, that much more of the clock passes (a SUCCESS that flips a step later has flipped)', async () => {
    sim.sim.setFaults(['transition.final-changes']);
    const c = await pairClient(sim);
    const first = await start(c, 1000);
    const r = await skip({ id: first, max_ms: 60_000 });
    expect(r.json).toMatchObject({ status: 'SUCCESS', final: true });
    expect((await c.get(P.status(first))).json.status).toBe('SUCCESS'); // the flip is 50 ms of real time away
    const started = Date.now();
    const second = await start(c, 2000);
    const s = await skip({ id: second, max_ms: 60_000, settle_ms: 60 });
    expect(s.json).toMatchObject({ status: 'FAILED', final: true });
    expect(s.json.fired).toBeGreaterThanOrEqual(3); // its steps and flip (the first one's flip too, when still due)
    // Its clock went past the flip: skipped, or passed in real time before the skip (more on a loaded runner).
    expect(s.json.skipped_ms + (Date.now() - started)).toBeGreaterThanOrEqual(150);
  });

  it('refuses what it cannot do: an unknown id (404), a bad id or max_ms (400)', async () => {
    expect((await skip({ id: '00000000-0000-4000-8000-000000000000', max_ms: 10 })).status).toBe(404);
    expect((await skip({ max_ms: 10 })).status).toBe(400);
    const c = await pairClient(sim);
    const id = await start(c, 1000);
    for (const max_ms of [0, 1.5, '10', 600_001]) expect((await skip({ id, max_ms })).status, String(max_ms)).toBe(400);
    for (const settle_ms of [-1, 2.5, '10']) expect((await skip({ id, max_ms: 10, settle_ms })).status, String(settle_ms)).toBe(400);
  });
});
