/**
 * The settle window of a convergence that saw no step of its own (a transaction the deadline ended)
 * against a URL: the steps the worker's other convergences saw, not the whole ceiling.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { sendJson, startTestServer } from '../client/test-server.ts';
import { Scope } from './scope.ts';
import { ServiceSteps } from './service-steps.ts';
import { scopeHost, testPairing } from './testing.ts';

const open: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (let close = open.pop(); close; close = open.pop()) await close();
});

/**
 * tx-steps: INITIATED, IN_PROGRESS 60 ms later, SUCCESS 60 ms after that; tx-left: INITIATED until its
 * deadline, 300 ms after its first poll, then EXPIRED. The times of tx-left's polls, from its first.
 */
async function service() {
  const first = new Map<string, number>();
  const leftPolls: number[] = [];
  const server = await startTestServer((req, res) => {
    const id = req.url!.includes('tx-left') ? 'tx-left' : 'tx-steps';
    if (!first.has(id)) first.set(id, Date.now());
    const t = Date.now() - first.get(id)!;
    if (id === 'tx-left') leftPolls.push(t);
    const status = id === 'tx-left' ? (t < 300 ? 'INITIATED' : 'EXPIRED') : t < 60 ? 'INITIATED' : t < 120 ? 'IN_PROGRESS' : 'SUCCESS';
    sendJson(res, { transaction_id: id, status, amount: 100, tip_amount: 0, total_amount: 100, currency: 'EUR' });
  });
  open.push(() => server.close());
  return { url: server.url, leftPolls };
}

const ctx = { deadlineMs: 5000, settleMs: 1000, settleScale: { steps: 2, minMs: 100 }, timeoutMs: 2000 };

describe("a convergence's settle window against a URL", () => {
  it("after the deadline's EXPIRED, scales to the steps the worker saw elsewhere; without any, the whole ceiling", async () => {
    const s = await service();
    const steps = new ServiceSteps();
    const scope = new Scope({ ...scopeHost(ctx), steps }, 'payment > expiry');
    const p = testPairing(s.url, open);
    expect((await scope.converge(p, 'transaction', 'tx-steps')).finalByPoll).toBe('SUCCESS');
    expect(steps.stepMs).toBeGreaterThanOrEqual(40);
    expect(steps.stepMs).toBeLessThan(200);
    const left = await scope.converge(p, 'transaction', 'tx-left');
    expect(left.finalByPoll).toBe('EXPIRED');
    // Watched two of the steps seen (at least 100 ms) past EXPIRED, not the 1 s ceiling the deadline's gap gave.
    const watchedPast = s.leftPolls.at(-1)! - s.leftPolls.find((t) => t >= 300)!;
    expect(watchedPast, String(s.leftPolls)).toBeLessThan(600);
    expect(watchedPast).toBeGreaterThanOrEqual(80);
    // The deadline's gap is no step: what the worker saw stays the 60 ms steps.
    expect(steps.stepMs).toBeLessThan(200);

    // A worker that has seen no step yet watches the whole ceiling.
    const fresh = await service();
    const alone = new Scope({ ...scopeHost(ctx), steps: new ServiceSteps() }, 'payment > expiry');
    expect((await alone.converge(testPairing(fresh.url, open), 'transaction', 'tx-left')).finalByPoll).toBe('EXPIRED');
    expect(fresh.leftPolls.at(-1)! - fresh.leftPolls.find((t) => t >= 300)!).toBeGreaterThanOrEqual(950);
  });
});
