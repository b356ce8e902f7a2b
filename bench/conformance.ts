/**
 * How long the default full conformance run takes against the embedded simulator, and how many
 * requests per second the property and stateful suites reach. Prints figures.
 *
 *   npx tsx bench/conformance.ts [--runs quick|thorough|N]
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig, runConformance } from '../src/index.ts';

const io = { stdout: () => {}, stderr: (s: string) => process.stderr.write(s), interactive: false };
const extra = process.argv.slice(2);
const reports = join(tmpdir(), `pcc-bench-${process.pid}`);

const t0 = Date.now();
const full = await runConformance(await resolveConfig({ argv: ['--reports', reports, '--no-html', ...extra], env: {}, cwd: process.cwd() }), io);
const c = full.summary.counts;
console.log(`full run: ${((Date.now() - t0) / 1000).toFixed(1)} s wall (${(full.record.durationMs / 1000).toFixed(1)} s in suites), verdict ${full.summary.verdict}, ${c.tests} tests (${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped)`);

for (const suite of ['properties', 'stateful']) {
  const tests = full.record.tests.filter((t) => t.capability === suite);
  const requests = tests.reduce((n, t) => n + t.exchangeCount, 0);
  const ms = tests.reduce((n, t) => n + t.durationMs, 0);
  console.log(`${suite}: ${tests.length} tests, ${requests} requests in ${(ms / 1000).toFixed(1)} s = ${ms > 0 ? ((requests * 1000) / ms).toFixed(0) : '-'} req/s`);
}
