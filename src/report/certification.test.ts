import { describe, expect, it } from 'vitest';
import { SPEC_LEVEL_SUITES, certificationHtml, certificationMarkdown, certify } from './certification.ts';
import { buildSummary } from './summary.ts';
import { finding, runInfo, runRecord, testRecord } from './testing.ts';
import type { TestRecord } from './records.ts';

const tool = { name: 'payconnect-conformance', version: '0.1.0' };
const target = { kind: 'sim', baseUrl: 'http://127.0.0.1:1234' };
const HASH = 'cd'.repeat(32);

function everySuite(over: (suite: string) => Partial<TestRecord> = () => ({})): TestRecord[] {
  return SPEC_LEVEL_SUITES.map((s) => testRecord({ capability: s, scenario: `${s} works`, ...over(s) }));
}

function decide(tests: TestRecord[], suitesSelected: string[] = [], unhandled: string[] = []) {
  const run = runRecord(tests, unhandled);
  const summary = buildSummary(run, tool, target);
  return { run, summary, cert: certify(run, summary, { suitesSelected }, HASH, ['12345678']) };
}

describe('certification', () => {
  it('certifies a clean run of every spec-level suite (warnings and extra suites allowed)', () => {
    const tests = [
      ...everySuite(),
      testRecord({ capability: 'refund', findings: [finding({ severity: 'warning', clause: 'sandbox#revert-and-refund' })] }),
    ];
    const { run, summary, cert } = decide(tests);
    expect(cert).toMatchObject({ certified: true, reasons: [] });
    const md = certificationMarkdown(run, summary, runInfo(), cert);
    expect(md).toContain('**Verdict: CERTIFIED**');
    expect(md).toContain(HASH);
    expect(md).toContain('ab'.repeat(32));
    expect(md).toContain('| Integrator id | sim-integrator |');
    expect(md).toContain('| Terminal id | 12345678 |');
    expect(md).toMatch(/\| payment \| 1 \| 1 \| 0 \| 0 \| 0 \|/);
    expect(certificationHtml(run, summary, runInfo(), cert)).toContain('>CERTIFIED</p>');
  });

  it('does not certify a run with a spec failure, and names the clause, its sentence and the test', () => {
    const quote = ['Required fields: transaction_id, terminal_id, organization.'];
    const tests = everySuite((s) => (s === 'print-slip' ? { state: 'failed', findings: [finding({ quote })] } : {}));
    const { run, summary, cert } = decide(tests);
    expect(cert.certified).toBe(false);
    expect(cert.reasons).toEqual([
      'suite print-slip failed: print-slip > print-slip works: [invariant.total-amount] (spec#transaction-print-slip) ' +
        'total_amount 101 != amount 100 + tip_amount 0',
    ]);
    const md = certificationMarkdown(run, summary, runInfo(), cert);
    expect(md).toContain('**Verdict: NOT CERTIFIED**');
    expect(md).toContain(
      '| failure | [spec#transaction-print-slip](spec/pay-connect-spec.html#transaction-print-slip) ' +
        '| “Required fields: transaction_id, terminal_id, organization.” | invariant.total-amount | ' +
        'print-slip > print-slip works |',
    );
    const html = certificationHtml(run, summary, runInfo(), cert);
    expect(html).toContain('NOT CERTIFIED');
    expect(html).toContain('spec#transaction-print-slip');
    expect(html).toContain('<td>“Required fields: transaction_id, terminal_id, organization.”</td>');
  });

  it('does not certify a run restricted by --suite', () => {
    const { cert } = decide([testRecord()], ['payment']);
    expect(cert.certified).toBe(false);
    expect(cert.reasons).toEqual([
      'the run was restricted by --suite (payment): pairing, auth, config, cancel, preauth, print-slip, webhooks, isolation not run',
    ]);
  });

  it('does not certify a run with checks disabled, and names them in the reasons and the facts', () => {
    const run = runRecord(everySuite());
    const summary = buildSummary(run, tool, target);
    const cert = certify(run, summary, { suitesSelected: [], checksDisabled: ['webhook.retried'] }, HASH);
    expect(cert.certified).toBe(false);
    expect(cert.reasons).toEqual(['checks were disabled (webhook.retried): what they judge was not judged']);
    expect(certificationMarkdown(run, summary, runInfo({ checksDisabled: ['webhook.retried'] }), cert)).toContain(
      '| Checks disabled | webhook.retried |',
    );
    expect(certify(run, summary, { suitesSelected: [], checksDisabled: [] }, HASH).certified).toBe(true);
  });

  it('counts --suite naming every spec-level suite as a full run', () => {
    expect(decide(everySuite(), [...SPEC_LEVEL_SUITES]).cert.certified).toBe(true);
  });

  it('names a spec-level suite that did not run or was skipped entirely', () => {
    const tests = everySuite((s) =>
      s === 'webhooks' ? { state: 'skipped', skipReason: 'the target cannot reach the receiver' } : {},
    ).filter((t) => t.capability !== 'isolation');
    const { cert } = decide(tests);
    expect(cert.reasons).toEqual([
      'suite webhooks was skipped entirely (1 test; e.g. the target cannot reach the receiver)',
      'suite isolation did not run (no test)',
    ]);
  });

  it('does not certify over a toolkit error, a failure outside the spec suites, or an error outside the tests', () => {
    const tests = [
      ...everySuite((s) =>
        s === 'auth' ? { state: 'failed', toolkitError: { code: 'PCC_TIMEOUT', message: 'a request timed out' } } : {},
      ),
      testRecord({
        capability: 'stateful',
        scenario: 'model',
        state: 'failed',
        findings: [finding({ clause: 'spec#states-and-transitions', check: 'transition.legal', message: 'SUCCESS -> FAILED' })],
      }),
    ];
    const { cert } = decide(tests, [], ['suites/x.suite.ts: boom']);
    expect(cert.reasons).toEqual([
      'suite auth failed: auth > auth works: toolkit error PCC_TIMEOUT: a request timed out',
      'stateful > model failed: [transition.legal] (spec#states-and-transitions) SUCCESS -> FAILED',
      'an error outside the tests: suites/x.suite.ts: boom',
    ]);
  });

  it("gives one bullet and one row per defect: a test failed only on what follows from another failed test's root gives none", () => {
    const root = finding({ test: 'payment > payment works', message: 'total_amount 1301 != amount 1300 + tip_amount 0' });
    const followsFrom = {
      check: root.check,
      clause: root.clause,
      message: root.message,
      test: 'payment > payment works',
      because: 'it follows',
    };
    const follow = finding({
      check: 'print-slip.agrees-with-status',
      clause: 'sandbox#status-and-print-slip',
      message: 'print slip of t1 disagrees with its status record: total_amount 1301 vs 1300',
      followsFrom,
    });
    const tests = everySuite((s) =>
      s === 'payment'
        ? { state: 'failed', findings: [root] }
        : s === 'print-slip'
          ? { state: 'failed', findings: [{ ...follow, test: 'print-slip > print-slip works' }] }
          : {},
    );
    const { run, summary, cert } = decide(tests);
    expect(cert.reasons.filter((r) => r.startsWith('suite '))).toEqual([
      `suite payment failed: payment > payment works: [invariant.total-amount] (spec#transaction-print-slip) ${root.message}`,
    ]);
    const rows = certificationMarkdown(run, summary, runInfo(), cert)
      .split('\n')
      .filter((l) => /^\| (failure|warning) \|/.test(l));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('<br>↳ follows: FAIL [print-slip.agrees-with-status]');
    expect(certificationHtml(run, summary, runInfo(), cert)).toContain(
      '<ul class="follow"><li>↳ follows: FAIL [print-slip.agrees-with-status]',
    );
  });
});
