/**
 * The evidence is kept but sized: a full conformance run against the embedded simulator (every suite,
 * the single-file HTML report included) leaves reports under 10 MB, counted both as bytes and as disk
 * blocks (thousands of small files used to cost four times their bytes), and the Allure history
 * carried from run to run keeps the last HISTORY_RUNS runs only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveConfig } from '../src/config/index.ts';
import { runConformance } from '../src/engine/index.ts';
import { HISTORY_RUNS } from '../src/report/allure-html.ts';
import { dirSize } from './support/dir-size.ts';
import { tempDir } from './support/run-cli.ts';

const MB = 1024 * 1024;

async function run(reports: string, argv: string[]) {
  const config = await resolveConfig({ argv: [...argv, '--reports', reports, '--terminals', '4'], env: {}, cwd: tempDir() });
  return runConformance(config, { stdout: () => {}, stderr: () => {}, interactive: false });
}

describe('the size of the reports', () => {
  it('stays under 10 MB for a full run, HTML included, and the history keeps the last runs only', async () => {
    const reports = join(tempDir(), 'reports');
    const full = await run(reports, []);
    expect(full.exitCode).toBe(0);
    expect(full.summary.counts.tests).toBeGreaterThan(150);
    expect(full.reports.allureReport).toBeDefined();
    const size = dirSize(reports);
    expect(size.bytes, `${(size.bytes / MB).toFixed(1)} MB`).toBeLessThan(10 * MB);
    expect(size.disk, `${(size.disk / MB).toFixed(1)} MB on disk`).toBeLessThan(10 * MB);
    expect(size.files).toBeLessThan(1000);
    // Every test still carries its whole conversation, once.
    const results = join(reports, 'allure-results');
    const withTranscript = readdirSync(results)
      .filter((f) => f.endsWith('-result.json'))
      .map((f) => JSON.parse(readFileSync(join(results, f), 'utf8')) as { status: string; attachments: { name: string }[] })
      .filter((r) => r.status !== 'skipped');
    expect(withTranscript.every((r) => r.attachments.filter((a) => a.name === 'exchanges').length === 1)).toBe(true);

    for (let i = 0; i < HISTORY_RUNS; i++) expect((await run(reports, ['--suite', 'config'])).exitCode).toBe(0);
    expect(readFileSync(join(reports, 'allure-history.jsonl'), 'utf8').trim().split('\n')).toHaveLength(HISTORY_RUNS);
  }, 300_000);
});
