/**
 * The manual virtual terminal (issue 16): transactions wait for an operator action given over
 * `POST /_sim/terminals/{id}/actions` or `handle.act`; the amount's outcome row decides nothing.
 */
import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { operations } from '../generated/contract.ts';
import { FaultSet } from './faults.ts';
import type { Txn, TxnStatus } from './model.ts';
import { resolveSimulatorOptions, SIMULATOR_DEFAULTS, type TerminalView } from './options.ts';
import { Rng } from './rng.ts';
import { startSimulator } from './simulator.ts';
import { makeMerchant } from './store.ts';
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
  type Res,
  type TestSim,
} from './testkit.ts';
import { VirtualTerminal, type TerminalAction } from './virtual-terminal.ts';

let manual: TestSim;
let auto: TestSim;
const log: string[] = [];
const waits: TerminalView[] = [];
const MANUAL_DEADLINE = 1000;
const receivers = useFaultSims(
  [{ terminal: 'manual', manualDeadlineMs: MANUAL_DEADLINE, onRequest: (l) => log.push(l), onTerminalWaiting: (v) => waits.push(v) }, {}],
  ([m, a]) => ((manual = m!), (auto = a!)),
);

const actions = (id: string) => `/_sim/terminals/${id}/actions`;
const act = (t: TestSim, terminalId: string, body: unknown): Promise<Res> => t.http.call('POST', actions(terminalId), { body });

function expectError(r: Res, status: number, detail: RegExp): void {
  expect(r.status, r.text).toBe(status);
  expect(r.headers['content-type']).toBe('application/json');
  expect(Object.keys(r.json)).toEqual(['detail']);
  expect(r.json.detail).toMatch(detail);
}

/** A paired client of the manual simulator, with a webhook receiver. */
async function hooked(t: TestSim = manual) {
  const rx = await startReceiver();
  receivers.push(rx);
  const c = await pairClient(t, { webhookUrl: rx.url });
  return { c, rx, tid: c.pairing.terminal_id as string };
}

async function startTxn(c: Client, amount: number, path: string = P.generate): Promise<string> {
  const r = await c.post(path, { amount });
  expect(r.status, r.text).toBe(200);
  return r.json.transaction_id as string;
}

const inProgress = (c: Client, id: string) => pollUntil(c, P.status(id), (j) => j.status === 'IN_PROGRESS');

