/**
 * The suite runtime as vitest fixtures. Per worker (files run without isolation, so every file of a
 * worker shares them): the harness on the worker's own terminal, the terminal driver, the log of
 * judged deliveries and the manual session's state. Per test: its scope, begun once the test may
 * run at all (a test carried over by --resume, after the operator stopped, or past the run's budget
 * is skipped first, with its meta saying why).
 */
import { test } from 'vitest';
import { META_KEY, type TestMeta } from '../core/index.ts';
import { Harness, type Scope } from '../runtime/index.ts';
import { type TerminalDriver, createTerminalDriver } from '../terminal/index.ts';
import { type TestDeliveries, logDeliveries } from './scenario-evidence.ts';
import { SCENARIO_META_KEY } from './scenario-declaration.ts';
import { workerContext } from './worker-context.ts';

/** The state of a manual session in this worker. */
export interface SessionState {
  /** Set once the operator stopped the session: why later tests are skipped. */
  stopped?: string;
}

/** The worker's harness and what hangs off it. */
export interface SuiteWorker {
  harness: Harness;
  /** Vitest's number of this worker, from 1. */
  worker: number;
  deliveries: TestDeliveries;
  session: SessionState;
}

/**
 * `test` with the suite runtime's fixtures: `suite` and `harness`, `terminal` (worker), `scope` (test).
 * An integrator's own scenarios use {@link scenario}, which builds on it.
 */
export const suiteTest = test
  .extend('suite', { scope: 'worker' }, (): SuiteWorker => {
    const { ctx, share, worker } = workerContext();
    const harness = new Harness(ctx, share, worker);
    return { harness, worker, deliveries: logDeliveries(harness), session: {} };
  })
  .extend('harness', { scope: 'worker' }, ({ suite }): Harness => suite.harness)
  .extend('terminal', { scope: 'worker' }, ({ harness }): TerminalDriver => createTerminalDriver({
    mode: harness.ctx.terminal, profile: harness.profile, maxAmount: harness.ctx.maxAmount, sandbox: harness.ctx.sandbox,
    interactive: harness.ctx.interactive, baseUrl: harness.ctx.baseUrl, steps: (harness.ctx.manualPlan ?? []).map((s) => s.test),
  }))
  .extend('scope', ({ suite, harness, task, skip }): Scope => {
    const declared = task.meta[SCENARIO_META_KEY];
    const testName = declared ? `${declared.capability} > ${task.name}` : task.name;
    const meta: TestMeta = { capability: declared?.capability ?? '', clause: declared?.clause ?? '', findings: [], parameters: { terminal: harness.ctx.terminal } };
    task.meta[META_KEY] = meta;
    if (harness.ctx.carried?.includes(testName)) {
      meta.carried = true;
      meta.skipReason = 'passed earlier in this session (carried over by --resume)';
      skip(meta.skipReason);
    }
    if (suite.session.stopped !== undefined) {
      meta.notFinished = 'stopped by the operator';
      meta.skipReason = suite.session.stopped;
      skip(meta.skipReason);
    }
    if (harness.budgeted(1) === 0) {
      meta.notFinished = 'run budget exceeded';
      meta.skipReason = 'run budget exceeded: not started';
      skip(meta.skipReason);
    }
    return harness.begin(testName);
  });
