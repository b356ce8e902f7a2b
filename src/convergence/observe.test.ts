import { describe, expect, it } from 'vitest';
import { URL_SETTLE_SCALE, observe, quickestStep, serviceStep, settleWindow } from './observe.ts';

const FINAL = ['SUCCESS', 'FAILED', 'DECLINED', 'CANCELED', 'EXPIRED', 'REVERTED'];

/** A poll that answers the given statuses in turn, then repeats the last. */
function script(...statuses: (string | undefined)[]) {
  let i = 0;
  const seen: number[] = [];
  return {
    seen,
    poll: async () => {
      seen.push(Date.now());
      return { status: statuses[Math.min(i++, statuses.length - 1)] };
    },
  };
}

/** A poll whose every answer takes `answerMs`, answering the given statuses in turn; `times`: when each began, from the first. */
function slowScript(answerMs: number, ...statuses: string[]) {
  const s = script(...statuses);
  const times: number[] = [];
  let first: number | undefined;
  return {
    times,
    poll: async () => {
      first ??= Date.now();
      times.push(Date.now() - first);
      await new Promise((r) => setTimeout(r, answerMs));
      return s.poll();
    },
  };
}

/** A webhook channel for `observe`: `post` delivers a status (after `afterMs`, when given) and wakes the watch. */
function webhookChannel(...already: string[]) {
  const hooks: { status: string; channel: 'webhook'; atMs: number }[] = already.map((status) => ({ status, channel: 'webhook', atMs: 0 }));
  let wake = () => {};
  const post = (status: string, afterMs?: number) => {
    const deliver = () => {
      hooks.push({ status, channel: 'webhook', atMs: afterMs ?? 0 });
      wake();
    };
    if (afterMs === undefined) deliver();
    else setTimeout(deliver, afterMs);
  };
  return {
    post,
    webhooks: () => hooks,
    subscribe: (w: () => void) => {
      wake = w;
      return () => (wake = () => {});
    },
  };
}

