/** Unit tests of the GitHub Actions output: annotations escaped as workflow commands, and the job summary. */
import { describe, expect, it } from 'vitest';
import { MAX_ANNOTATIONS, githubAnnotations, githubJobSummary } from './github.ts';
import { buildSummary } from './summary.ts';
import { finding, runRecord, testRecord } from './testing.ts';

const tool = { name: 'payconnect-conformance', version: '0.1.0' };
const target = { kind: 'sim', baseUrl: 'http://127.0.0.1:1' };

describe('githubAnnotations', () => {
  it('writes an ::error per failure and a ::warning per warning, escaped as workflow commands', () => {
    const run = runRecord([
      testRecord({
        scenario: 'slip',
        state: 'failed',
        findings: [
          finding({
            check: 'invariant.total-amount',
            clause: 'spec#transaction-print-slip',
            message: '100% off,\nreally: 1 != 2',
            test: 'payment > slip',
          }),
          finding({
            severity: 'warning',
            check: 'webhook.retried',
            clause: 'profile#webhooks',
            message: 'no retry',
            test: 'payment > slip',
            quote: ['Retries: 5 retries after the first attempt.'],
          }),
        ],
      }),
    ]);
    expect(githubAnnotations(buildSummary(run, tool, target))).toEqual([
      '::error title=invariant.total-amount (spec#transaction-print-slip)::payment > slip: 100%25 off,%0Areally: 1 != 2',
      // A finding's quote follows its message, after its clause.
      '::warning title=webhook.retried (profile#webhooks)::payment > slip: no retry%0Aprofile#webhooks: “Retries: 5 retries after the first attempt.”',
    ]);
  });

  it('makes one annotation of a defect: a finding that follows from a root is said under it', () => {
    const root = finding({ message: 'total_amount 1301 != amount 1300 + tip_amount 0', test: 'payment > slip' });
    const follow = finding({
      severity: 'warning',
      check: 'print-slip.agrees-with-status',
      clause: 'sandbox#status-and-print-slip',
      message: 'total_amount 1301 vs 1300',
      test: 'payment > slip',
      followsFrom: { check: root.check, clause: root.clause, message: root.message, test: 'payment > slip', because: 'it follows' },
    });
    const lines = githubAnnotations(
      buildSummary(runRecord([testRecord({ scenario: 'slip', state: 'failed', findings: [root, follow] })]), tool, target),
    );
    expect(lines).toEqual([
      '::error title=invariant.total-amount (spec#transaction-print-slip)::payment > slip: total_amount ' +
        '1301 != amount 1300 + tip_amount 0%0A↳ follows: WARN [print-slip.agrees-with-status] (sandbox#status-and-print-slip) ' +
        'total_amount 1301 vs 1300 (it follows)',
    ]);
  });

  it("escapes the title's colons and commas, and keeps to MAX_ANNOTATIONS of a kind", () => {
    const many = Array.from({ length: MAX_ANNOTATIONS + 5 }, (_, i) =>
      finding({ check: `c.${i}`, clause: 'spec#a,b:c', message: `m${i}`, test: 't' }),
    );
    const lines = githubAnnotations(buildSummary(runRecord([testRecord({ state: 'failed', findings: many })]), tool, target));
    expect(lines).toHaveLength(MAX_ANNOTATIONS);
    expect(lines[0]).toBe('::error title=c.0 (spec#a%2Cb%3Ac)::t: m0');
  });
});

describe('githubJobSummary', () => {
  it('gives the verdict, counts, certification and a table of findings with pipes escaped', () => {
    const run = runRecord([
      testRecord({ scenario: 'slip', state: 'failed', findings: [finding({ message: 'a | b', test: 'payment > slip' })] }),
    ]);
    const md = githubJobSummary(buildSummary(run, tool, target, { seed: 9, startedAt: 'x', finishedAt: 'y' }), {
      certified: false,
      reasons: ['a spec clause failed'],
    });
    expect(md).toContain('## Pay-Connect conformance: FAIL');
    expect(md).toContain('Target sim, seed 9: 1 tests, 0 passed, 1 failed, 0 skipped; 1 failures, 0 warnings.');
    expect(md).toContain('**Certification: NOT CERTIFIED** (a spec clause failed)');
    expect(md).toMatch(/^\| FAIL \| invariant\.total-amount \| spec#transaction-print-slip \| payment > slip \| a \\\| b \|$/m);
  });

  it('says what the run covered, what a required kind left uncovered, and how many findings were known', () => {
    const run = runRecord([
      testRecord({ scenario: 'slip', findings: [{ ...finding(), known: { entry: 1, reason: 'r', expires: '2099-01-01' } }] }),
    ]);
    const summary = buildSummary(run, tool, target);
    const tally = (covered: number, total: number) => ({ covered, total, percent: Math.round((covered / total) * 1000) / 10 });
    summary.coverage = {
      summary: {
        operations: tally(14, 15),
        statuses: tally(50, 71),
        statuses2xx: tally(15, 15),
        enums: tally(60, 97),
        transitions: tally(13, 16),
        events: tally(13, 13),
        clauses: tally(31, 40),
        inputs: tally(23, 23),
      },
      required: ['operations'],
      uncovered: [{ kind: 'operations', item: 'unpair', reason: 'not exercised' }],
    };
    const md = githubJobSummary(summary);
    expect(md).toContain(
      'Coverage: operations 14/15, statuses 50/71, enums 60/97, transitions 13/16, events 13/13, ' +
        'clauses 31/40, inputs 23/23 (required operations: 1 never covered).',
    );
    expect(md).toContain('Known defects (baseline): 1.');
    // Items excluded from the gate (coverage.exclude) are counted apart.
    summary.coverage.summary.statuses = { ...tally(67, 71), excluded: 4 };
    expect(githubJobSummary(summary)).toContain('statuses 67/71 + 4 excluded, enums');
  });
});