describe('manual mode: each action leads to its final status', () => {
  // Amounts chosen so that the auto outcome row would give something else: the row must not decide.
  it.each([
    ['present-card', 1051, 'SUCCESS'],
    ['decline', 1000, 'DECLINED'],
    ['fail', 1000, 'FAILED'],
    ['remove-card', 1000, 'FAILED'],
    ['timeout', 1000, 'EXPIRED'],
  ] as const)('%s on a waiting payment of %i ends %s (polling and webhook)', async (action, amount, final) => {
    const { c, rx, tid } = await hooked();
    const id = await startTxn(c, amount);
    await inProgress(c, id);
    await sleep(60); // six steps: an auto terminal would have finished long ago
    expect((await c.get(P.status(id))).json.status).toBe('IN_PROGRESS');

    const r = await act(manual, tid, { action });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ terminal_id: tid, transaction_id: id, action, status: action === 'timeout' ? 'EXPIRED' : 'IN_PROGRESS' });
    const rec = await waitFinal(c, id);
    expect(rec.status).toBe(final);
    expect(rec.payment_method).toBe('CARD');
    if (final === 'SUCCESS')
      expect(rec).toMatchObject({
        tip_amount: 0,
        card_number: expect.stringMatching(/^\*{4} \*{4} \*{4} \d{4}$/),
        approve_code: expect.any(String),
      });
    else
      expect(rec).toMatchObject({ card_number: null, approve_code: null, completed_at: final === 'EXPIRED' ? null : expect.any(String) });

    await rx.waitFor((d) => d.some((x) => x.json.data.status === final));
    const events = rx.deliveries.map((d) => d.json.event);
    expect(events).toEqual(['transaction.initiated', 'transaction.in_progress', `transaction.${final.toLowerCase()}`]);
    expect(rx.deliveries[2]?.json.data).toEqual(rec);
  });

  it('applies to preauthorizations and refunds too; an operation is host-side and automatic (no amount row)', async () => {
    const { c, tid } = await hooked();
    const pre = await startTxn(c, 2052, P.preauth);
    await inProgress(c, pre);
    expect((await act(manual, tid, { action: 'present-card' })).json.status).toBe('IN_PROGRESS');
    expect(await waitFinal(c, pre)).toMatchObject({ status: 'SUCCESS', amount: 2052 });
    // 51 would fail an auto increment; here only the rules of apply() count.
    const inc = await c.post(P.increment(pre), { amount: 1051 });
    expect((await waitOperation(c, inc.json.operation_id)).status).toBe('SUCCESS');
    const tooMuch = await c.post(P.complete(pre), { amount: 2052 + 1051 + 1 });
    expect((await waitOperation(c, tooMuch.json.operation_id)).status).toBe('FAILED');
    const done = await c.post(P.complete(pre), { amount: 3051 });
    expect((await waitOperation(c, done.json.operation_id)).status).toBe('SUCCESS');
    expect((await c.get(P.status(pre))).json.amount).toBe(3051);

    const refund = await startTxn(c, 1053, P.refund);
    await inProgress(c, refund);
    expectError(await act(manual, tid, { action: 'add-tip' }), 400, /refund/);
    expect((await act(manual, tid, { action: 'decline' })).status).toBe(200);
    expect(await waitFinal(c, refund)).toMatchObject({ status: 'DECLINED', tags: ['refund'] });
  });

  it('add-tip then present-card puts the tip on the record (default 100, or the amount given)', async () => {
    const { c, rx, tid } = await hooked();
    const id = await startTxn(c, 1000);
    await inProgress(c, id);
    const tip = await act(manual, tid, { action: 'add-tip', amount: 250 });
    expect(tip.json).toEqual({ terminal_id: tid, transaction_id: id, action: 'add-tip', status: 'IN_PROGRESS' });
    expect(manual.sim.terminals().find((v) => v.terminal_id === tid)?.waiting).toMatchObject({ transaction_id: id, tip: 250 });
    await sleep(40);
    expect((await c.get(P.status(id))).json).toMatchObject({ status: 'IN_PROGRESS', tip_amount: 0 }); // still waiting for the card
    await act(manual, tid, { action: 'present-card' });
    expect(await waitFinal(c, id)).toMatchObject({ status: 'SUCCESS', amount: 1000, tip_amount: 250, total_amount: 1250 });
    await rx.waitFor((d) => d.length >= 3);
    expect(rx.deliveries[2]?.json.data).toMatchObject({ status: 'SUCCESS', tip_amount: 250 });

    const id2 = await startTxn(c, 1000);
    await inProgress(c, id2);
    expect(manual.sim.act(tid, 'add-tip').status).toBe('IN_PROGRESS');
    manual.sim.act(tid, 'present-card');
    expect(await waitFinal(c, id2)).toMatchObject({ tip_amount: 100, total_amount: 1100 });
    // A 57 gets no tip of its own in manual mode.
    const id3 = await startTxn(c, 1057);
    await inProgress(c, id3);
    manual.sim.act(tid, 'present-card');
    expect((await waitFinal(c, id3)).tip_amount).toBe(0);
  });

  it('without an action a transaction EXPIREs at manualDeadlineMs, not at the auto deadline', async () => {
    const { c, rx, tid } = await hooked();
    const started = Date.now();
    const id = await startTxn(c, 1000);
    await inProgress(c, id);
    await sleep(500); // past the 300 ms auto deadline of the test simulator
    expect((await c.get(P.status(id))).json.status).toBe('IN_PROGRESS');
    const rec = await waitFinal(c, id, 3000);
    const took = Date.now() - started;
    expect(rec.status).toBe('EXPIRED');
    expect(took).toBeGreaterThanOrEqual(MANUAL_DEADLINE - 20);
    expect(took).toBeLessThan(MANUAL_DEADLINE + 1500);
    await rx.waitFor((d) => d.length >= 3);
    expect(rx.deliveries.map((d) => d.json.event)).toEqual(['transaction.initiated', 'transaction.in_progress', 'transaction.expired']);
    expectError(await act(manual, tid, { action: 'present-card' }), 409, /nothing waits/);
  });

  it('cancel while waiting: IN_PROGRESS reaches CANCELED and no longer takes actions', async () => {
    const { c, rx, tid } = await hooked();
    const id = await startTxn(c, 1056); // 56 would refuse the cancel in auto mode
    await inProgress(c, id);
    expect((await c.post(P.cancel(id))).status).toBe(200);
    expectError(await act(manual, tid, { action: 'present-card' }), 409, /nothing waits/);
    expect((await waitFinal(c, id)).status).toBe('CANCELED');
    await rx.waitFor((d) => d.length >= 3);
    expect(rx.deliveries[2]?.json.event).toBe('transaction.canceled');
    expect((await c.post(P.cancel(id))).status).toBe(400);
  });
});

