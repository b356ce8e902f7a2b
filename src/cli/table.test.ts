import { describe, expect, it } from 'vitest';
import { buildSummary } from '../report/summary.ts';
import { finding, runRecord, testRecord } from '../report/testing.ts';
import { shapingOptions } from '../config/index.ts';
import { formatFinalTable, rerunCommand } from './table.ts';

const tool = { name: 'payconnect-conformance', version: '0.1.0' };
const target = { kind: 'url', baseUrl: 'http://127.0.0.1:1' };

describe('the final table', () => {
  it('leads with the finding that blocked tests, says how many, and counts the blocked tests', () => {
    const token = finding({
      check: 'auth.token-obtained',
      clause: 'spec#authentication',
      message: 'no token: 401',
      test: 'config > first',
    });
    const root = { check: token.check, severity: token.severity, clause: token.clause, message: token.message, test: 'config > first' };
    const run = runRecord([
      testRecord({ capability: 'print-slip', scenario: 'slip', state: 'failed', findings: [finding({ test: 'print-slip > slip' })] }),
      testRecord({ capability: 'config', scenario: 'first', state: 'failed', findings: [token] }),
      testRecord({ scenario: 'a', state: 'skipped', blockedBy: root }),
      testRecord({ scenario: 'b', state: 'skipped', blockedBy: root }),
    ]);
    const lines = formatFinalTable(run, buildSummary(run, tool, target), 'summary.json').split('\n');
    const findings = lines.filter((l) => /^(FAIL|WARN) /.test(l));
    expect(findings[0]).toBe('FAIL auth.token-obtained (spec#authentication) config > first: no token: 401 [blocked 2 tests]');
    expect(findings[1]).toMatch(/^FAIL invariant.total-amount /);
    expect(lines).toContain('FAIL: 4 tests, 0 passed, 2 failed, 2 skipped (2 blocked by a service defect); 2 failures, 0 warnings (1.2 s)');
  });

  it('names the tests a time budget stopped, and calls an internal error a bug of the toolkit', () => {
    const run = runRecord([
      testRecord({
        scenario: 'crash',
        state: 'failed',
        toolkitError: { code: 'PCC_INTERNAL', message: 'TypeError: x is undefined\n    at y' },
      }),
      testRecord({ scenario: 'late', state: 'skipped', notFinished: 'run budget exceeded' }),
    ]);
    const text = formatFinalTable(run, buildSummary(run, tool, target), 'summary.json');
    expect(text).toContain('INCOMPLETE run budget exceeded: 1 test not finished (payment > late)');
    expect(text).toContain('ERROR PCC_INTERNAL in payment > crash: TypeError: x is undefined (this is a bug in payconnect-conformance');
  });
});

describe('re-running a failure', () => {
  it("prints, under each failure, the command that runs its test again with the run's seed", () => {
    const run = runRecord([
      testRecord({
        capability: 'print-slip',
        scenario: "slip of a SUCCESS (amount 2.50) isn't off",
        state: 'failed',
        findings: [finding({ test: "print-slip > slip of a SUCCESS (amount 2.50) isn't off" })],
      }),
    ]);
    const summary = buildSummary(run, tool, target, {
      seed: 42,
      startedAt: '2026-11-25T10:00:00.000Z',
      finishedAt: '2026-11-25T10:00:01.000Z',
    });
    const lines = formatFinalTable(run, summary, 'summary.json').split('\n');
    const at = lines.findIndex((l) => l.startsWith('FAIL invariant.total-amount'));
    expect(lines[at + 1]).toBe(
      `  re-run: payconnect-conformance run --seed 42 --grep 'slip of a SUCCESS \\(amount 2\\.50\\) ` +
        `isn'\\''t off' (plus this run's target and --sim-fault options)`,
    );
  });

  it("gives a --grep that matches the test's name and only names with that text", () => {
    const cmd = rerunCommand(7, 'payment > amount 1.5 (rejected)');
    const pattern = /--grep '(.*)' \(/.exec(cmd)![1]!;
    expect(new RegExp(pattern).test('payment amount 1.5 (rejected)')).toBe(true);
    expect(new RegExp(pattern).test('payment amount 105 rejected')).toBe(false);
  });
});

describe('the re-run line of a run', () => {
  it('carries every option of the run that shaped the test, not those that picked or reported it', () => {
    const argv = [
      '--target',
      'https://staging.example',
      '--sim-fault',
      'slip.bad-tag',
      '--strict',
      '--profile',
      'public',
      '--suite',
      'print-slip',
      '--grep',
      'slip',
      '--reports',
      'out',
      '--no-html',
      '--seed',
      '9',
      '--otp',
      '123456',
      '--disable-check=webhook.retried',
    ];
    expect(shapingOptions(argv)).toEqual([
      '--target',
      'https://staging.example',
      '--sim-fault',
      'slip.bad-tag',
      '--strict',
      '--profile',
      'public',
      '--disable-check=webhook.retried',
    ]);
    expect(rerunCommand(7, 'payment > amount 1.5 (rejected)', argv)).toBe(
      'payconnect-conformance run --target https://staging.example --sim-fault slip.bad-tag --strict ' +
        "--profile public --disable-check=webhook.retried --seed 7 --grep 'amount 1\\.5 \\(rejected\\)'",
    );
  });

  it('never prints a password a URL option holds', () => {
    const line = rerunCommand(1, 'a > b', ['--proxy', 'http://user:s3cret@proxy.example:3128', '--target=https://u:pw@staging.example']);
    expect(line).not.toMatch(/s3cret|:pw@/);
    expect(line).toContain('--proxy http://user:REDACTED@proxy.example:3128/');
  });
});
