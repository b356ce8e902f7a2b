/**
 * coverage.json of real runs: every run writes it with its seven sections, and the merge of
 * `--shard 1/2` and `--shard 2/2` has the coverage of the unsharded run with the same seed (the
 * merge itself is exact: that of the shards' coverages, and that of their records).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Coverage, COVERAGE_KINDS, type ShardRecord, buildCoverage, mergeCoverage } from '../src/report/index.ts';
import { runCli, tempDir } from './support/run-cli.ts';

const SUITES = ['--suite', 'auth', '--suite', 'config', '--suite', 'pairing', '--suite', 'preauth'];
const coverageOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'coverage.json'), 'utf8')) as Coverage;
const shardOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'run-record.json'), 'utf8')) as ShardRecord;
/** Each item of every section by its name, with whether it was covered. */
const flags = (c: Coverage) => Object.fromEntries(COVERAGE_KINDS.flatMap((k) => (c[k] as { covered: boolean }[]).map((i) => [`${k} ${JSON.stringify({ ...i, covered: undefined, reason: undefined, tests: undefined, polling: undefined, webhook: undefined, by: undefined, deliveries: undefined, checks: undefined, findings: undefined, validlySigned: undefined })}`, i.covered])));

describe('coverage.json of real runs', () => {
  it('the merge of two shards covers what the unsharded run with the same seed covers', async () => {
    const [whole, one, two] = await Promise.all([
      runCli(['run', '--no-html', '--seed', '7', ...SUITES]),
      runCli(['run', '--no-html', '--seed', '7', '--shard', '1/2', ...SUITES]),
      runCli(['run', '--no-html', '--seed', '7', '--shard', '2/2', ...SUITES]),
    ]);
    for (const r of [whole, one, two]) expect(r.code, r.stderr).toBe(0);
    const out = tempDir('pcc-merged-');
    const merged = await runCli(['merge-reports', one.reportsDir, two.reportsDir, '--reports', out, '--no-html']);
    expect(merged.code, merged.stderr).toBe(0);

    const [m, w, a, b] = [coverageOf(out), coverageOf(whole.reportsDir), coverageOf(one.reportsDir), coverageOf(two.reportsDir)];
    // Exact by construction: the merged file is the merge of the shards' files, and that of their records.
    expect(m).toEqual(mergeCoverage(a, b));
    const [ra, rb] = [shardOf(one.reportsDir), shardOf(two.reportsDir)];
    expect(ra.record.tests.every((t) => t.coverage !== undefined)).toBe(true);
    expect(m).toEqual(buildCoverage({ tests: [...rb.record.tests, ...ra.record.tests] }, ra.info));

    // The same as the run that was not cut in two.
    expect(m.summary).toEqual(w.summary);
    expect(flags(m)).toEqual(flags(w));
    // (Which test made a call can differ: the first test of each worker pairs its terminal.)
    expect(m.context.tests).toBe(whole.summary!.counts.tests);

    // Every section is there, and the run exercised each.
    for (const k of COVERAGE_KINDS) expect(m[k].length, k).toBeGreaterThan(0);
    for (const k of ['operations', 'statuses', 'enums', 'events', 'clauses'] as const) expect(m.summary[k].covered, k).toBeGreaterThan(0);
    // What the suites run never saw is named as skipped by the setting that chose them.
    const missed = COVERAGE_KINDS.flatMap((k) => (m[k] as { covered: boolean; reason?: string }[]).filter((i) => !i.covered));
    expect(missed.length).toBeGreaterThan(0);
    for (const i of missed) expect(i.reason).toMatch(/^skipped by a setting: only the suites auth, config, pairing, preauth$|^not reachable on this target: it answered unpair with/);
  }, 240_000);
});
