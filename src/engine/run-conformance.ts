/**
 * `run`: one conformance run against one target, as a list of tasks (conformance-run.ts does each):
 * read the inputs, open the target (the embedded simulator started, a URL checked for production and
 * reachability, or the Pact mock), plan the run, run the vitest suites with the run context, and
 * write the reports: summary.json, junit.xml, the certification, the transcript, allure-results and
 * (unless --no-html) the Allure HTML report. Never calls process.exit: it returns the exit code.
 */
import type { ResolvedConfig } from '../config/index.ts';
import type { RunIo } from '../core/index.ts';
import type { RunEvents } from '../report/index.ts';
import { ConformanceRun } from './conformance-run.ts';
import type { RunResult } from './run-report.ts';
import { type Task, runTasks } from './tasks.ts';

/** The package's root, the tool and the contract: report/run-info.ts, where the run's facts are made. */
export { CONTRACT_FILE, PACKAGE_ROOT, contractSha256, toolInfo } from '../report/run-info.ts';
/** Where output goes (core/io.ts). */
export type { RunIo } from '../core/io.ts';
export type { RunResult } from './run-report.ts';
export { type RunPlan, planRun, poolFor, terminalsFor, workersFor } from './run-plan.ts';
export { LongFirstSequencer } from './run-suites.ts';

/** A run's tasks, in order; a task's teardown runs whatever happens after it started. */
export const RUN_TASKS: readonly Task<ConformanceRun>[] = [
  { title: 'read the inputs and prepare the reports folder', run: (r) => r.readInputs() },
  { title: 'open the target', run: (r) => r.openTarget(), teardown: (r) => r.closeTarget() },
  { title: 'plan the run', run: (r) => r.planTheRun(), teardown: (r) => r.closeLedger() },
  { title: 'run the suites', run: (r) => r.runTheSuites(), teardown: (r) => r.dropWarm() },
  // Under way while the whole run is judged and the reports are written; over before the target closes.
  {
    title: 'release the pairings the run made for itself',
    run: (r) => r.startReleasingPairings(),
    teardown: (r) => r.pairingsReleased(),
  },
  { title: 'judge what only the whole run shows', run: (r) => r.judgeTheWholeRun() },
  { title: 'write the reports', run: (r) => r.writeTheReports() },
];

/** Runs the suites against the configured target and writes the reports. `events` feed live progress. */
export async function runConformance(config: ResolvedConfig, io: RunIo, events: RunEvents = {}): Promise<RunResult> {
  const run = new ConformanceRun(config, io, events);
  await runTasks(run, RUN_TASKS);
  return run.result!;
}
