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

describe('coverage where people look, and as a gate', () => {
  it('a full run: seven sections, and the certification shows every operation and a documented success of each covered', async () => {
    const r = await runCli(['run', '--no-html', '--seed', '11']);
    expect(r.code, r.stderr).toBe(0);
    const c = coverageOf(r.reportsDir);
    for (const k of COVERAGE_KINDS) expect(Array.isArray(c[k]), k).toBe(true);
    expect(c.summary.operations).toMatchObject({ covered: c.summary.operations.total, percent: 100 });
    expect(c.summary.statuses2xx.percent).toBe(100);
    const md = readFileSync(join(r.reportsDir, 'certification.md'), 'utf8');
    expect(md).toMatch(/## Coverage[\s\S]*\| operations \| 15 \| 15 \| 100 % \|[\s\S]*\| a documented 2xx, by operation \| 15 \| 15 \| 100 % \|/);
    // What was not covered is named, with why.
    expect(md).toMatch(/not reachable on this target: it answered unpair with 200[^\n]*`unpair 204`/);
    expect(readFileSync(join(r.reportsDir, 'certification.html'), 'utf8')).toContain('<h2>Coverage</h2>');
    expect(r.stdout).toMatch(/^coverage: operations 15\/15, statuses \d+\/\d+ \(a 2xx of 15\/15 operations\)/m);
    expect(readFileSync(join(r.reportsDir, 'allure-results', 'environment.properties'), 'utf8')).toMatch(/^coverage=operations 15\/15/m);
  }, 180_000);

  it('--require-coverage operations on the config suite: exit 1, naming each operation never called', async () => {
    const r = await runCli(['run', '--no-html', '--suite', 'config', '--require-coverage', 'operations']);
    expect(r.code, r.stderr).toBe(1);
    const s = JSON.parse(readFileSync(join(r.reportsDir, 'summary.json'), 'utf8')) as { verdict: string; coverage: { required: string[]; uncovered: { kind: string; item: string }[] } };
    expect(s.verdict).toBe('fail');
    expect(s.coverage.required).toEqual(['operations']);
    const names = s.coverage.uncovered.map((u) => u.item);
    expect(names).toContain('cancelTransaction');
    expect(names).not.toContain('getConfiguration');
    for (const n of names) expect(r.stdout).toContain(`UNCOVERED operations ${n}: `);
    expect(readFileSync(join(r.reportsDir, 'certification.md'), 'utf8')).toMatch(/coverage required \(operations\): \d+ items never covered/);
    // The same run without the gate passes.
    const free = await runCli(['run', '--no-html', '--suite', 'config']);
    expect(free.code, free.stderr).toBe(0);
  }, 120_000);
});
