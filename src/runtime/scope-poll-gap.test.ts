/**
 * How often a convergence polls: where its webhooks reach the harness, a delivery wakes a poll at
 * once and the polls in between start at the settle window's floor (firstPollGapMs); where they do
 * not, polling starts at 20 ms, as it always did.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer } from '../client/test-server.ts';
import type { Delivery, WebhookReceiver } from '../webhooks/index.ts';
import { Scope, firstPollGapMs } from './scope.ts';
import { scopeHost, testPairing } from './testing.ts';

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (let close = open.pop(); close; close = open.pop()) await close();
});

/** A transaction INITIATED for `finalAfterMs`, then SUCCESS; the times of its polls, from the start. */
async function service(finalAfterMs: number) {
  const started = Date.now();
  const polls: number[] = [];
  const server = await startTestServer((_req, res) => {
    polls.push(Date.now() - started);
    const status = Date.now() - started < finalAfterMs ? 'INITIATED' : 'SUCCESS';
    sendJson(res, { transaction_id: 'tx-1', status, amount: 100, tip_amount: 0, total_amount: 100, currency: 'EUR' });
  });
  open.push(() => server.close());
  return { url: server.url, polls, started };
}

/** A receiver the test hands deliveries to (the webhook checks are not this test's). */
function receiver() {
  const listeners = new Set<(d: Delivery) => void>();
  const got: Delivery[] = [];
  const rx = {
    url: 'http://127.0.0.1:9/hook',
    eventsFor: (id: string) => got.filter((d) => JSON.stringify(d.body).includes(id)),
    deliveries: () => [...got],
    onDelivery: (l: (d: Delivery) => void) => (listeners.add(l), () => listeners.delete(l)),
    close: async () => undefined,
  };
  const deliver = (status: string) => {
    const d = {
      receivedAt: Date.now(),
      signature: 'valid',
      event: 'transaction.status_changed',
      body: { data: { transaction_id: 'tx-1', status } },
    } as unknown as Delivery;
    got.push(d);
    for (const l of listeners) l(d);
  };
  return { rx: rx as unknown as WebhookReceiver, deliver };
}

const scope = (settleMs: number) =>
  new Scope(scopeHost({ deadlineMs: 5000, settleMs, webhookGraceMs: 300, timeoutMs: 2000 }), 'payment > polls');

const pairing = (url: string, rx: WebhookReceiver | undefined) => testPairing(url, open, rx);

describe('the polls of a convergence', () => {
  it('start at the settle window floor, at most 200 ms, where webhooks reach the harness', () => {
    expect(firstPollGapMs({ settleMs: 1000, settleScale: { steps: 2, minMs: 200 } })).toBe(200); // a URL
    expect(firstPollGapMs({ settleMs: 80 })).toBe(80); // the embedded simulator, 20 ms steps
    expect(firstPollGapMs({ settleMs: 1000 })).toBe(200); // the liberal sandbox, --settle 1s
    expect(firstPollGapMs({ settleMs: 0 })).toBe(20);
  });

  it('with webhooks: a delivery wakes a poll at once, and no poll repeats the last one 20 ms later', async () => {
    const s = await service(600);
    const { rx, deliver } = receiver();
    const delivered: number[] = [];
    const at = (ms: number, status: string) =>
      setTimeout(() => {
        delivered.push(Date.now() - s.started);
        deliver(status);
      }, ms);
    at(300, 'IN_PROGRESS');
    at(620, 'SUCCESS');
    const obs = await scope(200).converge(pairing(s.url, rx), 'transaction', 'tx-1');
    expect(obs.finalByPoll).toBe('SUCCESS');
    // Polled at the start and 200 ms later (not at 20, 50, 95...), then as each delivery comes (the
    // next regular poll would be 300 ms after the last), and once more as the settle window ends.
    expect(s.polls.filter((t) => t < delivered[0]!).length, String(s.polls)).toBeLessThanOrEqual(2);
    for (const d of delivered)
      expect(
        s.polls.some((t) => t >= d && t < d + 150),
        `${s.polls} after ${d}`,
      ).toBe(true);
    expect(s.polls.length, String(s.polls)).toBeLessThanOrEqual(6);
  });

  it('without webhooks: polled from 20 ms on, growing by half', async () => {
    const s = await service(600);
    const obs = await scope(200).converge(pairing(s.url, undefined), 'transaction', 'tx-1');
    expect(obs.finalByPoll).toBe('SUCCESS');
    // 0, 20, 50, 95, 162, 263, 395 ms...
    expect(s.polls.filter((t) => t < 400).length, String(s.polls)).toBeGreaterThanOrEqual(4);
  });
});
