/**
 * What a CI log shows, as CI runs it (no TTY, CI=true): a line per finished test with its capability,
 * no control characters, the final table with a re-run line per failure; under GitHub Actions, an
 * ::error annotation per failure and a job summary appended to $GITHUB_STEP_SUMMARY; the module cache
 * a CI cache can keep (PAYCONNECT_MODULE_CACHE), which the build's collection of the suites fills for
 * the first run.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cachedModuleMetadata } from '../src/engine/testing.ts';
import { ROOT, childEnv, runCli, tempDir } from './support/run-cli.ts';

describe('output in CI', () => {
  it('a failing run under GitHub Actions: test lines, annotations, re-run line and job summary', async () => {
    const stepSummary = join(tempDir('pcc-gha-'), 'step-summary.md');
    writeFileSync(stepSummary, '# earlier step\n');
    const r = await runCli(['run', '--no-html', '--suite', 'print-slip', '--sim-fault', 'slip.total-mismatch', '--seed', '3'], {
      env: { CI: 'true', GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: stepSummary },
    });
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).not.toMatch(/\x1b|\r/);
    const testLines = r.stdout.split('\n').filter((l) => /^ {2}[✓✗-] print-slip > /.test(l));
    expect(testLines.length).toBe(r.summary!.counts.tests);
    expect(testLines.some((l) => /^ {2}✗ print-slip > .*1 failure: invariant\.total-amount/.test(l))).toBe(true);
    // The re-run carries the run's options that shaped the test (the fault), not those that picked the tests.
    expect(r.stdout).toMatch(/^ {2}re-run: payconnect-conformance run --sim-fault slip\.total-mismatch --seed 3 --grep '[^']+'$/m);
    expect(r.stdout).toMatch(/^::error title=invariant\.total-amount \(spec#transaction-print-slip\)::print-slip > /m);
    const md = readFileSync(stepSummary, 'utf8');
    expect(md.startsWith('# earlier step\n## Pay-Connect conformance: FAIL')).toBe(true);
    expect(md).toContain('| FAIL | invariant.total-amount |');
  }, 120_000);

  it('with --quiet: a line per suite file, none per test', async () => {
    const r = await runCli(['run', '--no-html', '--suite', 'config', '--suite', 'payment', '--quiet'], { env: { CI: 'true' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/^ {2}✓ (config|payment) > /m);
    expect(r.stdout).toMatch(/^ {2}✓ config: \d+ passed, 0 failed, 0 skipped$/m);
    expect(r.stdout).toMatch(/^ {2}✓ payment: \d+ passed, 0 failed, \d+ skipped$/m);
  }, 120_000);

  it('outside GitHub Actions: no annotations', async () => {
    const r = await runCli(['run', '--no-html', '--suite', 'config'], { env: { CI: 'true', GITHUB_ACTIONS: '' } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/^::/m);
    expect(r.stdout).toMatch(/^ {2}✓ config > /m);
  }, 120_000);

  it('the suites go through the module cache PAYCONNECT_MODULE_CACHE names; one it cannot write is a usage error', async () => {
    const dir = tempDir();
    const cache = join(dir, 'modules');
    const r = await runCli(['run', '--no-html', '--suite', 'config', '--reports', join(dir, 'reports')], {
      env: { CI: 'true', PAYCONNECT_MODULE_CACHE: cache },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(cachedModuleMetadata(cache).some((meta) => meta.includes('/suites/config/config.suite.ts'))).toBe(true);

    writeFileSync(join(dir, 'file'), '');
    const bad = await runCli(['run', '--no-html', '--suite', 'config', '--reports', join(dir, 'refused')], {
      env: { CI: 'true', PAYCONNECT_MODULE_CACHE: join(dir, 'file', 'x') },
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(
      /^PCC_USAGE: PAYCONNECT_MODULE_CACHE=.*: the module cache's folder cannot be made or written\n {2}fix: .*PAYCONNECT_MODULE_CACHE=off$/m,
    );
    expect(existsSync(join(dir, 'refused'))).toBe(false);
  }, 120_000);

  it("the build's collection of the suites fills the module cache with what a run reads: the first run transforms nothing", async () => {
    const cache = join(tempDir(), 'modules');
    // Neither `npm run build` nor a user's shell sets NODE_ENV, which is part of every cache key.
    const env = childEnv({ PAYCONNECT_MODULE_CACHE: cache, NODE_ENV: undefined });
    // What the build does (scripts/build.mjs: writeTestIndex), from the build the command runs (else the sources, as bin/ does).
    const collect = `
      import { builtIsFresh } from './bin/source-stamp.js';
      const fresh = builtIsFresh('.');
      if (!fresh) (await import('tsx/esm/api')).register();
      const { collectTestNames } = await import(fresh ? './dist/engine/collect-tests.js' : './src/engine/collect-tests.ts');
      console.log((await collectTestNames(['config'])).length);`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', collect], { cwd: ROOT, env });
    expect(Number(stdout.trim())).toBeGreaterThan(0);
    const collected = readdirSync(cache).sort();
    expect(cachedModuleMetadata(cache).some((meta) => meta.includes('/suites/config/config.suite.ts'))).toBe(true);

    const r = await runCli(['run', '--no-html', '--suite', 'config'], {
      env: { CI: 'true', PAYCONNECT_MODULE_CACHE: cache, NODE_ENV: undefined },
    });
    expect(r.code, r.stderr).toBe(0);
    expect(readdirSync(cache).sort()).toEqual(collected);
  }, 120_000);
});