describe('the control API', () => {
  it('GET /_sim/terminals lists every terminal and what waits, in manual mode', async () => {
    const { c, tid } = await hooked();
    const idle = await hooked();
    const id = await startTxn(c, 1234);
    const r = await manual.http.call('GET', '/_sim/terminals');
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.json.mode).toBe('manual');
    const mine = r.json.terminals.find((v: TerminalView) => v.terminal_id === tid);
    expect(mine.waiting).toEqual({
      transaction_id: id,
      kind: 'payment',
      amount: 1234,
      status: expect.stringMatching(/^(INITIATED|IN_PROGRESS)$/),
      tip: 0,
      since_ms: expect.any(Number),
    });
    expect(r.json.terminals.find((v: TerminalView) => v.terminal_id === idle.tid).waiting).toBeNull();
    expect((await manual.http.call('GET', '/_sim/terminals/')).json.mode).toBe('manual');
    expect(manual.sim.terminals()).toEqual(expect.arrayContaining([expect.objectContaining({ terminal_id: tid })]));
    expect(manual.sim.terminalMode).toBe('manual');
    await inProgress(c, id);
    await sleep(30);
    expect(manual.sim.terminals().find((v) => v.terminal_id === tid)?.waiting).toMatchObject({
      status: 'IN_PROGRESS',
      since_ms: expect.any(Number),
    });
    expect(manual.sim.terminals().find((v) => v.terminal_id === tid)!.waiting!.since_ms).toBeGreaterThanOrEqual(30);
    manual.sim.act(tid, 'timeout');
    expect(manual.sim.terminals().find((v) => v.terminal_id === tid)?.waiting).toBeNull();
  });

  it('GET /_sim/terminals answers in auto mode too, with nothing ever waiting; POST actions is 404 there', async () => {
    const c = await pairClient(auto);
    const tid = c.pairing.terminal_id as string;
    const id = await startTxn(c, 1054); // waits for a card in auto mode, but for no operator
    await inProgress(c, id);
    const r = await auto.http.call('GET', '/_sim/terminals');
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ mode: 'auto', terminals: expect.arrayContaining([{ terminal_id: tid, waiting: null }]) });
    const unknownPath = await auto.http.call('GET', '/_sim/nope/');
    expectError(unknownPath, 404, /no such endpoint/);
    expectError(await act(auto, tid, { action: 'present-card' }), 404, /not in manual mode/);
    expectError(await act(auto, tid, 'not json'), 404, /not in manual mode/);
    expect(auto.sim.terminalMode).toBe('auto');
    expect(() => auto.sim.act(tid, 'present-card')).toThrow(
      expect.objectContaining({ code: 'PCC_SIMULATOR', message: expect.stringMatching(/^404: .*not in manual mode/) }),
    );
    await c.post(P.cancel(id));
    expect((await waitFinal(c, id)).status).toBe('CANCELED');
  });

  it('answers 404 to an unknown terminal, 409 when nothing waits, 400 to a bad action, body or amount', async () => {
    const { c, tid } = await hooked();
    expectError(await act(manual, '89999999', { action: 'present-card' }), 404, /no such terminal/);
    expectError(await act(manual, tid, { action: 'present-card' }), 409, /nothing waits/);
    expect(() => manual.sim.act(tid, 'decline')).toThrow(
      expect.objectContaining({ code: 'PCC_SIMULATOR', message: expect.stringMatching(/^409: /) }),
    );
    expect(() => manual.sim.act('89999999', 'decline')).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/^404: no such terminal/) }),
    );
    const id = await startTxn(c, 1000);
    await inProgress(c, id);
    for (const body of [{ action: 'swipe' }, {}, { action: 5 }]) expectError(await act(manual, tid, body), 400, /action must be one of/);
    for (const body of ['{bad', '[1]', '']) expectError(await act(manual, tid, body), 400, /JSON|body/);
    for (const amount of [0, 100_001, 1.5, '100', -5])
      expectError(await act(manual, tid, { action: 'add-tip', amount }), 400, /amount must be an integer from 1 to 100000/);
    expectError(await act(manual, tid, { action: 'present-card', amount: 100 }), 400, /add-tip only/);
    expect(() => manual.sim.act(tid, 'swipe' as TerminalAction)).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/^400: /) }),
    );
    expect(() => manual.sim.act(tid, 'add-tip', 0)).toThrow(expect.objectContaining({ message: expect.stringMatching(/^400: amount/) }));
    // None of the refusals touched the transaction: it still waits, and the boundaries are accepted.
    expect((await act(manual, tid, { action: 'add-tip', amount: 100_000 })).status).toBe(200);
    expect((await act(manual, tid, { action: 'add-tip', amount: 1, extra: true })).status).toBe(200);
    expect((await act(manual, tid, { action: 'present-card' })).json.status).toBe('IN_PROGRESS');
    expectError(await act(manual, tid, { action: 'decline' }), 409, /nothing waits/); // a finishing action came first
    expect(await waitFinal(c, id)).toMatchObject({ status: 'SUCCESS', tip_amount: 1 });
    const wrong = await manual.http.call('GET', actions(tid));
    expect(wrong.status).toBe(405);
  });

  it('logs control requests through onRequest, and keeps them out of the contract', async () => {
    const { tid } = await hooked();
    const before = log.length;
    await manual.http.call('GET', '/_sim/terminals');
    await act(manual, tid, { action: 'fail' });
    expect(log.slice(before)).toEqual([
      expect.stringMatching(/^GET \/_sim\/terminals 200 \d+ms$/),
      expect.stringMatching(new RegExp(`^POST /_sim/terminals/${tid}/actions 409 \\d+ms$`)),
    ]);
    expect(operations.some((o) => new RegExp(o.pattern).test('/_sim/terminals') || new RegExp(o.pattern).test(actions(tid)))).toBe(false);
    const yaml = readFileSync(new URL('../../contracts/pay-connect.openapi.yaml', import.meta.url), 'utf8');
    expect(yaml).not.toContain('/_sim');
    expect(yaml).toContain('/v1/pay-connect/transactions/generate/'); // the file read is the contract
  });

  it('reports each waiting transaction through onTerminalWaiting at its creation', async () => {
    const { c, tid } = await hooked();
    const before = waits.length;
    const id = await startTxn(c, 4321);
    expect(waits.slice(before)).toEqual([
      {
        terminal_id: tid,
        waiting: { transaction_id: id, kind: 'payment', amount: 4321, status: 'INITIATED', tip: 0, since_ms: expect.any(Number) },
      },
    ]);
    manual.sim.act(tid, 'timeout');
    expect((await c.get(P.status(id))).json.status).toBe('EXPIRED');
  });
});

