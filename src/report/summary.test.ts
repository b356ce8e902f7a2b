import { describe, expect, it } from 'vitest';
import { foldFindings } from './outcome.ts';
import { buildSummary, exitCodeFor } from './summary.ts';
import { finding, runRecord, testRecord } from './testing.ts';

const tool = { name: 'payconnect-conformance', version: '0.1.0' };
const target = { kind: 'url', baseUrl: 'http://127.0.0.1:1' };

const stuck = finding({
  check: 'convergence.deadline',
  clause: 'spec#what-the-service-does',
  message: 'transaction 6f0c2b1e-8d4e-4c43-9a55-0d9f1e2b3c4d still IN_PROGRESS after 5000 ms',
});
const root = { check: stuck.check, severity: stuck.severity, clause: stuck.clause, message: stuck.message, test: 'payment > first' };

describe('summary.json', () => {
  it('names, per root finding, the tests it blocked, and leads with the finding that blocked most', () => {
    const run = runRecord([
      testRecord({ scenario: 'slip', state: 'failed', findings: [finding({ test: 'payment > slip' })] }),
      testRecord({ scenario: 'first', state: 'failed', findings: [{ ...stuck, test: 'payment > first' }] }),
      testRecord({ scenario: 'second', state: 'skipped', blockedBy: root, skipReason: 'blocked by convergence.deadline' }),
      testRecord({ capability: 'cancel', scenario: 'third', state: 'skipped', blockedBy: root }),
    ]);
    const s = buildSummary(run, tool, target);
    expect(s.findings.map((f) => f.check)).toEqual(['convergence.deadline', 'invariant.total-amount']);
    expect(s.blocked).toEqual([{ ...root, count: 2, tests: ['payment > second', 'cancel > third'] }]);
    expect(s.verdict).toBe('fail');
    expect(exitCodeFor(run, s)).toBe(1);
  });

  it('counts where a finding was seen again without counting it as another finding', () => {
    const again = {
      check: stuck.check,
      severity: stuck.severity,
      clause: stuck.clause,
      message: 'transaction 11111111-2222-4333-8444-555555555555 still IN_PROGRESS after 5000 ms',
      of: 'payment > first',
      count: 2,
    };
    const run = runRecord([
      testRecord({ scenario: 'first', state: 'failed', findings: [{ ...stuck, test: 'payment > first' }] }),
      testRecord({ scenario: 'later', repeats: [again] }),
    ]);
    const s = buildSummary(run, tool, target);
    expect(s.counts).toMatchObject({ failures: 1, warnings: 0, passed: 1, failed: 1 });
    expect(s.findings[0]).toMatchObject({ repeats: 2, repeatedIn: ['payment > later'] });
  });

  it('makes one finding of a defect two tests filed as its root at once, the later one a repeat, with the tests it blocked', () => {
    const other = {
      ...stuck,
      message: 'transaction 11111111-2222-4333-8444-555555555555 still IN_PROGRESS after 5000 ms',
      test: 'payment > racing',
    };
    const again = {
      check: stuck.check,
      severity: stuck.severity,
      clause: stuck.clause,
      message: stuck.message,
      of: 'payment > racing',
      count: 1,
    };
    const run = runRecord([
      testRecord({ scenario: 'first', state: 'failed', findings: [{ ...stuck, test: 'payment > first' }] }),
      testRecord({ scenario: 'racing', state: 'failed', findings: [other] }),
      testRecord({ scenario: 'later', repeats: [again] }),
      testRecord({ scenario: 'blocked', state: 'skipped', blockedBy: { ...root, test: 'payment > racing' } }),
      testRecord({
        scenario: 'other defect',
        state: 'failed',
        findings: [
          finding({ test: 'payment > other defect' }),
          finding({ test: 'payment > other defect', message: 'total_amount 102 != amount 100 + tip_amount 0' }),
        ],
      }),
    ]);
    const s = buildSummary(run, tool, target);
    expect(s.findings.map((f) => [f.check, f.test])).toEqual([
      ['convergence.deadline', 'payment > first'],
      ['invariant.total-amount', 'payment > other defect'],
      ['invariant.total-amount', 'payment > other defect'],
    ]);
    expect(s.findings[0]).toMatchObject({ repeats: 2, repeatedIn: ['payment > racing', 'payment > later'] });
    expect(s.counts).toMatchObject({ failures: 3 });
  });

  it('lists the tests a time budget stopped as incomplete: no failure (exit 1 is for findings), no pass either (exit 2)', () => {
    const run = runRecord([testRecord(), testRecord({ scenario: 'late', state: 'skipped', notFinished: 'run budget exceeded' })]);
    const s = buildSummary(run, tool, target);
    expect(s.verdict).toBe('pass');
    expect(s.incomplete).toEqual({ reason: 'run budget exceeded', tests: ['payment > late'] });
    expect(exitCodeFor(run, s)).toBe(2);
    const found = runRecord([
      testRecord({ state: 'failed', findings: [finding()] }),
      testRecord({ scenario: 'late', state: 'skipped', notFinished: 'run budget exceeded' }),
    ]);
    expect(exitCodeFor(found, buildSummary(found, tool, target))).toBe(1);
  });

  it('keeps the published shape for a clean run: no incomplete, no blocked tests', () => {
    const s = buildSummary(runRecord([testRecord()]), tool, target);
    expect(s).toEqual({
      tool,
      target,
      verdict: 'pass',
      counts: { tests: 1, passed: 1, failed: 0, skipped: 0, failures: 0, warnings: 0 },
      findings: [],
      blocked: [],
    });
  });

  it('lists the tests that could not observe part of what they judge, never as plainly passed', () => {
    const run = runRecord([
      testRecord({ scenario: 'seen' }),
      testRecord({ scenario: 'unseen', notChecked: ['webhooks: the vault pairing was made without a webhook_url'] }),
      testRecord({ scenario: 'skipped', state: 'skipped', notChecked: ['webhooks: ignored, the test did not run'] }),
    ]);
    const s = buildSummary(run, tool, target);
    expect(s.counts).toMatchObject({ passed: 2, notChecked: 1 });
    expect(s.notChecked).toEqual([{ test: 'payment > unseen', what: ['webhooks: the vault pairing was made without a webhook_url'] }]);
    expect(s.verdict).toBe('pass');
  });

  it('leads with a verdict over the whole run, before the finding that blocked most tests', () => {
    const none = finding({
      check: 'webhook.service-sends',
      clause: 'spec#events',
      message: 'the service sent no valid webhook in the whole run',
    });
    const run = runRecord([
      testRecord({ scenario: 'first', state: 'failed', findings: [{ ...stuck, test: 'payment > first' }] }),
      testRecord({ scenario: 'second', state: 'skipped', blockedBy: root }),
      {
        ...testRecord({ capability: 'webhooks', scenario: 'whole', state: 'failed', findings: [{ ...none, test: 'webhooks > whole' }] }),
        wholeRun: true,
      },
    ]);
    expect(buildSummary(run, tool, target).findings.map((f) => f.check)).toEqual(['webhook.service-sends', 'convergence.deadline']);
  });

  it('counts the answers that asked to wait (429/503 with Retry-After) as rateLimited, waited out or not, without a finding', () => {
    const asked = (honoured: boolean) => ({
      seq: 1,
      request: {},
      response: { status: 429 },
      retryAfter: { status: 429, waitMs: 1000, honoured, inARow: 1 },
    });
    const plain = { seq: 2, request: {}, response: { status: 200 }, resend: { after: 'retry-after', waitedMs: 1000, n: 1 } };
    const run = runRecord([
      testRecord({ scenario: 'polls', exchanges: [asked(true), plain, asked(true), plain] }),
      testRecord({ scenario: 'gave up', exchanges: [asked(false)] }),
      testRecord({ scenario: 'quiet', exchanges: [plain] }),
    ]);
    const s = buildSummary(run, tool, target);
    expect(s.rateLimited).toBe(3);
    expect(s).toMatchObject({ verdict: 'pass', findings: [] });
    expect(buildSummary(runRecord([testRecord({ exchanges: [plain] })]), tool, target)).not.toHaveProperty('rateLimited');
  });

  it('adds the seed, the start and end, and every skipped test with its reason, keeping the other fields', () => {
    const blockedBy = {
      check: 'convergence.deadline',
      severity: 'failure' as const,
      clause: 'spec#x',
      message: 'never final',
      test: 'payment > first',
    };
    const run = runRecord([
      testRecord({ scenario: 'ok' }),
      testRecord({ scenario: 'manual', state: 'skipped', skipReason: 'needs a person at the terminal' }),
      testRecord({ scenario: 'later', state: 'skipped', blockedBy }),
    ]);
    const when = { seed: -5, startedAt: '2026-11-25T10:00:00.000Z', finishedAt: '2026-11-25T10:00:13.000Z' };
    const s = buildSummary(run, tool, target, when);
    expect(s).toMatchObject({ ...buildSummary(run, tool, target), ...when });
    expect(s.skipped).toEqual([
      { test: 'payment > manual', reason: 'needs a person at the terminal' },
      { test: 'payment > later', reason: 'blocked by [convergence.deadline] never final' },
    ]);
  });

  it('keeps every finding, marks the folded ones, and folds a follow-up only under a root it holds', () => {
    const total = finding({ test: 'payment > slip', message: 'total_amount 1301 != amount 1300 + tip_amount 0' });
    const followsFrom = { check: total.check, clause: total.clause, message: total.message, test: 'payment > slip', because: 'it follows' };
    const follow = finding({
      check: 'print-slip.agrees-with-status',
      severity: 'warning',
      clause: 'sandbox#status-and-print-slip',
      test: 'payment > slip',
      message: 'print slip of t1 disagrees with its status record: total_amount 1301 vs 1300',
      followsFrom,
    });
    const s = buildSummary(runRecord([testRecord({ scenario: 'slip', state: 'failed', findings: [total, follow] })]), tool, target);
    expect(s.findings.map((f) => f.check)).toEqual(['invariant.total-amount', 'print-slip.agrees-with-status']);
    expect(s.findings[1]!.followsFrom).toEqual(followsFrom);
    expect(s.counts).toMatchObject({ failures: 1, warnings: 1, folded: 1 });
    expect(foldFindings(s.findings).map((r) => [r.finding.check, r.followUps.map((f) => f.check)])).toEqual([
      ['invariant.total-amount', ['print-slip.agrees-with-status']],
    ]);
    // Its root absent (another defect's finding only): the follow-up is a line of its own, never hidden.
    const alone = buildSummary(runRecord([testRecord({ scenario: 'slip', findings: [follow] })]), tool, target);
    expect(alone.counts.folded).toBeUndefined();
    expect(foldFindings(alone.findings).map((r) => r.finding.check)).toEqual(['print-slip.agrees-with-status']);
  });
});
