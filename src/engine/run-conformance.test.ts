/** The run's task list as run-conformance.ts orders it: what may overlap does, and is over before the target closes. */
import { expect, it } from 'vitest';
import { ConformanceRun } from './conformance-run.ts';
import { RUN_TASKS } from './run-conformance.ts';
import { runTasks } from './tasks.ts';

it("releases the run's own pairings while the reports are written, and before the target closes", async () => {
  const log: string[] = [];
  // The run's tasks on a run whose every step only says that it ran; the release takes 50 ms.
  const run = Object.create(ConformanceRun.prototype) as ConformanceRun;
  const steps = [
    'readInputs',
    'openTarget',
    'closeTarget',
    'planTheRun',
    'closeLedger',
    'runTheSuites',
    'dropWarm',
    'judgeTheWholeRun',
    'writeTheReports',
  ];
  for (const m of steps) Object.assign(run, { [m]: async () => void log.push(m) });
  Object.assign(run, {
    releasePairings: async () => {
      log.push('release started');
      await new Promise((r) => setTimeout(r, 50));
      log.push('released');
    },
  });
  await runTasks(run, RUN_TASKS);
  expect(log).toEqual([
    'readInputs',
    'openTarget',
    'planTheRun',
    'runTheSuites',
    'release started',
    'judgeTheWholeRun',
    'writeTheReports',
    'released',
    'dropWarm',
    'closeLedger',
    'closeTarget',
  ]);
});
