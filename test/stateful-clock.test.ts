/**
 * The model-based parts skip the terminal's clock on the embedded simulator only (issue 43): a URL or
 * a Pact mock keeps its own time; a skip that fails leaves the wait as it was.
 */
import { afterAll, beforeAll, expect, test } from 'vitest';
import { P, pairClient, startTestSim, type TestSim } from '../src/simulator/testkit.ts';
import { clockSkipper } from '../suites/_setup/steps/clock.ts';

let sim: TestSim;
beforeAll(async () => {
  sim = await startTestSim({ stepDelayMs: 50, deadlineMs: 5_000 });
});
afterAll(() => sim.close());

test('never against a URL or a Pact mock', () => {
  for (const targetKind of ['url', 'pact'] as const)
    expect(clockSkipper({ targetKind, baseUrl: sim.sim.url, deadlineMs: 10_000, settleMs: 80 })).toBeUndefined();
});

test('on the embedded simulator: a 54 expires at once, within the run deadline, and the settle window is gone through', async () => {
  const skip = clockSkipper({ targetKind: 'sim', baseUrl: sim.sim.url, deadlineMs: 10_000, settleMs: 80 })!;
  const c = await pairClient(sim);
  const started = await c.post(P.generate, { amount: 1054 });
  const id = started.json.transaction_id as string;
  const t0 = Date.now();
  const s = await skip(id);
  expect(s.settled).toBe(true);
  expect(s.line).toMatch(/^clock \+\d+ ms: EXPIRED$/);
  expect(Date.now() - t0).toBeLessThan(2_000);
  expect((await c.get(P.status(id))).json.status).toBe('EXPIRED');
});

test('not past the run deadline: a transaction that would not be final by then is still pending, and nothing is settled', async () => {
  const skip = clockSkipper({ targetKind: 'sim', baseUrl: sim.sim.url, deadlineMs: 1_000, settleMs: 80 })!;
  const c = await pairClient(sim);
  const id = (await c.post(P.generate, { amount: 2054 })).json.transaction_id as string;
  const s = await skip(id);
  expect(s.settled).toBe(false);
  // The clock ends at the run's deadline, 1000 ms on from where the skip began: the figure is that
  // less the real milliseconds the skip itself took (0 or 1 on a loaded machine), never more.
  const skipped = /^clock \+(\d+) ms: IN_PROGRESS$/.exec(s.line);
  expect(skipped, s.line).not.toBeNull();
  expect(Number(skipped![1])).toBeGreaterThan(900);
  expect(Number(skipped![1])).toBeLessThanOrEqual(1000);
});

test('a skip that fails settles nothing and says why (the wait then runs in real time)', async () => {
  const skip = clockSkipper({ targetKind: 'sim', baseUrl: sim.sim.url, deadlineMs: 10_000, settleMs: 80 })!;
  expect(await skip('00000000-0000-4000-8000-000000000000')).toEqual({
    line: 'clock not skipped (404 no terminal holds this transaction or operation)',
    settled: false,
  });
  const gone = clockSkipper({ targetKind: 'sim', baseUrl: 'http://127.0.0.1:1', deadlineMs: 10_000, settleMs: 80 })!;
  const s = await gone('x');
  expect(s.settled).toBe(false);
  expect(s.line).toMatch(/^clock not skipped \(/);
});
