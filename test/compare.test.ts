/**
 * `compare` as a firmware tester or a deploy gate uses it: two clean runs of the same service show no
 * regression (exit 0); a run with a wrong slip total against a clean one flips the slip tests to fail
 * with the finding and exits 1; `run --compare-to` says the same in the certification; a folder that
 * is not a run's reports is exit 2 naming it.
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from './support/run-cli.ts';

const RUN = ['run', '--no-html', '--suite', 'print-slip', '--terminals', '2'];

interface CompareJson {
  base: { labels: Record<string, string> };
  candidate: { labels: Record<string, string> };
  regressed: boolean;
  tests: { flipped: { test: string; change: string; finding?: { check: string } }[] };
  findings: { new: { check: string }[] };
  timing: { regressions: unknown[] };
  shapes: { appeared: Record<string, string[]>; disappeared: Record<string, string[]> };
}
const readJson = (dir: string) => JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8')) as CompareJson;

describe('compare', () => {
  test('two clean runs: no regression; a wrong slip total: the slip tests flip to fail with the finding, exit 1, also through run --compare-to', async () => {
    const [clean, again] = await Promise.all([
      runCli([...RUN, '--seed', '1', '--label', 'firmware=4.2.0']),
      runCli([...RUN, '--seed', '2', '--label', 'firmware=4.2.1']),
    ]);
    expect(clean.code, clean.stderr).toBe(0);
    expect(again.code, again.stderr).toBe(0);
    expect(clean.summary).toHaveProperty('timing.operations.getPrintSlip.p50Ms');

    const out = tempDir();
    const same = await runCli(['compare', clean.reportsDir, again.reportsDir, '--reports', out]);
    expect(same.code, same.stdout + same.stderr).toBe(0);
    const c = readJson(out);
    expect(c.regressed).toBe(false);
    expect(c.tests.flipped).toEqual([]);
    expect(c.timing.regressions).toEqual([]);
    expect(c.base.labels).toEqual({ firmware: '4.2.0' });
    expect(c.candidate.labels).toEqual({ firmware: '4.2.1' });
    expect(readFileSync(join(out, 'compare.html'), 'utf8')).toContain('<svg');

    const broken = await runCli([...RUN, '--seed', '3', '--sim-fault', 'slip.total-mismatch', '--compare-to', clean.reportsDir]);
    expect(broken.code, broken.stderr).toBe(1);
    expect(broken.stdout).toContain('compare: REGRESSED');
    expect(readFileSync(join(broken.reportsDir, 'certification.md'), 'utf8')).toContain('## Compared with firmware=4.2.0');
    const flipped = readJson(broken.reportsDir).tests.flipped;
    expect(flipped.length).toBeGreaterThan(0);
    expect(
      flipped.every(
        (f) => f.test.startsWith('print-slip > ') && f.change === 'pass->fail' && f.finding?.check === 'invariant.total-amount',
      ),
    ).toBe(true);
    // The shapes run --compare-to saw are those compare sees in the two folders afterwards (webhook
    // bodies included: a record holds them parsed, a transcript raw).
    const afterwards = tempDir();
    await runCli(['compare', clean.reportsDir, broken.reportsDir, '--reports', afterwards]);
    expect(readJson(broken.reportsDir).shapes).toEqual(readJson(afterwards).shapes);

    // From the transcripts alone (no summary.json): the same verdict, the same flips, the labels kept.
    const bare = (dir: string) => {
      const copy = join(tempDir(), 'reports');
      cpSync(dir, copy, { recursive: true });
      rmSync(join(copy, 'summary.json'));
      return copy;
    };
    const fromTranscripts = tempDir();
    const again2 = await runCli(['compare', bare(clean.reportsDir), bare(broken.reportsDir), '--reports', fromTranscripts]);
    expect(again2.code, again2.stdout + again2.stderr).toBe(1);
    const t = readJson(fromTranscripts);
    expect(t.tests.flipped).toEqual(flipped);
    expect(t.base.labels).toEqual({ firmware: '4.2.0' });
  });

  test("a folder that is missing or is not a run's reports is exit 2, naming it", async () => {
    const missing = await runCli(['compare', '/nonexistent/base', tempDir()]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('/nonexistent/base');
    const empty = tempDir();
    const notReports = await runCli(['compare', empty, empty]);
    expect(notReports.code).toBe(2);
    expect(notReports.stderr).toContain(`BASE ${empty} is not a reports folder`);
  });

  test("run --compare-to a folder that is missing or not a run's reports: exit 2 before the run, naming --compare-to and the fix", async () => {
    const missing = await runCli([...RUN, '--compare-to', '/nonexistent/dir']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--compare-to /nonexistent/dir is not a folder');
    expect(missing.stderr).not.toContain('BASE');
    expect(missing.stderr).toMatch(/give --compare-to the reports folder of an earlier run/);
    expect(missing.summary).toBeUndefined();
    const empty = tempDir();
    const notReports = await runCli([...RUN, '--compare-to', empty]);
    expect(notReports.code).toBe(2);
    expect(notReports.stderr).toContain(`--compare-to ${empty} is not a reports folder (no transcript.jsonl.gz)`);
  });
});
