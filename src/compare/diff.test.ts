import { describe, expect, it } from 'vitest';
import { type Exchange, TimingRecorder } from '../core/index.ts';
import { type TestRecord, buildSummary } from '../report/index.ts';
import { finding, runRecord, testRecord } from '../report/testing.ts';
import { compareExitCode, compareRuns } from './diff.ts';
import { compareHtml, compareTable } from './render.ts';
import type { RunView } from './load.ts';
import { shapesOf } from './shapes.ts';

const tool = { name: 'payconnect-conformance', version: '0.1.0' };
const target = { kind: 'sim', baseUrl: 'http://127.0.0.1:1' };

const slip = (extra: Record<string, unknown> = {}): Exchange => ({
  seq: 1,
  operationId: 'getPrintSlip',
  request: { method: 'GET', url: 'http://x/', path: '/', headers: {} },
  response: { status: 200, headers: {}, body: { transaction_id: 'a', lines: [{ text: 'TOTAL' }], ...extra } },
  startedAt: new Date(0).toISOString(),
  durationMs: 5,
});

/** A run of `tests`, with the exchanges whose shapes it saw, as compare reads it. */
function view(dir: string, tests: TestRecord[], exchanges: Exchange[] = [slip()], labels: Record<string, string> = {}): RunView {
  const summary = buildSummary(runRecord(tests), tool, target, {
    startedAt: '2026-01-02T03:04:05.000Z',
    finishedAt: '2026-01-02T03:05:05.000Z',
    labels,
  });
  return { dir, summary, tests, shapes: shapesOf(exchanges, [{ event: 'transaction.success' }]) };
}

/** A test whose convergences took `ms` each (20 of them, a little spread). */
function timed(scenario: string, ms: number): TestRecord {
  const rec = new TimingRecorder();
  for (let i = 0; i < 20; i++) {
    rec.convergence(
      {
        kind: 'transaction',
        id: `t${i}`,
        polled: [{ status: 'SUCCESS', channel: 'poll', atMs: ms + (i % 5) * 7 }],
        webhooks: [],
        finalByPoll: 'SUCCESS',
        webhooksObservable: false,
        deadlineMs: 5000,
        elapsedMs: 0,
        timedOut: false,
      },
      1000,
      1000,
    );
  }
  return testRecord({ scenario, timing: rec.digest() });
}

const slipWrong = finding({ test: 'print-slip > total', message: 'total_amount 101 != amount 100 + tip_amount 0' });

