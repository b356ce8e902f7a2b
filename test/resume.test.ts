/**
 * `run --resume` as a user runs it: a run stopped before it finished (here by its time budget, the
 * way a closed laptop or a lost network leaves one) goes on from `session.json` in its reports folder,
 * with the session's seed, without running again what passed, and ends in one set of reports.
 */
import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './support/run-cli.ts';

interface Session {
  runs: number;
  seed: number;
  labels: Record<string, string>;
  passed: { name: string; carriedFrom?: string }[];
}

const read = <T>(dir: string, file: string) => JSON.parse(readFileSync(join(dir, file), 'utf8')) as T;

describe('run --resume', () => {
  it('goes on after an interrupted run: what passed is carried, the rest runs, one set of reports', async () => {
    const reports = join(tempDir('pcc-resume-'), 'reports');
    // A slow virtual terminal and a short budget: the first run stops with tests not finished.
    const common = [
      'run',
      '--no-html',
      '--suite',
      'payment',
      '--suite',
      'cancel',
      '--terminals',
      '1',
      '--reports',
      reports,
      '--label',
      'firmware=4.2.1',
    ];
    const first = await runCli([...common, '--seed', '11', '--sim-step-delay', '150ms', '--max-duration', '5s']);
    // Not finished and no finding: neither a pass nor a defect of the service (exit 2), not certified.
    expect(first.code, first.stderr).toBe(2);
    expect(first.summary?.verdict).toBe('pass');
    expect(first.summary?.incomplete?.reason).toBe('run budget exceeded');
    const stopped = read<Session>(reports, 'session.json');
    expect(stopped.runs).toBe(1);
    expect(stopped.seed).toBe(11);
    const passedFirst = stopped.passed.map((t) => t.name);
    expect(passedFirst.length).toBeGreaterThan(0);
    expect(passedFirst.length).toBeLessThan(first.summary!.counts.tests);

    // Forgetting --resume would replace the session: the run says so (here on a copy of the folder).
    const copy = join(tempDir('pcc-resume-'), 'reports');
    cpSync(reports, copy, { recursive: true });
    const fresh = await runCli(['run', '--no-html', '--suite', 'config', '--reports', copy]);
    expect(fresh.stderr).toMatch(/a new session: the one of .* \(\d+ of \d+ passed\) is replaced; --resume goes on with a session instead/);

    const second = await runCli([...common, '--resume']);
    expect(second.code, `${second.stdout}\n${second.stderr}`).toBe(0);
    expect(second.stderr).toContain(`${passedFirst.length} passed test${passedFirst.length === 1 ? '' : 's'} carried over, not run again`);
    const summary = second.summary as NonNullable<typeof second.summary> & { seed: number; labels: Record<string, string> };
    expect(summary.verdict).toBe('pass');
    expect(summary.counts.tests).toBe(first.summary!.counts.tests);
    expect(summary.seed).toBe(11);
    expect(summary.labels).toEqual({ firmware: '4.2.1' });
    const session = read<Session>(reports, 'session.json');
    expect(session.runs).toBe(2);
    expect(session.passed.length).toBe(summary.counts.passed);

    // The carried tests are reported as passed, marked with the session they passed in; the others ran now.
    const results = readdirSync(join(reports, 'allure-results'))
      .filter((f) => f.endsWith('-result.json'))
      .map((f) =>
        read<{ name: string; status: string; parameters: { name: string; value: string }[] }>(join(reports, 'allure-results'), f),
      );
    const carried = results.filter((r) => r.parameters.some((p) => p.name === 'carried over from'));
    expect(carried.map((r) => r.status)).toEqual(carried.map(() => 'passed'));
    expect(carried).toHaveLength(passedFirst.length);
    expect(results.filter((r) => r.status === 'passed').length).toBe(summary.counts.passed);
  }, 240_000);

  it('refuses to resume without a session, or with other settings, in one line with exit 2', async () => {
    const reports = join(tempDir('pcc-resume-'), 'reports');
    const none = await runCli(['run', '--no-html', '--suite', 'config', '--reports', reports, '--resume']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/^PCC_USAGE: --resume: .* holds no session\.json/m);
    const made = await runCli(['run', '--no-html', '--suite', 'config', '--reports', reports, '--seed', '3']);
    expect(made.code).toBe(0);
    expect(made.stderr).not.toContain('a new session');
    const other = await runCli(['run', '--no-html', '--suite', 'payment', '--reports', reports, '--resume']);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/^PCC_USAGE: --resume: the session in .* ran with suites config, this run has payment/m);
    const seed = await runCli(['run', '--no-html', '--suite', 'config', '--reports', reports, '--resume', '--seed', '4']);
    expect(seed.code).toBe(2);
    expect(seed.stderr).toMatch(/the session's seed is 3, --seed says 4/);
  }, 120_000);
});