describe('fault switches in manual mode', () => {
  it('transaction.never-converges: actions are accepted but ignored', async () => {
    const { c, tid } = await hooked();
    manual.sim.setFaults(['transaction.never-converges']);
    const id = await startTxn(c, 1000);
    await inProgress(c, id);
    for (const action of ['present-card', 'timeout', 'decline'] as const) {
      expect((await act(manual, tid, { action })).json).toMatchObject({ transaction_id: id, status: 'IN_PROGRESS' });
    }
    await sleep(60);
    expect((await c.get(P.status(id))).json.status).toBe('IN_PROGRESS');
    manual.sim.setFaults([]);
    manual.sim.act(tid, 'present-card'); // still waiting: once the fault is off, an action counts
    expect((await waitFinal(c, id)).status).toBe('SUCCESS');
  });

  it("tip.ignored drops the operator's tip; wire faults never bend the control surface", async () => {
    const { c, tid } = await hooked();
    manual.sim.setFaults(['tip.ignored', 'error.non-json', 'content-type.text-plain', 'slow']);
    const id = await startTxn(c, 1000);
    await pollUntil(c, P.status(id), (j) => j.status === 'IN_PROGRESS');
    const started = performance.now();
    const list = await manual.http.call('GET', '/_sim/terminals');
    expect(list.headers['content-type']).toBe('application/json');
    expect(performance.now() - started).toBeLessThan(140); // `slow` delays API answers by 150 ms
    expect((await act(manual, tid, { action: 'add-tip' })).headers['content-type']).toBe('application/json');
    expectError(await act(manual, tid, { action: 'nope' }), 400, /action/);
    expectError(await act(manual, '89999999', { action: 'fail' }), 404, /terminal/);
    manual.sim.act(tid, 'present-card');
    expect((await waitFinal(c, id)).tip_amount).toBe(0);
    // The same faults do bend the Pay-Connect API, so the checks above would have seen them.
    const bent = await c.get(P.status('nope'));
    expect(bent.headers['content-type']).toMatch(/^text\/plain/);
  });
});

