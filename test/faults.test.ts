/**
 * The harness against the simulator's fault switches: for every fault that breaks a rule, `run`
 * reports the right check with the right severity and exit code; for every legal one, a clean pass;
 * and no registered check is left without a fault that shows it firing.
 */
import { describe, expect, test } from 'vitest';
import { CHECKS, FAULTS } from '../src/index.ts';
import { BREAKS, type FaultExpectation, LEGAL, LEGAL_COUNTED, SCENARIOS, SHOWN_ELSEWHERE, STATEFUL } from './fault-expectations.ts';
import { runCli } from './support/run-cli.ts';

const base = ['run', '--no-html', '--deadline', '10s'];
const suites = (names: string[]) => names.flatMap((s) => ['--suite', s]);
const brief = (findings: { check: string; severity: string; message: string }[]) =>
  findings
    .map((f) => `${f.severity} ${f.check}: ${f.message}`)
    .slice(0, 12)
    .join('\n');

describe('the fault table', () => {
  test('every fault of the simulator has an expectation, and every expectation a fault', () => {
    const ids = FAULTS.map((f) => f.id).sort();
    expect([...Object.keys(BREAKS), ...Object.keys(LEGAL)].sort()).toEqual(ids);
    for (const f of FAULTS) expect(f.kind, f.id).toBe(f.id in LEGAL ? 'legal' : 'breaks');
    for (const f of Object.keys(LEGAL_COUNTED)) expect(Object.keys(LEGAL), f).toContain(f);
  });

  test('no registered check is left without a fault that shows it firing', () => {
    const shown = new Set([...Object.values(BREAKS), ...Object.values(STATEFUL)].flatMap((x) => x.expect.map((y) => y.check)));
    const missing = [...CHECKS.keys()].filter((id) => !shown.has(id) && !(id in SHOWN_ELSEWHERE));
    expect(missing).toEqual([]);
  });

  test('each expectation names a registered check', () => {
    for (const [fault, x] of Object.entries(BREAKS)) {
      expect(x.expect.length, fault).toBeGreaterThan(0);
      for (const { check } of x.expect) expect(CHECKS.has(check), `${fault}: unknown check ${check}`).toBe(true);
    }
  });
});

async function expectFindings(fault: string, x: FaultExpectation, grep: string | undefined): Promise<void> {
  const r = await runCli([...base, ...suites(x.suites), '--sim-fault', fault, ...(grep ? ['--grep', grep] : []), ...(x.args ?? [])]);
  expect(r.summary, `${fault}: no summary\n${r.stderr}`).toBeDefined();
  const s = r.summary!;
  for (const want of x.expect) {
    expect(
      s.findings.some((f) => f.check === want.check && f.severity === want.severity),
      `${fault}: expected ${want.severity} ${want.check}; got\n${brief(s.findings)}\n${r.stderr}`,
    ).toBe(true);
  }
  if (x.first) expect(s.findings[0]?.check, `${fault}: the root cause first\n${brief(s.findings)}`).toBe(x.first);
  const failures = s.findings.filter((f) => f.severity === 'failure').length;
  expect(r.code, `${fault}: exit code\n${r.stderr}`).toBe(failures > 0 ? 1 : 0);
  // A fault that breaks only a profile rule must not fail the run: no false alarm at spec level.
  if (x.expect.every((w) => w.severity === 'warning')) expect(failures, `${fault}\n${brief(s.findings)}`).toBe(0);
}

describe.concurrent('run against each fault that breaks a rule', () => {
  for (const [fault, x] of Object.entries(BREAKS)) test(fault, () => expectFindings(fault, x, SCENARIOS[fault]));
  for (const [fault, x] of Object.entries(STATEFUL)) test(`${fault} (stateful model)`, () => expectFindings(fault, x, undefined));
});

describe.concurrent('run against each legal fault stays clean', () => {
  for (const [fault, names] of Object.entries(LEGAL)) {
    test(fault, async () => {
      const r = await runCli([...base, ...suites(names), '--sim-fault', fault]);
      expect(r.summary?.findings, `${fault}\n${r.stderr}`).toEqual([]);
      expect(r.summary?.verdict).toBe('pass');
      expect(r.summary!.counts.passed).toBeGreaterThan(0);
      expect(r.code).toBe(0);
      const counted = LEGAL_COUNTED[fault];
      if (counted) expect((r.summary as unknown as Record<string, unknown>)[counted], `${fault}: summary.${counted}`).toBeGreaterThan(0);
    });
  }
});
