/**
 * The suite runtime as vitest fixtures. Per worker (files run without isolation, so every file of a
 * worker shares them): its lanes, one per terminal the worker drives, each a harness on its own
 * terminal with its terminal driver and its log of judged deliveries, and the manual session's state.
 * Per test: the lane it runs on (leased for the test, the lowest free one, so a file whose tests run
 * one after another keeps to one terminal), and its scope, begun once the test may run at all (a test
 * carried over by --resume, after the operator stopped, or past the run's budget is skipped first,
 * with its meta saying why).
 */
import { test } from 'vitest';
import { META_KEY, type TestMeta } from '../core/index.ts';
import { Harness, type Scope, WorkerServices } from '../runtime/index.ts';
import { type TerminalDriver, createTerminalDriver } from '../terminal/index.ts';
import { type TestDeliveries, logDeliveries } from './scenario-evidence.ts';
import { SCENARIO_META_KEY } from './scenario-declaration.ts';
import { workerContext } from './worker-context.ts';

/** The state of a manual session in this worker. */
export interface SessionState {
  /** Set once the operator stopped the session: why later tests are skipped. */
  stopped?: string;
}

/** The lane a test runs on: a harness on one of the worker's terminals, and what hangs off it. */
export interface SuiteWorker {
  harness: Harness;
  terminal: TerminalDriver;
  /** Vitest's number of this worker, from 1. */
  worker: number;
  /** The lane's number in its worker, from 0. */
  lane: number;
  deliveries: TestDeliveries;
  /** The worker's manual session (one for all its lanes). */
  session: SessionState;
}

/** The worker's lanes: a test leases the lowest free one and gives it back when it ends. */
export class LanePool {
  readonly #free: SuiteWorker[];
  readonly #waiting: ((lane: SuiteWorker) => void)[] = [];
  constructor(readonly lanes: readonly SuiteWorker[]) {
    this.#free = [...lanes];
  }

  /** A free lane; waits for one when every lane is busy (more concurrent tests than terminals). */
  lease(): Promise<SuiteWorker> {
    this.#free.sort((a, b) => a.lane - b.lane);
    const lane = this.#free.shift();
    return lane ? Promise.resolve(lane) : new Promise((resolve) => this.#waiting.push(resolve));
  }

  release(lane: SuiteWorker): void {
    const next = this.#waiting.shift();
    if (next) next(lane);
    else this.#free.push(lane);
  }
}

/** The worker's lanes, one per terminal of its share: harnesses sharing the worker's services. */
function workerLanes(): LanePool {
  const { ctx, shares, worker } = workerContext();
  const services = new WorkerServices(ctx, worker);
  const session: SessionState = {};
  return new LanePool(
    shares.map((share, lane) => {
      const harness = new Harness(ctx, share, worker, services);
      const terminal = createTerminalDriver({
        mode: ctx.terminal,
        profile: harness.profile,
        maxAmount: ctx.maxAmount,
        sandbox: ctx.sandbox,
        interactive: ctx.interactive,
        baseUrl: ctx.baseUrl,
        steps: (ctx.manualPlan ?? []).map((s) => s.test),
      });
      return { harness, terminal, worker, lane, deliveries: logDeliveries(harness), session };
    }),
  );
}

/**
 * `test` with the suite runtime's fixtures: `lanes` (worker), and per test `suite` (the lane it runs
 * on), `harness` and `terminal` (the lane's), `scope`. An integrator's own scenarios use
 * {@link scenario}, which builds on it.
 */
export const suiteTest = test
  .extend('lanes', { scope: 'worker' }, (): LanePool => workerLanes())
  .extend('suite', async ({ lanes }, { onCleanup }): Promise<SuiteWorker> => {
    const lane = await lanes.lease();
    onCleanup(() => lanes.release(lane));
    return lane;
  })
  .extend('harness', ({ suite }): Harness => suite.harness)
  .extend('terminal', ({ suite }): TerminalDriver => suite.terminal)
  .extend('scope', ({ suite, harness, task, skip }): Scope => {
    const declared = task.meta[SCENARIO_META_KEY];
    const testName = declared ? `${declared.capability} > ${task.name}` : task.name;
    const meta: TestMeta = {
      capability: declared?.capability ?? '',
      clause: declared?.clause ?? '',
      findings: [],
      parameters: { terminal: harness.ctx.terminal },
    };
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
