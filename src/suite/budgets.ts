/** How long a scenario may take, and how long vitest waits for it. */
import type { RunContext } from '../runtime/index.ts';

/** Grace vitest gives a test beyond its own budget and clean-up: the scenario ends itself first. */
const VITEST_GRACE_MS = 15_000;

/** A scenario's time budget in manual mode. */
const MANUAL_BUDGET_MS = 30 * 60_000;

/** A scenario's time budget when it names none. */
const DEFAULT_BUDGET_MS = 120_000;

/**
 * How far the service's own answers may stretch a scenario's budget: to this many times its budget
 * at most. The time the service takes to answer is not the scenario's (no document sets a limit on
 * it), so a slow but legal service is not cut short; the ceiling keeps a run bounded in time.
 */
export const PACE_CEILING = 4;

/** A scenario's budgets: its own, the ceiling the service's pace may stretch it to, and vitest's time-out. */
export interface Budgets {
  /** The scenario's own budget, its harness's time: what it may take besides the service's answers. */
  budgetMs: number;
  /** The most its budget grows to with the time the service took to answer its requests. */
  ceilingMs: number;
  /** vitest's time-out: the ceiling, then the clean-up of a busy terminal, then a grace. */
  vitestMs: number;
}

/**
 * The time budgets of a scenario under the run's settings. Its own budget always fits two full
 * waits for convergence (a wait that misses its deadline is then judged, never cut short by the
 * budget); the service's answers stretch it up to {@link PACE_CEILING} times (see {@link budgetNow});
 * vitest's time-out adds the clean-up after the ceiling: a cancel and one more full wait, when the
 * test leaves a shared terminal busy. So a test is never dropped by vitest with its findings.
 */
export function budgetsOf(
  ctx: Pick<RunContext, 'deadlineMs' | 'timeoutMs'> & { terminal?: RunContext['terminal'] },
  timeout?: number,
): Budgets {
  // A person at the terminal takes the time they need (redos included): the wait has its own deadline.
  const manual = ctx.terminal === 'manual';
  const budgetMs = Math.max(timeout ?? DEFAULT_BUDGET_MS, 2 * ctx.deadlineMs + 30_000, manual ? MANUAL_BUDGET_MS : 0);
  const ceilingMs = manual ? budgetMs : budgetMs * PACE_CEILING;
  return { budgetMs, ceilingMs, vitestMs: ceilingMs + ctx.deadlineMs + 2 * ctx.timeoutMs + VITEST_GRACE_MS };
}

/**
 * The scenario's budget now: its own, plus the time the service took to answer its requests so far
 * (`serviceMs`, measured on its exchanges), at most the ceiling.
 */
export function budgetNow(b: Pick<Budgets, 'budgetMs' | 'ceilingMs'>, serviceMs: number): number {
  return Math.min(b.ceilingMs, b.budgetMs + Math.max(0, serviceMs));
}

/**
 * When a scenario that began at `startedAt` runs out of time, and which budget cuts it: its own
 * (stretched by `serviceMs`, see {@link budgetNow}) or the run's (`runDeadlineAt`, epoch ms).
 */
export function scenarioDeadline(
  startedAt: number,
  b: Pick<Budgets, 'budgetMs' | 'ceilingMs'>,
  serviceMs: number,
  runDeadlineAt?: number,
): { at: number; by: 'scenario' | 'run' } {
  const own = startedAt + budgetNow(b, serviceMs);
  return runDeadlineAt !== undefined && runDeadlineAt < own ? { at: runDeadlineAt, by: 'run' } : { at: own, by: 'scenario' };
}