describe('compare', () => {
  it('finds nothing between two runs of the same service', () => {
    const c = compareRuns(
      view('a', [timed('t', 150), testRecord({ scenario: 'x' })]),
      view('b', [timed('t', 160), testRecord({ scenario: 'x' })]),
    );
    expect(c.tests.flipped).toEqual([]);
    expect(c.findings).toEqual({ new: [], gone: [], persisting: [] });
    expect(c.timing.regressions).toEqual([]);
    expect(c.shapesChanged).toBe(false);
    expect(compareExitCode(c, 'changed')).toBe(0);
  });

  it('lists a test that flipped to fail with the finding that explains it, and the finding as new: exit 1', () => {
    const base = view('a', [testRecord({ capability: 'print-slip', scenario: 'total' })], undefined, { firmware: '4.2.0' });
    const cand = view(
      'b',
      [testRecord({ capability: 'print-slip', scenario: 'total', state: 'failed', findings: [slipWrong] })],
      undefined,
      { firmware: '4.2.1' },
    );
    const c = compareRuns(base, cand);
    expect(c.base.labels).toEqual({ firmware: '4.2.0' });
    expect(c.candidate.labels).toEqual({ firmware: '4.2.1' });
    expect(c.tests.flipped).toEqual([
      {
        test: 'print-slip > total',
        change: 'pass->fail',
        from: 'passed',
        to: 'failed',
        finding: expect.objectContaining({ check: 'invariant.total-amount', message: slipWrong.message }),
      },
    ]);
    expect(c.findings.new.map((f) => f.check)).toEqual(['invariant.total-amount']);
    expect(c.regressed).toBe(true);
    expect(compareExitCode(c)).toBe(1);
    // The other way round: fixed, explained by the finding it no longer has; nothing regressed.
    const back = compareRuns(cand, base);
    expect(back.tests.flipped[0]).toMatchObject({ change: 'fail->pass', finding: { check: 'invariant.total-amount' } });
    expect(back.findings.gone).toHaveLength(1);
    expect(compareExitCode(back)).toBe(0);
  });

  it('matches findings as a baseline does: the same defect on another transaction persists, it is not new', () => {
    const on = (id: string) => ({ ...slipWrong, message: `transaction ${id}: total_amount 101 != amount 100 + tip_amount 0` });
    const [slipWrong1, other] = [on('6f0c2b1e-8d4e-4c43-9a55-0d9f1e2b3c4d'), on('11111111-2222-4333-8444-555555555555')];
    const c = compareRuns(
      view('a', [testRecord({ capability: 'print-slip', scenario: 'total', state: 'failed', findings: [slipWrong1] })]),
      view('b', [testRecord({ capability: 'print-slip', scenario: 'total', state: 'failed', findings: [other] })]),
    );
    expect(c.findings.new).toEqual([]);
    expect(c.findings.persisting).toHaveLength(1);
    expect(c.regressed).toBe(false);
  });

  it('names a pass that became not checked, new and gone tests', () => {
    const c = compareRuns(
      view('a', [testRecord({ scenario: 'w' }), testRecord({ scenario: 'old' })]),
      view('b', [testRecord({ scenario: 'w', notChecked: ['webhooks: the receiver is not reachable'] }), testRecord({ scenario: 'new' })]),
    );
    expect(c.tests.flipped.map((f) => f.change).sort()).toEqual(['gone', 'new', 'pass->not-checked']);
    expect(c.tests.flipped.find((f) => f.change === 'pass->not-checked')?.why).toBe('webhooks: the receiver is not reachable');
    expect(c.regressed).toBe(false);
  });

  it('shows a field that appeared on the slip, and fails on it only with --fail-on changed', () => {
    const c = compareRuns(view('a', [testRecord()]), view('b', [testRecord()], [slip({ loyalty_points: 12 })]));
    expect(c.shapes.appeared.fields).toEqual(['getPrintSlip 200 loyalty_points: number']);
    expect(c.shapes.disappeared.fields).toEqual([]);
    expect(compareExitCode(c)).toBe(0);
    expect(compareExitCode(c, 'changed')).toBe(1);
  });

  it('flags a convergence that got much slower as a timing regression, and the reverse as an improvement', () => {
    const c = compareRuns(view('a', [timed('t', 150)]), view('b', [timed('t', 550)]));
    expect(c.timing.regressions).toEqual([
      expect.objectContaining({ series: 'convergence', key: 'transaction SUCCESS', on: ['p50', 'p95'] }),
    ]);
    expect(compareExitCode(c)).toBe(1);
    expect(compareRuns(view('a', [timed('t', 550)]), view('b', [timed('t', 150)])).timing.improvements).toHaveLength(1);
  });

  it("reads a webhook's shape from the record's parsed body (run --compare-to) as from the transcript's raw body (compare)", () => {
    const body = { event: 'transaction.success', event_id: 'e1', data: { transaction_id: 't1', status: 'SUCCESS', amount: 100 } };
    const fromTranscript = shapesOf([], [{ event: 'transaction.success', rawBody: JSON.stringify(body) }]);
    expect(fromTranscript.fields).toContain('webhook transaction.success data.status: string');
    expect(fromTranscript.enums).toContain('webhook TransactionEvent.data.status=SUCCESS');
    expect(shapesOf([], [{ event: 'transaction.success', body }])).toEqual(fromTranscript);
  });

  it("against a manual session, a slower convergence is the operator's pace: shown, never a regression; answer times are still judged", () => {
    const manual = (v: RunView): RunView => ({ ...v, terminalMode: 'manual' });
    const c = compareRuns(view('sim', [timed('t', 150)]), manual(view('session', [timed('t', 550)])));
    expect(c.timing.regressions).toEqual([]);
    expect(c.timing.operatorPaced).toEqual({
      manual: ['candidate'],
      series: ['convergence', 'webhookArrival', 'steps'],
      changes: [expect.objectContaining({ kind: 'slower', series: 'convergence', key: 'transaction SUCCESS' })],
    });
    expect(c.regressed).toBe(false);
    expect(compareExitCode(c)).toBe(0);
    expect(compareTable(c)).toMatch(
      new RegExp(
        String.raw`operator-paced, never a regression \(the candidate was a manual session: convergence, webhookArrival, steps wait for ` +
          String.raw`the person at the terminal\): 1 changed:\n  slower  convergence transaction SUCCESS`,
      ),
    );
    expect(compareHtml(c)).toContain('slower (operator-paced)');
    expect(compareRuns(manual(view('a', [timed('t', 550)])), manual(view('b', [timed('t', 150)]))).timing.operatorPaced.changes).toEqual([
      expect.objectContaining({ kind: 'quicker' }),
    ]);
    // The service's own answer times are judged against a manual session as against any run.
    const answering = (ms: number) => {
      const rec = new TimingRecorder();
      for (let i = 0; i < 20; i++) rec.exchange({ ...slip(), seq: i, durationMs: ms + (i % 5) });
      return testRecord({ scenario: 'slip', timing: rec.digest() });
    };
    const slow = compareRuns(view('sim', [answering(20)]), manual(view('session', [answering(200)])));
    expect(slow.timing.regressions).toEqual([expect.objectContaining({ series: 'operations', key: 'getPrintSlip' })]);
    expect(compareExitCode(slow)).toBe(1);
    // Two runs of which neither was manual: nothing set apart.
    expect(compareRuns(view('a', [timed('t', 150)]), view('b', [timed('t', 550)])).timing.operatorPaced).toEqual({
      manual: [],
      series: [],
      changes: [],
    });
  });
});
