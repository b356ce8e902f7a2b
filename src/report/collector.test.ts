/**
 * vitest's own time-out of a scenario that found no failure is running out of time, not a failure:
 * the record passes on what the test saw, its unfinished part not checked, with the service's pace.
 */
import { expect, test } from 'vitest';
import type { Exchange, TestMeta } from '../core/index.ts';
import { vitestTimeOut } from './collector.ts';
import { outcomeOf } from './outcome.ts';
import { buildSummary, exitCodeFor } from './summary.ts';
import { finding, runRecord, testRecord } from './testing.ts';

const TIMED_OUT =
  'Test timed out in 195000ms.\nIf this is a long-running test, pass a timeout value as the last argument or configure it globally with "testTimeout".';
const pairing = (durationMs: number): Exchange => ({
  seq: 1,
  operationId: 'pair',
  request: { method: 'POST', url: '', path: '/v1/pay-connect/pair/', headers: {} },
  response: { status: 400, headers: {} },
  startedAt: '',
  durationMs,
});
const meta = (over: Partial<TestMeta> = {}): TestMeta => ({
  capability: 'properties',
  clause: 'sandbox#pairing',
  findings: [],
  parameters: {},
  exchanges: [pairing(3100)],
  ...over,
});

test("vitest's time-out with no failure found is not checked, named with the service's pace", () => {
  expect(vitestTimeOut([TIMED_OUT], meta())).toBe(
    "the rest of the test: vitest stopped it at its time-out of 195.0 s before it ended (the service's pace: pair 3.1 s a request)",
  );
});

test('a failure found before the time-out, a toolkit error, or another error keeps the test failed', () => {
  expect(vitestTimeOut([TIMED_OUT], meta({ findings: [finding()] }))).toBeUndefined();
  expect(vitestTimeOut([TIMED_OUT], meta({ toolkitError: { code: 'PCC_INTERNAL', message: 'x' } }))).toBeUndefined();
  expect(vitestTimeOut(['PCC_INTERNAL: boom', TIMED_OUT], meta())).toBeUndefined();
  expect(vitestTimeOut([], meta())).toBeUndefined();
});

test("a scenario stopped at its own time budget is 'not checked', and the run passes: running out of time is never exit 1", () => {
  const what =
    "pair invalid: 31 of 45 runs not run, the scenario's time budget could not hold them at the " +
    "service's pace (ran 14 of 45 runs in 60.2 s at 4.3 s a run (pair 3.1 s a request))";
  const slow = testRecord({ scenario: 'pair: invalid bodies get a 4xx', notFinished: 'time budget exceeded', notChecked: [what] });
  expect(outcomeOf(slow)).toBe('not-checked');
  const run = runRecord([testRecord(), slow]);
  const s = buildSummary(run, { name: 'payconnect-conformance', version: '0' }, { kind: 'url', baseUrl: 'http://127.0.0.1:1' });
  expect(s.verdict).toBe('pass');
  expect(s.incomplete).toBeUndefined();
  expect(s.notChecked).toEqual([{ test: 'payment > pair: invalid bodies get a 4xx', what: [what] }]);
  expect(exitCodeFor(run, s)).toBe(0);
  // The run's own budget is another matter: the run was cut short, and says so.
  expect(outcomeOf(testRecord({ state: 'skipped', notFinished: 'run budget exceeded' }))).toBe('not-finished');
});
