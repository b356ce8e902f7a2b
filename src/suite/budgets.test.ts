/**
 * A scenario's time budgets follow the run's deadline: a wait that misses the deadline is judged
 * inside the scenario's budget (not cut short by it), and vitest's time-out leaves room for the
 * clean-up of a busy terminal after it, so no test is dropped by vitest with its findings.
 */
import { expect, test } from 'vitest';
import { PACE_CEILING, budgetNow, budgetsOf, scenarioDeadline } from './budgets.ts';

test('with the simulator deadline the default budget stays 120 s', () => {
  const b = budgetsOf({ deadlineMs: 10_000, timeoutMs: 10_000 });
  expect(b.budgetMs).toBe(120_000);
  expect(b.vitestMs).toBeGreaterThanOrEqual(120_000 + 10_000 + 2 * 10_000);
});

test('with a URL deadline of 2 min the budget fits two full waits, and vitest waits for the clean-up too', () => {
  const b = budgetsOf({ deadlineMs: 120_000, timeoutMs: 10_000 });
  expect(b.budgetMs).toBeGreaterThanOrEqual(2 * 120_000);
  // The scenario's budget, then a cancel (one request) and one more full wait in the clean-up.
  expect(b.vitestMs).toBeGreaterThan(b.budgetMs + 120_000 + 10_000);
});

test("a scenario's own larger timeout wins; a smaller one is raised to fit the deadline", () => {
  expect(budgetsOf({ deadlineMs: 10_000, timeoutMs: 10_000 }, 300_000).budgetMs).toBe(300_000);
  expect(budgetsOf({ deadlineMs: 120_000, timeoutMs: 10_000 }, 60_000).budgetMs).toBeGreaterThanOrEqual(240_000);
});

test("the service's answers stretch a scenario's budget, up to its ceiling: the service's pace is not the scenario's time", () => {
  const b = budgetsOf({ deadlineMs: 10_000, timeoutMs: 10_000 });
  expect(budgetNow(b, 0)).toBe(120_000);
  // 45 pairings at 3 s: 135 s of the service's answers on top of the scenario's own 120 s.
  expect(budgetNow(b, 135_000)).toBe(255_000);
  expect(budgetNow(b, 10 * 60_000)).toBe(b.ceilingMs);
  expect(b.ceilingMs).toBe(120_000 * PACE_CEILING);
  // vitest waits for the ceiling and the clean-up after it: the scenario always ends itself first.
  expect(b.vitestMs).toBeGreaterThan(b.ceilingMs + 10_000 + 2 * 10_000);
});

test('in manual mode the person at the terminal sets the pace: no stretch beyond the manual budget', () => {
  const b = budgetsOf({ deadlineMs: 10_000, timeoutMs: 10_000, terminal: 'manual' });
  expect(b.ceilingMs).toBe(b.budgetMs);
  expect(budgetNow(b, 60_000)).toBe(b.budgetMs);
});

test("a pairing at 3 s: 45 of them fit the scenario's stretched budget; the run's budget, when nearer, is what cuts it", () => {
  const b = budgetsOf({ deadlineMs: 10_000, timeoutMs: 10_000 });
  // 135 s of pairings: past the scenario's own 120 s, which failed such a service before.
  expect(scenarioDeadline(0, b, 45 * 3000)).toEqual({ at: 255_000, by: 'scenario' });
  expect(scenarioDeadline(0, b, 45 * 3000, 200_000)).toEqual({ at: 200_000, by: 'run' });
  expect(scenarioDeadline(0, b, 0, 200_000)).toEqual({ at: 120_000, by: 'scenario' });
});