describe('auto mode is unchanged', () => {
  it('decides by the amount, takes no action and reports nothing waiting', async () => {
    const c = await pairClient(auto);
    expect((await pay(c, 1051)).status).toBe('DECLINED');
    expect((await pay(c, 1057)).tip_amount).toBe(100);
    expect(auto.sim.terminals().every((v) => v.waiting === null)).toBe(true);
  });
});

describe('options', () => {
  it('default to auto with a 120 s manual deadline, and refuse bad values naming the option', async () => {
    expect(resolveSimulatorOptions()).toMatchObject({ terminal: 'auto', manualDeadlineMs: 120_000 });
    expect(SIMULATOR_DEFAULTS).toMatchObject({ terminal: 'auto', manualDeadlineMs: 120_000 });
    for (const [o, name] of [
      [{ terminal: 'x' }, 'terminal'],
      [{ terminal: 'MANUAL' }, 'terminal'],
      [{ manualDeadlineMs: 999 }, 'manualDeadlineMs'],
      [{ manualDeadlineMs: 3_600_001 }, 'manualDeadlineMs'],
      [{ manualDeadlineMs: 1500.5 }, 'manualDeadlineMs'],
      [{ stepDelayMs: 600, manualDeadlineMs: 1200 }, 'manualDeadlineMs'],
      [{ onTerminalWaiting: 5 }, 'onTerminalWaiting'],
    ] as const) {
      await expect(startSimulator(o as never)).rejects.toMatchObject({
        code: 'PCC_CONFIG_INVALID',
        message: expect.stringContaining(`option ${name} `),
      });
    }
    expect(resolveSimulatorOptions({ terminal: 'manual', manualDeadlineMs: 1000 })).toMatchObject({
      terminal: 'manual',
      manualDeadlineMs: 1000,
    });
    expect(resolveSimulatorOptions({ manualDeadlineMs: 3_600_000 }).manualDeadlineMs).toBe(3_600_000);
  });
});

