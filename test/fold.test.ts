/**
 * One defect, one line (issue 40): a finding that follows from a root finding on the same exchange, by
 * a relation declared between their checks (src/checks/follow-ups.ts), is folded under its root in the
 * console, the certification, JUnit and Allure, and `baseline write` makes one entry for the root; the
 * summary still holds every finding, the folded ones marked with their root. An independent defect on
 * the same exchange is never folded.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type CliResult, runCli, tempDir } from './support/run-cli.ts';

interface FoldSummary {
  verdict: string;
  counts: { failures: number; warnings: number; known?: number; folded?: number };
  findings: {
    check: string;
    severity: string;
    message: string;
    test: string;
    followsFrom?: { check: string; message: string; test: string; because: string };
  }[];
  known?: { check: string; followsFrom?: { check: string } }[];
}

const SLIP = ['run', '--no-html', '--suite', 'print-slip', '--sim-fault', 'slip.total-mismatch', '--seed', '3'];
const read = (dir: string) => JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as FoldSummary;

/**
 * The SLIP run, made once for the tests that start from it (a child run less): they only read its
 * reports, each asserting its own thing; a test run alone makes it itself.
 */
let slipRun: Promise<CliResult> | undefined;
const theSlipRun = () => (slipRun ??= runCli(SLIP));
/** The console's finding lines: one per defect, a folded follow-up indented under its root. */
const findingLines = (stdout: string) => stdout.split('\n').filter((l) => /^(FAIL|WARN|KNOWN) /.test(l));

describe('one defect, one line', () => {
  test('a wrong slip total: one root line with the slip/status disagreement folded under it, one baseline entry, and known with it', async () => {
    const run = await theSlipRun();
    expect(run.code, run.stderr).toBe(1);
    const s = read(run.reportsDir);
    // summary.json keeps every finding; the follow-up names its root.
    const root = s.findings.find((f) => f.check === 'invariant.total-amount')!;
    const follow = s.findings.find((f) => f.check === 'print-slip.agrees-with-status')!;
    expect(root.followsFrom).toBeUndefined();
    expect(follow.followsFrom).toMatchObject({ check: 'invariant.total-amount', message: root.message, test: root.test });
    expect(s.counts.folded).toBe(1);
    // The console: one line for the defect, the follow-up under it.
    expect(findingLines(run.stdout)).toEqual([expect.stringMatching(/^FAIL invariant\.total-amount /)]);
    expect(run.stdout).toMatch(
      /^FAIL invariant\.total-amount [^\n]*\n(?: {2}re-run: [^\n]*\n)? {2}↳ follows: WARN \[print-slip\.agrees-with-status\] /m,
    );
    // The certification: one row for the defect.
    const cert = readFileSync(join(run.reportsDir, 'certification.md'), 'utf8');
    const rows = cert.split('\n').filter((l) => /^\| (failure|warning) \|/.test(l));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('invariant.total-amount');
    expect(rows[0]).toContain('↳ follows: WARN [print-slip.agrees-with-status]');
    // JUnit: the follow-up is no warning of its own, it is under its root.
    const junit = readFileSync(join(run.reportsDir, 'junit.xml'), 'utf8');
    expect(junit).not.toMatch(/<property name="warning" value="\[print-slip\.agrees-with-status\]/);
    expect(junit).toMatch(
      /<property name="follow-up" value="\[print-slip\.agrees-with-status\][^"]*follows from \[invariant\.total-amount\]/,
    );

    // baseline write: one entry, for the root, whose match keeps the arithmetic, not the amounts.
    const file = join(tempDir(), 'known.json');
    const write = await runCli([
      'baseline',
      'write',
      file,
      '--from',
      run.reportsDir,
      '--expires',
      '30d',
      '--reason',
      'slip total off by one',
      '--ticket',
      'PAY-7',
    ]);
    expect(write.code, write.stderr).toBe(0);
    const entries = (JSON.parse(readFileSync(file, 'utf8')) as { entries: { check: string; match?: string }[] }).entries;
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ check: 'invariant.total-amount' });
    expect(new RegExp(entries[0]!.match!).test('total_amount 2101 != amount 2000 + tip_amount 100')).toBe(true);

    // The same run (another seed: other amounts) with that baseline: the root and what follows from it are known.
    const known = await runCli([...SLIP.slice(0, -1), '7', '--baseline', file]);
    expect(known.code, `${known.stdout}\n${known.stderr}`).toBe(0);
    const k = read(known.reportsDir);
    expect(k.findings).toEqual([]);
    expect(k.known!.map((f) => f.check).sort()).toEqual(['invariant.total-amount', 'print-slip.agrees-with-status']);
    expect(findingLines(known.stdout)).toEqual([expect.stringMatching(/^KNOWN invariant\.total-amount /)]);
  }, 120_000);

  test('an independent defect on the same exchange is not folded: a slip whose status is outside the enum disagrees with the record on more than its total', async () => {
    const run = await runCli([...SLIP, '--sim-fault', 'slip.status-outside-enum']);
    expect(run.code, run.stderr).toBe(1);
    const s = read(run.reportsDir);
    // One finding per final status (the slips' tests run side by side, and the summary lists the
    // findings in the order they were filed), each naming the status beside the total, none folded.
    const follows = s.findings.filter((f) => f.check === 'print-slip.agrees-with-status');
    expect(follows.map((f) => f.message)).toContainEqual(expect.stringMatching(/status "COMPLETED" vs "SUCCESS"; total_amount \d+ vs \d+/));
    for (const f of follows) {
      expect(f.message).toMatch(/status "COMPLETED" vs "(?!COMPLETED)[A-Z_]+"; total_amount \d+ vs \d+/);
      expect(f.followsFrom).toBeUndefined();
    }
    expect(findingLines(run.stdout)).toContainEqual(expect.stringMatching(/^WARN print-slip\.agrees-with-status /));
    expect(s.counts.folded ?? 0).toBe(0);
  }, 120_000);

  test('Allure: a test failed only on known defects is failed and known (an accepted resolution), never skipped', async () => {
    const run = await theSlipRun();
    const file = join(tempDir(), 'known.json');
    await runCli(['baseline', 'write', file, '--from', run.reportsDir, '--expires', '30d', '--reason', 'slip total off by one']);
    const known = await runCli([...SLIP, '--baseline', file]);
    expect(known.code, known.stderr).toBe(0);
    const dir = join(known.reportsDir, 'allure-results');
    const results = readdirSync(dir)
      .filter((f) => f.endsWith('-result.json'))
      .map(
        (f) =>
          JSON.parse(readFileSync(join(dir, f), 'utf8')) as {
            status: string;
            statusDetails?: { known?: boolean; message?: string };
            labels: { name: string; value: string }[];
          },
      );
    const marked = results.filter((r) => r.labels.some((l) => l.name === 'conformance' && l.value === 'known-defect'));
    expect(marked).toHaveLength(1);
    expect(marked[0]).toMatchObject({ status: 'failed', statusDetails: { known: true } });
    expect(marked[0]!.statusDetails!.message).toMatch(/^known defect/);
    expect(results.filter((r) => r.status === 'skipped')).toEqual([]);
  }, 120_000);
});