describe('observe', () => {
  it('follows polling to a final status, folding repeats, and keeps watching for the settle window', async () => {
    const s = script('INITIATED', 'INITIATED', 'IN_PROGRESS', 'SUCCESS');
    const o = await observe({
      kind: 'transaction',
      id: 't',
      poll: s.poll,
      webhooksObservable: false,
      final: FINAL,
      deadlineMs: 2000,
      settleMs: 60,
      initialIntervalMs: 5,
    });
    expect(o.polled.map((p) => p.status)).toEqual(['INITIATED', 'IN_PROGRESS', 'SUCCESS']);
    expect(o.finalByPoll).toBe('SUCCESS');
    expect(o.timedOut).toBe(false);
    expect(s.seen.length).toBeGreaterThan(4); // it polled again after the first SUCCESS
  });

  it('sees a status that changes after it was final (within the settle window)', async () => {
    const s = script('SUCCESS', 'FAILED');
    const o = await observe({
      kind: 'transaction',
      id: 't',
      poll: s.poll,
      webhooksObservable: false,
      final: FINAL,
      deadlineMs: 2000,
      settleMs: 50,
      initialIntervalMs: 5,
    });
    expect(o.polled.map((p) => p.status)).toEqual(['SUCCESS', 'FAILED']);
  });

  it('polls the settle window once, at its end: a final status costs two polls, not five', async () => {
    const s = script('SUCCESS');
    const t0 = Date.now();
    await observe({
      kind: 'transaction',
      id: 't',
      poll: s.poll,
      webhooksObservable: false,
      final: FINAL,
      deadlineMs: 2000,
      settleMs: 80,
      initialIntervalMs: 5,
    });
    expect(s.seen).toHaveLength(2);
    expect(s.seen[1]! - s.seen[0]!).toBeGreaterThanOrEqual(80);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it('tells onFinal what it saw at the first final status, then watches the settle window on and still sees a change', async () => {
    const s = script('IN_PROGRESS', 'SUCCESS', 'FAILED');
    let soFar: Awaited<ReturnType<typeof observe>> | undefined;
    let calls = 0;
    const o = await observe({
      kind: 'transaction',
      id: 't',
      poll: s.poll,
      webhooksObservable: false,
      final: FINAL,
      deadlineMs: 2000,
      settleMs: 50,
      initialIntervalMs: 5,
      onFinal: (seen) => {
        calls++;
        soFar = seen;
      },
    });
    expect(calls).toBe(1);
    expect(soFar?.finalByPoll).toBe('SUCCESS');
    expect(soFar?.polled.map((p) => p.status)).toEqual(['IN_PROGRESS', 'SUCCESS']);
    expect(soFar?.timedOut).toBe(false);
    // The watch went on past onFinal: the change after the final status is in the full observation.
    expect(o.polled.map((p) => p.status)).toEqual(['IN_PROGRESS', 'SUCCESS', 'FAILED']);
  });

  it('does not call onFinal before the final webhook is in, nor when nothing becomes final', async () => {
    const timedOut: unknown[] = [];
    await observe({
      kind: 'transaction',
      id: 't',
      poll: script('IN_PROGRESS').poll,
      webhooksObservable: false,
      final: FINAL,
      deadlineMs: 60,
      initialIntervalMs: 5,
      onFinal: (seen) => timedOut.push(seen),
    });
    expect(timedOut).toEqual([]);
    const ch = webhookChannel();
    let webhooksAtOnFinal = -1;
    ch.post('SUCCESS', 40);
    await observe({
      kind: 'transaction',
      id: 't',
      poll: script('SUCCESS').poll,
      webhooks: ch.webhooks,
      subscribe: ch.subscribe,
      webhooksObservable: true,
      final: FINAL,
      deadlineMs: 2000,
      settleMs: 200,
      webhookGraceMs: 1000,
      initialIntervalMs: 5,
      onFinal: (seen) => (webhooksAtOnFinal = seen.webhooks.length),
    });
    expect(webhooksAtOnFinal).toBe(1);
  });

  it("scales the settle window to the service's quickest step seen, within its floor and ceiling", () => {
    const at = (...xs: [string, number][]) => xs.map(([status, atMs]) => ({ status, channel: 'poll' as const, atMs }));
    const polled = at(['INITIATED', 5], ['IN_PROGRESS', 130], ['SUCCESS', 260]);
    const hooks = at(['INITIATED', 1], ['IN_PROGRESS', 101], ['SUCCESS', 201]);
    expect(quickestStep(hooks)).toBe(100);
    expect(quickestStep(at(['SUCCESS', 5], ['SUCCESS', 50]))).toBeUndefined();
    expect(settleWindow(1000, undefined, polled, hooks)).toBe(1000);
    expect(settleWindow(1000, { steps: 4, minMs: 200 }, polled, hooks)).toBe(400);
    expect(settleWindow(1000, { steps: 4, minMs: 200 }, at(['IN_PROGRESS', 0], ['SUCCESS', 20]), [])).toBe(200);
    expect(settleWindow(1000, { steps: 4, minMs: 200 }, at(['IN_PROGRESS', 0], ['SUCCESS', 900]), [])).toBe(1000);
    // Final at the first poll: no step was seen, the whole window is watched.
    expect(settleWindow(1000, { steps: 4, minMs: 200 }, at(['SUCCESS', 5]), [])).toBe(1000);
  });

  it('with a scaled window, still sees a final status that changes one step later, and stops sooner', async () => {
    const statuses = ['IN_PROGRESS', 'SUCCESS', 'FAILED'];
    const started = Date.now();
    const poll = async () => ({ status: statuses[Math.min(Math.floor((Date.now() - started) / 60), 2)]! });
    const o = await observe({
      kind: 'transaction',
      id: 't',
      poll,
      webhooksObservable: false,
      final: FINAL,
      deadlineMs: 3000,
      settleMs: 2000,
      settleScale: { steps: 4, minMs: 100 },
      initialIntervalMs: 10,
    });
    expect(o.polled.map((p) => p.status)).toEqual(['IN_PROGRESS', 'SUCCESS', 'FAILED']);
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('takes no step from a change into a status the deadline brings; without a step of its own, the one seen elsewhere', () => {
    const at = (...xs: [string, number][]) => xs.map(([status, atMs]) => ({ status, channel: 'poll' as const, atMs }));
    const expired = at(['INITIATED', 5], ['EXPIRED', 2505]);
    const deadline = { reachedAtDeadline: ['EXPIRED'] };
    expect(quickestStep(expired)).toBe(2500);
    expect(quickestStep(expired, ['EXPIRED'])).toBeUndefined();
    // A step before the deadline's status still counts (the card never presented: IN_PROGRESS, then EXPIRED).
    expect(serviceStep(at(['INITIATED', 5], ['IN_PROGRESS', 105], ['EXPIRED', 2505]), [], ['EXPIRED'])).toBe(100);
    // No step of its own: the step seen elsewhere, within the floor and the ceiling; none seen anywhere: the ceiling.
    expect(settleWindow(1000, URL_SETTLE_SCALE, expired, [], deadline)).toBe(1000);
    expect(settleWindow(1000, URL_SETTLE_SCALE, expired, [], { ...deadline, stepElsewhere: () => 110 })).toBe(220);
    expect(settleWindow(1000, URL_SETTLE_SCALE, at(['CANCELED', 20]), [], { stepElsewhere: () => 8 })).toBe(200);
    expect(settleWindow(1000, URL_SETTLE_SCALE, expired, [], { ...deadline, stepElsewhere: () => 900 })).toBe(1000);
    expect(settleWindow(1000, URL_SETTLE_SCALE, expired, [], { ...deadline, stepElsewhere: () => undefined })).toBe(1000);
    // Its own step wins over the one seen elsewhere.
    expect(settleWindow(1000, URL_SETTLE_SCALE, at(['IN_PROGRESS', 0], ['SUCCESS', 300]), [], { stepElsewhere: () => 100 })).toBe(600);
    // The embedded simulator's fixed window (no scale) ignores both.
    expect(settleWindow(250, undefined, expired, [], { ...deadline, stepElsewhere: () => 100 })).toBe(250);
  });

  it('after a status the deadline brings, watches by the steps seen elsewhere, and still sees a change a step later', async () => {
    // INITIATED until the deadline (300 ms), EXPIRED, then FAILED one 60 ms step later: watched by the step
    // seen elsewhere, not the whole 2 s ceiling the deadline's gap gave.
    const started = Date.now();
    const poll = async () => {
      const t = Date.now() - started;
      return { status: t < 300 ? 'INITIATED' : t < 360 ? 'EXPIRED' : 'FAILED' };
    };
    const o = await observe({
      kind: 'transaction',
      id: 't',
      poll,
      webhooksObservable: false,
      final: FINAL,
      deadlineMs: 5000,
      settleMs: 2000,
      settleScale: URL_SETTLE_SCALE,
      reachedAtDeadline: ['EXPIRED'],
      stepElsewhere: () => 60,
      initialIntervalMs: 10,
      maxIntervalMs: 50,
    });
    expect(o.polled.map((p) => p.status)).toEqual(['INITIATED', 'EXPIRED', 'FAILED']);
    expect(o.elapsedMs).toBeLessThan(1200);
  });

  it("against a URL watches a final status two of the service's steps, and still sees one that changes a step later", async () => {
    const at = (...xs: [string, number][]) => xs.map(([status, atMs]) => ({ status, channel: 'webhook' as const, atMs }));
    // sim --step-delay 100: the window is 200 ms, not the 400 ms four steps gave.
    expect(settleWindow(1000, URL_SETTLE_SCALE, [], at(['INITIATED', 1], ['IN_PROGRESS', 101], ['SUCCESS', 201]))).toBe(200);
    expect(settleWindow(1000, URL_SETTLE_SCALE, [], at(['IN_PROGRESS', 0], ['SUCCESS', 300]))).toBe(600);
    // Polling only (no webhook wakes it), steps of 100 ms: the flip one step after SUCCESS is polled.
    const statuses = ['IN_PROGRESS', 'SUCCESS', 'FAILED'];
    const started = Date.now();
    const poll = async () => ({ status: statuses[Math.min(Math.floor((Date.now() - started) / 100), 2)]! });
    const o = await observe({
      kind: 'transaction',
      id: 't',
      poll,
      webhooksObservable: false,
      final: FINAL,
      deadlineMs: 3000,
      settleMs: 1000,
      settleScale: URL_SETTLE_SCALE,
      initialIntervalMs: 10,
    });
    expect(o.polled.map((p) => p.status)).toEqual(['IN_PROGRESS', 'SUCCESS', 'FAILED']);
  });

  it('times out at the deadline when nothing is final, and says so', async () => {
    const t0 = Date.now();
    const o = await observe({
      kind: 'operation',
      id: 'op',
      poll: script('IN_PROGRESS').poll,
      webhooksObservable: false,
      final: FINAL,
      deadlineMs: 150,
      initialIntervalMs: 5,
    });
    expect(o.timedOut).toBe(true);
    expect(o.finalByPoll).toBeUndefined();
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  /** Polling answers `statuses` in turn while `ch` delivers webhooks: a transaction watched with both channels. */
  const watchBoth = (ch: ReturnType<typeof webhookChannel>, statuses: string[], webhookGraceMs?: number) =>
    observe({
      kind: 'transaction',
      id: 't',
      poll: script(...statuses).poll,
      ...ch,
      webhooksObservable: true,
      final: FINAL,
      deadlineMs: 5000,
      settleMs: 20,
      initialIntervalMs: 5,
      ...(webhookGraceMs === undefined ? {} : { webhookGraceMs }),
    });

  it("waits for the final status's webhook when webhooks are observable, and ends when it comes", async () => {
    const ch = webhookChannel();
    ch.post('SUCCESS', 120);
    const o = await watchBoth(ch, ['SUCCESS']);
    expect([o.finalByPoll, o.finalByWebhook]).toEqual(['SUCCESS', 'SUCCESS']);
    expect(o.elapsedMs).toBeGreaterThanOrEqual(100);
    expect(o.elapsedMs).toBeLessThan(1500);
  });

  it('a final webhook of another status does not end the wait: the grace does, and what each channel said is reported', async () => {
    const ch = webhookChannel();
    ch.post('DECLINED', 50);
    const o = await watchBoth(ch, ['SUCCESS'], 300);
    expect([o.finalByPoll, o.finalByWebhook]).toEqual(['SUCCESS', 'DECLINED']);
    expect(o.elapsedMs).toBeGreaterThanOrEqual(300);
    expect(o.elapsedMs).toBeLessThan(1500);
  });

  it('a final status polling never saw (SUCCESS, FAILED one step later) waits for the webhook of the status polling read', async () => {
    // Polling reads FAILED first; SUCCESS's webhook is in, FAILED's comes 150 ms later (under load, after the settle window).
    const ch = webhookChannel('SUCCESS');
    ch.post('FAILED', 150);
    const o = await watchBoth(ch, ['IN_PROGRESS', 'FAILED'], 2000);
    expect(o.polled.map((p) => p.status)).toEqual(['IN_PROGRESS', 'FAILED']);
    expect(o.finalByWebhook).toBe('FAILED');
    expect(o.elapsedMs).toBeGreaterThanOrEqual(140);
    expect(o.elapsedMs).toBeLessThan(1500);
  });

  it('waits for a webhook of the final status only the grace after polling saw it, not to the deadline', async () => {
    const o = await observe({
      kind: 'transaction',
      id: 't',
      poll: script('IN_PROGRESS', 'SUCCESS').poll,
      webhooks: () => [],
      webhooksObservable: true,
      final: FINAL,
      deadlineMs: 5000,
      settleMs: 20,
      initialIntervalMs: 5,
      webhookGraceMs: 150,
    });
    expect(o.finalByPoll).toBe('SUCCESS');
    expect(o.finalByWebhook).toBeUndefined();
    expect(o.timedOut).toBe(false);
    expect(o.elapsedMs).toBeGreaterThanOrEqual(150);
    expect(o.elapsedMs).toBeLessThan(1500);
  });

  it("when the final status changes after it was final, waits the grace for the change's webhook, not only any final one", async () => {
    // SUCCESS by both channels, then FAILED by polling; the FAILED webhook comes 150 ms after.
    const ch = webhookChannel('SUCCESS');
    ch.post('FAILED', 150);
    const o = await observe({
      kind: 'transaction',
      id: 't',
      poll: script('SUCCESS', 'FAILED').poll,
      ...ch,
      webhooksObservable: true,
      final: FINAL,
      deadlineMs: 5000,
      settleMs: 20,
      initialIntervalMs: 5,
      webhookGraceMs: 2000,
    });
    expect(o.polled.map((p) => p.status)).toEqual(['SUCCESS', 'FAILED']);
    expect(o.finalByPoll).toBe('FAILED');
    expect(o.finalByWebhook).toBe('FAILED');
    expect(o.elapsedMs).toBeLessThan(1500);
    // A change whose webhook never comes: waited the grace from the change, then what was seen is judged.
    const never = await observe({
      kind: 'transaction',
      id: 't',
      poll: script('SUCCESS', 'FAILED').poll,
      webhooks: () => [{ status: 'SUCCESS', channel: 'webhook', atMs: 0 }],
      webhooksObservable: true,
      final: FINAL,
      deadlineMs: 5000,
      settleMs: 20,
      initialIntervalMs: 5,
      webhookGraceMs: 150,
    });
    expect(never.finalByPoll).toBe('FAILED');
    expect(never.finalByWebhook).toBe('SUCCESS');
    expect(never.elapsedMs).toBeGreaterThanOrEqual(150);
    expect(never.elapsedMs).toBeLessThan(1500);
  });

  it('tells each poll what is left of the deadline (the most it may wait for Retry-After)', async () => {
    const budgets: number[] = [];
    const poll = async ({ remainingMs }: { remainingMs: number }) => {
      budgets.push(remainingMs);
      return { status: 'IN_PROGRESS' };
    };
    await observe({ kind: 'transaction', id: 't', poll, webhooksObservable: false, final: FINAL, deadlineMs: 200, initialIntervalMs: 20 });
    expect(budgets.length).toBeGreaterThan(2);
    expect(budgets[0]).toBeLessThanOrEqual(200);
    expect(budgets[0]).toBeGreaterThan(150);
    expect(budgets.every((b, i) => b > 0 && (i === 0 || b < budgets[i - 1]!))).toBe(true);
  });

  it('does not add its back-off to time a poll already spent waiting (the client waited out a Retry-After)', async () => {
    const starts: number[] = [];
    const ends: number[] = [];
    const poll = async () => {
      starts.push(Date.now());
      if (starts.length === 3) await new Promise((r) => setTimeout(r, 450)); // the client waited inside the poll
      ends.push(Date.now());
      return { status: starts.length < 4 ? 'IN_PROGRESS' : 'SUCCESS' };
    };
    // Intervals 20, 400, 400: the third poll took longer than its 400 ms back-off.
    await observe({
      kind: 'transaction',
      id: 't',
      poll,
      webhooksObservable: false,
      final: FINAL,
      deadlineMs: 5000,
      settleMs: 0,
      initialIntervalMs: 20,
      factor: 20,
      maxIntervalMs: 400,
    });
    expect(starts[2]! - starts[1]!).toBeGreaterThanOrEqual(390); // a quick poll keeps the whole back-off
    expect(starts[3]! - starts[2]!).toBeLessThan(650); // not 450 + 400
    expect(starts[3]! - ends[2]!).toBeGreaterThanOrEqual(15); // yet never back to back: the first interval (20 ms)
  });

  it('cuts a Retry-After that reaches past the deadline at the deadline', async () => {
    const t0 = Date.now();
    const o = await observe({
      kind: 'transaction',
      id: 't',
      poll: async () => ({ status: undefined, retryAfterMs: 60_000 }),
      webhooksObservable: false,
      final: FINAL,
      deadlineMs: 200,
    });
    expect(o.timedOut).toBe(true);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it("stops waiting for a final status's webhook as soon as such waits are found futile", async () => {
    let futile = false;
    setTimeout(() => (futile = true), 100);
    const o = await observe({
      kind: 'transaction',
      id: 't',
      poll: script('SUCCESS').poll,
      webhooks: () => [],
      webhooksObservable: true,
      final: FINAL,
      deadlineMs: 5000,
      settleMs: 20,
      initialIntervalMs: 5,
      webhookGraceMs: 4000,
      webhookWaitFutile: () => futile,
    });
    expect(o.finalByPoll).toBe('SUCCESS');
    expect(o.elapsedMs).toBeLessThan(1500);
  });

  it('honours Retry-After between polls', async () => {
    let n = 0;
    const times: number[] = [];
    const poll = async () => {
      times.push(Date.now());
      return n++ === 0 ? { status: undefined, retryAfterMs: 200 } : { status: 'SUCCESS' };
    };
    await observe({
      kind: 'transaction',
      id: 't',
      poll,
      webhooksObservable: false,
      final: FINAL,
      deadlineMs: 2000,
      settleMs: 10,
      initialIntervalMs: 5,
    });
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(190);
  });

  it('polls again at once, not after the back-off, when a delivery came while a slow poll was under way', async () => {
    const ch = webhookChannel();
    const started = Date.now();
    const times: number[] = [];
    // Each answer takes 150 ms; the status is final from 100 ms on, and its webhook comes then.
    const poll = async () => {
      const at = Date.now() - started;
      times.push(at);
      await new Promise((r) => setTimeout(r, 150));
      return { status: at >= 100 ? 'SUCCESS' : 'INITIATED' };
    };
    ch.post('SUCCESS', 100);
    const o = await observe({
      kind: 'transaction',
      id: 't',
      poll,
      ...ch,
      webhooksObservable: true,
      final: FINAL,
      deadlineMs: 3000,
      settleMs: 200,
      initialIntervalMs: 400,
    });
    expect(o.finalByPoll).toBe('SUCCESS');
    // The second poll right after the first answer (about 150 ms), not 400 ms after the first began.
    expect(times[1]!, String(times)).toBeLessThan(300);
  });

  it('a delivery during a poll of the very status that poll answered is no news: the back-off is kept', async () => {
    const ch = webhookChannel();
    // The first answer (150 ms) is INITIATED, and INITIATED's webhook comes while it is under way.
    const { poll, times } = slowScript(150, 'INITIATED', 'SUCCESS');
    ch.post('INITIATED', 50);
    await observe({
      kind: 'transaction',
      id: 't',
      poll,
      ...ch,
      webhooksObservable: false,
      final: FINAL,
      deadlineMs: 3000,
      settleMs: 0,
      initialIntervalMs: 400,
    });
    // The second poll 400 ms after the first began, not at once after its answer (150 ms).
    expect(times[1]!, String(times)).toBeGreaterThanOrEqual(380);
  });

  it('after an answer slower than the first interval, polls again 20 ms later, not a first interval later', async () => {
    const { poll, times } = slowScript(300, 'INITIATED', 'SUCCESS');
    await observe({
      kind: 'transaction',
      id: 't',
      poll,
      webhooksObservable: false,
      final: FINAL,
      deadlineMs: 3000,
      settleMs: 0,
      initialIntervalMs: 200,
    });
    // The second poll about 320 ms after the first began (the answer took 300), not 500.
    expect(times[1]!, String(times)).toBeLessThan(420);
  });
});
