import { describe, expect, it } from 'vitest';
import { buildJunitXml, xmlEscape } from './junit.ts';
import { buildSummary } from './summary.ts';
import { findAll, finding, parseXml, runInfo, runRecord, testRecord } from './testing.ts';

const tool = { name: 'payconnect-conformance', version: '0.1.0' };
const target = { kind: 'sim', baseUrl: 'http://127.0.0.1:1234' };

function mixedRun() {
  return runRecord([
    testRecord({ scenario: 'approve' }),
    testRecord({
      scenario: 'tip',
      findings: [
        finding({
          severity: 'warning',
          check: 'sandbox.outcome',
          clause: 'sandbox#transactions',
          quote: ['The outcome is chosen by the last two digits of the amount (`amount % 100`):'],
          message: 'tip_amount 0, expected 100',
        }),
      ],
    }),
    testRecord({
      scenario: 'slip <&> "total"',
      state: 'failed',
      findings: [finding()],
      errors: ['[invariant.total-amount] (spec#transaction-print-slip) total_amount 101 != amount 100 + tip_amount 0'],
    }),
    testRecord({
      capability: 'auth',
      scenario: 'token',
      state: 'failed',
      toolkitError: { code: 'PCC_TIMEOUT', message: 'a request timed out\u0001', hint: 'raise --deadline' },
      errors: ['PCC_TIMEOUT: a request timed out'],
    }),
    testRecord({ capability: 'auth', scenario: 'second pairing', state: 'skipped', skipReason: 'a second pairing needs another OTP' }),
    testRecord({
      capability: 'config',
      scenario: 'strict rule',
      state: 'failed',
      findings: [finding({ check: 'profile.x', clause: 'profile#rules-of-behaviour', message: 'strict' })],
    }),
  ]);
}

describe('junit.xml', () => {
  it("parses, and its counts are summary.json's (failures + errors = failed)", () => {
    const run = mixedRun();
    const summary = buildSummary(run, tool, target);
    const doc = parseXml(buildJunitXml(run, summary, runInfo()));
    expect(doc.name).toBe('testsuites');
    const n = (k: string) => Number(doc.attrs[k]);
    expect(n('tests')).toBe(summary.counts.tests);
    expect(n('skipped')).toBe(summary.counts.skipped);
    expect(n('failures') + n('errors')).toBe(summary.counts.failed);
    expect(n('errors')).toBe(1);
    const cases = findAll(doc, 'testcase');
    expect(cases).toHaveLength(summary.counts.tests);
    expect(findAll(doc, 'failure')).toHaveLength(n('failures'));
    expect(findAll(doc, 'error')).toHaveLength(n('errors'));
    expect(findAll(doc, 'skipped')).toHaveLength(n('skipped'));
    // Per suite, the same.
    const suites = findAll(doc, 'testsuite');
    expect(suites.map((s) => s.attrs.name)).toEqual(['payment', 'auth', 'config']);
    expect(suites.reduce((sum, s) => sum + Number(s.attrs.tests), 0)).toBe(summary.counts.tests);
  });

  it('carries findings as failure messages with their clause, warnings as properties and system-out', () => {
    const run = mixedRun();
    const doc = parseXml(buildJunitXml(run, buildSummary(run, tool, target), runInfo()));
    const byName = (name: string) => findAll(doc, 'testcase').find((c) => c.attrs.name === name)!;
    const slip = byName('payment > slip <&> "total"');
    const failure = findAll(slip, 'failure')[0]!;
    expect(failure.attrs.message).toBe(
      '[invariant.total-amount] (spec#transaction-print-slip) total_amount 101 != amount 100 + tip_amount 0',
    );
    expect(failure.attrs.type).toBe('spec-failure');
    const tip = byName('payment > tip');
    expect(findAll(tip, 'property').find((p) => p.attrs.name === 'warning')?.attrs.value).toContain('(sandbox#transactions)');
    expect(findAll(tip, 'system-out')[0]!.text).toContain('WARN [sandbox.outcome]');
    // The finding's rule quotes its sentence beside the clause.
    expect(findAll(tip, 'system-out')[0]!.text).toContain(
      'quote (sandbox#transactions): “The outcome is chosen by the last two digits of the amount (`amount % 100`):”',
    );
    expect(findAll(tip, 'failure')).toHaveLength(0);
    const token = byName('auth > token');
    expect(findAll(token, 'error')[0]!.attrs.type).toBe('PCC_TIMEOUT');
    expect(findAll(byName('auth > second pairing'), 'skipped')[0]!.attrs.message).toBe('a second pairing needs another OTP');
    expect(findAll(byName('config > strict rule'), 'failure')[0]!.attrs.type).toBe('profile-failure');
    const runProps = findAll(findAll(doc, 'testsuite')[0]!, 'property').filter((p) => p.attrs.name === 'contract.sha256');
    expect(runProps[0]!.attrs.value).toBe('ab'.repeat(32));
  });

  it('writes unhandled errors without counting them as tests', () => {
    const run = runRecord([testRecord()], ['suites/x.suite.ts: SyntaxError']);
    const summary = buildSummary(run, tool, target);
    const doc = parseXml(buildJunitXml(run, summary, runInfo()));
    expect(Number(doc.attrs.tests)).toBe(1);
    expect(findAll(doc, 'system-err')[0]!.text).toContain('SyntaxError');
  });

  it('escapes markup and drops characters XML cannot hold', () => {
    expect(xmlEscape('a<b>&"c\'\u0007\ud800')).toBe('a&lt;b&gt;&amp;&quot;c&apos;');
  });
});
