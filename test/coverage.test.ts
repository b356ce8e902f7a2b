/**
 * coverage.json of real runs where people look: a full run's seven sections in coverage.json, the
 * certification, the final table and Allure's environment, and `--require-coverage` as a gate. The
 * merge of shards has the unsharded run's coverage: test/shards.test.ts, beside the other reports.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Coverage, COVERAGE_KINDS } from '../src/report/index.ts';
import { runCli } from './support/run-cli.ts';

const coverageOf = (dir: string) => JSON.parse(readFileSync(join(dir, 'coverage.json'), 'utf8')) as Coverage;

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
