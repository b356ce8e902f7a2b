/**
 * CI shards: `--shard 1/2` and `--shard 2/2` together run every scenario of the unsharded run exactly
 * once, and `merge-reports` gives a summary equal in counts to it, with junit.xml, the certification
 * and the Allure results of both. A shard missing from the merge is a usage error, never a pass.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, tempDir } from './support/run-cli.ts';

const SUITES = ['--suite', 'auth', '--suite', 'config', '--suite', 'pairing', '--suite', 'preauth'];
const names = (dir: string) => (JSON.parse(readFileSync(join(dir, 'run-record.json'), 'utf8')) as { record: { tests: { name: string }[] } }).record.tests.map((t) => t.name);
const junitCases = (dir: string) => readFileSync(join(dir, 'junit.xml'), 'utf8').match(/<testcase /g)?.length ?? 0;

describe('shards and merge-reports', () => {
  it('two shards run every scenario once, and their merge counts as the whole run', async () => {
    const [whole, one, two] = await Promise.all([
      runCli(['run', '--no-html', '--seed', '11', ...SUITES]),
      runCli(['run', '--no-html', '--seed', '11', '--shard', '1/2', ...SUITES]),
      runCli(['run', '--no-html', '--seed', '11', '--shard', '2/2', ...SUITES]),
    ]);
    for (const r of [whole, one, two]) expect(r.code, r.stderr).toBe(0);
    const [a, b] = [names(one.reportsDir), names(two.reportsDir)];
    expect(a.length).toBeGreaterThan(0);
    expect(b.length).toBeGreaterThan(0);
    expect([...a, ...b].sort()).toEqual([...new Set([...a, ...b])].sort());
    expect([...a, ...b].length).toBe(whole.summary!.counts.tests);
    expect(existsSync(join(whole.reportsDir, 'run-record.json'))).toBe(false);
    // The shard record keeps each test's exchange count, not the exchanges (allure-results has them).
    const recorded = (JSON.parse(readFileSync(join(one.reportsDir, 'run-record.json'), 'utf8')) as { record: { tests: { exchanges: unknown[]; exchangeCount: number }[] } }).record.tests;
    expect(recorded.every((t) => t.exchanges.length === 0)).toBe(true);
    expect(recorded.some((t) => t.exchangeCount > 0)).toBe(true);

    const out = tempDir('pcc-merged-');
    const merged = await runCli(['merge-reports', one.reportsDir, two.reportsDir, '--reports', out]);
    expect(merged.code, merged.stderr).toBe(0);
    expect(merged.stdout).toContain('merged 2 shards');
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as { verdict: string; counts: unknown; shards: { index: number; tests: number }[] };
    expect(summary.counts).toEqual(whole.summary!.counts);
    expect(summary.verdict).toBe('pass');
    expect((summary as { seed?: number }).seed).toBe(11);
    expect(summary.shards.map((s) => [s.index, s.tests])).toEqual([[1, a.length], [2, b.length]]);
    expect(junitCases(out)).toBe(junitCases(whole.reportsDir));
    expect(readFileSync(join(out, 'certification.md'), 'utf8')).toMatch(/CERTIFIED/);
    const results = (dir: string) => readdirSync(join(dir, 'allure-results')).filter((f) => f.endsWith('-result.json')).length;
    expect(results(out)).toBe(results(one.reportsDir) + results(two.reportsDir));
    expect(existsSync(join(out, 'allure-report', 'index.html'))).toBe(true);

    // As in CI: folders given relative to the working directory, the HTML report included.
    const cwd = tempDir('pcc-ci-job-');
    const relative = await runCli(['merge-reports', one.reportsDir, two.reportsDir, '--reports', 'reports'], { cwd });
    expect(relative.code, relative.stdout + relative.stderr).toBe(0);
    expect(existsSync(join(cwd, 'reports', 'allure-report', 'index.html'))).toBe(true);

    const partial = await runCli(['merge-reports', one.reportsDir, '--reports', tempDir('pcc-merged-'), '--no-html']);
    expect(partial.code).toBe(2);
    expect(partial.stderr).toContain('shard 2/2 missing');
    const twice = await runCli(['merge-reports', one.reportsDir, one.reportsDir, '--no-html']);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('given twice');
  }, 240_000);
});
