/**
 * A time box starts another run only while the time left holds it at the measured pace, and says how
 * many ran, in how long and at what pace; the runs that did not fit are named, not failed.
 */
import { expect, test } from 'vitest';
import type { Exchange } from '../core/index.ts';
import { RUNS_IN_RESERVE, TimeBox } from './time-box.ts';

/** A clock and a scenario whose budget ends at `budgetMs`, with exchanges that take `paceMs`. */
function slowService(budgetMs: number, paceMs: number) {
  let now = 0;
  const exchanges: Exchange[] = [];
  const host = { timeLeft: () => Math.max(0, budgetMs - now), exchanges: () => exchanges };
  const pair = async () => {
    exchanges.push({
      seq: exchanges.length + 1,
      operationId: 'pair',
      request: { method: 'POST', url: '', path: '/v1/pay-connect/pair/', headers: {} },
      response: { status: 400, headers: {} },
      startedAt: '',
      durationMs: paceMs,
    });
    now += paceMs + 100;
    return true;
  };
  return { host, pair, clock: () => now };
}

test('a slow service: the runs stop when the time left cannot hold another at the pace so far, and the rest are not checked', async () => {
  const s = slowService(60_000, 3000);
  const box = new TimeBox(s.host, 45, 'run', s.clock);
  let ran = 0;
  for (let i = 0; i < 45; i++) if ((await box.run(s.pair, 'skipped')) === true) ran++;
  expect(ran).toBe(box.ran);
  // 3.1 s a run: a run starts while 2 of them fit in what is left of 60 s.
  expect(box.ran).toBe(Math.floor(60_000 / 3100) - RUNS_IN_RESERVE + 1);
  expect(box.cut).toBe(true);
  expect(box.summary()).toBe(`ran ${box.ran} of 45 runs in ${(box.ran * 3.1).toFixed(1)} s at 3.1 s a run (pair 3.0 s a request)`);
  expect(box.notChecked('pair invalid')).toBe(
    `pair invalid: ${45 - box.ran} of 45 runs not run, the scenario's time budget could not hold them at the service's pace (${box.summary()})`,
  );
});

test('a quick service runs every run asked for: nothing is named not checked', async () => {
  const s = slowService(60_000, 5);
  const box = new TimeBox(s.host, 45, 'run', s.clock);
  for (let i = 0; i < 45; i++) await box.run(s.pair, 'skipped');
  expect(box.ran).toBe(45);
  expect(box.cut).toBe(false);
  expect(box.summary()).toMatch(/^ran 45 runs in [\d.]+ s at 105 ms a run \(pair 5 ms a request\)$/);
  expect(box.notChecked('x')).toBeUndefined();
});

test('the first run starts while any time is left; none when the budget is spent', async () => {
  const s = slowService(1000, 5000);
  const box = new TimeBox(s.host, 3, 'sequence', s.clock);
  expect(await box.run(s.pair, 'skipped')).toBe(true);
  expect(await box.run(s.pair, 'skipped')).toBe('skipped');
  expect(box.notChecked('model-based')).toMatch(/^model-based: 2 of 3 sequences not run/);
  const spent = new TimeBox({ timeLeft: () => 0, exchanges: () => [] }, 3, 'run', () => 0);
  expect(await spent.run(s.pair, 'skipped')).toBe('skipped');
  expect(spent.summary()).toBe('ran 0 of 3 runs in 0 ms');
});

test("the runs left out name whose budget kept them out: the run's (--max-duration) when it ends first", async () => {
  const s = slowService(10_000, 3000);
  const box = new TimeBox({ ...s.host, budgetCut: () => 'run' }, 45, 'run', s.clock);
  for (let i = 0; i < 45; i++) await box.run(s.pair, 'skipped');
  expect(box.notChecked('pair invalid')).toMatch(
    /^pair invalid: 43 of 45 runs not run, the run's time budget \(--max-duration\) could not hold them at the service's pace \(ran 2 of 45 runs/,
  );
});