describe('the manual state machine in process (fake timers)', () => {
  const STEP = 100;
  let events: string[];
  let term: VirtualTerminal;
  const make = (faults: FaultSet = new FaultSet()) => {
    const rng = new Rng(1);
    return new VirtualTerminal(
      {
        settings: { stepDelayMs: STEP, deadlineMs: 3000, maxFinalPerTerminal: 10, terminal: 'manual', manualDeadlineMs: 5000 },
        faults,
        rng,
        now: Date.now,
        hooks: {
          onTransaction: (t) => events.push(t.status),
          onOperation: () => undefined,
          onWaiting: (t) => events.push(`waiting ${t.amount}`),
        },
      },
      makeMerchant(rng),
    );
  };
  beforeEach(() => {
    vi.useFakeTimers();
    events = [];
    term = make();
  });
  afterEach(() => {
    term.dispose();
    vi.useRealTimers();
  });
  const settle = (t: Txn, ms: number): TxnStatus => {
    vi.advanceTimersByTime(ms);
    return t.status;
  };

  it.each([
    ['present-card', 'SUCCESS'],
    ['decline', 'DECLINED'],
    ['fail', 'FAILED'],
    ['remove-card', 'FAILED'],
  ] as const)('%s on an INITIATED transaction picks it up at once, then ends %s one step later', (action, end) => {
    const t = term.start('payment', 1000, null, null);
    expect(term.act(action)).toEqual({ kind: 'ok', t });
    expect(t.status).toBe('IN_PROGRESS');
    expect(settle(t, STEP - 1)).toBe('IN_PROGRESS');
    expect(settle(t, 1)).toBe(end);
    expect(events).toEqual(['INITIATED', 'waiting 1000', 'IN_PROGRESS', end]);
    expect(term.stats()).toMatchObject({ pending: 0, timed: 0 });
  });

  it('no outcome row applies: a 55 (offline) and a 53 are picked up and wait like any other', () => {
    const t = term.start('payment', 1055, null, null);
    expect(settle(t, STEP)).toBe('IN_PROGRESS');
    expect(term.waiting()).toBe(t);
    term.act('present-card');
    expect(settle(t, STEP)).toBe('SUCCESS');
    const u = term.start('payment', 1053, null, null);
    expect(settle(u, 10 * STEP)).toBe('IN_PROGRESS');
    term.act('decline');
    expect(settle(u, STEP)).toBe('DECLINED');
  });

  it('timeout and cancel on an INITIATED transaction end it at once', () => {
    const t = term.start('payment', 1000, null, null);
    term.act('timeout');
    expect(t.status).toBe('EXPIRED');
    expect(term.act('present-card')).toEqual({ kind: 'nothing-waits' });
    const u = term.start('payment', 1055, null, null);
    expect(term.cancel(u)).toBe('accepted');
    expect(u.status).toBe('CANCELED');
    expect(events).toEqual(['INITIATED', 'waiting 1000', 'EXPIRED', 'INITIATED', 'waiting 1055', 'CANCELED']);
  });

  it('a finishing action that came first wins over a cancel; a cancel that came first wins over later actions', () => {
    const t = term.start('payment', 1000, null, null);
    settle(t, STEP);
    expect(t.status).toBe('IN_PROGRESS');
    term.act('present-card');
    expect(term.cancel(t)).toBe('accepted');
    expect(settle(t, STEP)).toBe('SUCCESS');
    const u = term.start('payment', 1000, null, null);
    settle(u, STEP);
    term.cancel(u);
    expect(term.waiting()).toBeNull();
    expect(term.act('present-card')).toEqual({ kind: 'nothing-waits' });
    expect(settle(u, STEP)).toBe('CANCELED');
  });

  it('a decided transaction no longer expires at its deadline; an undecided one does', () => {
    const t = term.start('payment', 1000, null, null);
    vi.advanceTimersByTime(5000 - 50);
    term.act('decline');
    expect(settle(t, STEP)).toBe('DECLINED');
    const u = term.start('payment', 1000, null, null);
    expect(settle(u, 4999)).toBe('IN_PROGRESS');
    expect(settle(u, 1)).toBe('EXPIRED');
  });

  it('add-tip keeps the transaction waiting; the oldest waiting transaction takes the action (busy.no-409)', () => {
    const a = term.start('payment', 1000, null, null);
    const b = term.start('preauth', 2000, null, null);
    settle(a, STEP);
    expect(term.act('add-tip', 300)).toEqual({ kind: 'ok', t: a });
    expect(term.pendingTip(a)).toBe(300);
    expect(term.waiting()).toBe(a);
    term.act('present-card');
    expect(term.waiting()).toBe(b);
    settle(a, STEP);
    expect(a).toMatchObject({ status: 'SUCCESS', tip: 300 });
    expect(b.status).toBe('IN_PROGRESS');
  });

  it('cancel.in-progress-fails bends a canceled presented card to FAILED', () => {
    term.dispose();
    term = make(new FaultSet(['cancel.in-progress-fails']));
    const t = term.start('payment', 1000, null, null);
    settle(t, STEP);
    term.act('present-card');
    term.cancel(t);
    expect(settle(t, STEP)).toBe('FAILED');
  });
});
