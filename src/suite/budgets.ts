/** How long a scenario may take, and how long vitest waits for it. */
import type { RunContext } from '../runtime/index.ts';

/** Grace vitest gives a test beyond its own budget and clean-up: the scenario ends itself first. */
const VITEST_GRACE_MS = 15_000;

/** A scenario's time budget in manual mode. */
const MANUAL_BUDGET_MS = 30 * 60_000;

/** A scenario's time budget when it names none. */
const DEFAULT_BUDGET_MS = 120_000;

/**
 * The time budgets of a scenario under the run's settings. Its own budget always fits two full
 * waits for convergence (a wait that misses its deadline is then judged, never cut short by the
 * budget), and vitest's time-out adds the clean-up after it: a cancel and one more full wait, when
 * the test leaves a shared terminal busy. So a test is never dropped by vitest with its findings.
 */
export function budgetsOf(ctx: Pick<RunContext, 'deadlineMs' | 'timeoutMs'> & { terminal?: RunContext['terminal'] }, timeout?: number): { budgetMs: number; vitestMs: number } {
  // A person at the terminal takes the time they need (redos included): the wait has its own deadline.
  const budgetMs = Math.max(timeout ?? DEFAULT_BUDGET_MS, 2 * ctx.deadlineMs + 30_000, ctx.terminal === 'manual' ? MANUAL_BUDGET_MS : 0);
  return { budgetMs, vitestMs: budgetMs + ctx.deadlineMs + 2 * ctx.timeoutMs + VITEST_GRACE_MS };
}
