/**
 * Runs the same conformance run against the embedded simulator N times in a row (default 10) and
 * prints how many passed: a flaky suite shows here, not in CI.
 *
 *   npx tsx bench/repeat.ts [N] [run options...]
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveConfig, runConformance } from '../src/index.ts';

const n = Number(process.argv[2] ?? 10);
const extra = process.argv.slice(3);
const io = { stdout: () => {}, stderr: (s: string) => process.stderr.write(s), interactive: false };
let passes = 0;
for (let i = 1; i <= n; i++) {
  const t0 = Date.now();
  const r = await runConformance(await resolveConfig({ argv: ['--reports', join(tmpdir(), `pcc-repeat-${process.pid}-${i}`), '--no-html', ...extra], env: {}, cwd: process.cwd() }), io);
  if (r.exitCode === 0) passes++;
  const bad = r.summary.findings.map((f) => `${f.check}: ${f.message}`).slice(0, 3);
  const errs = r.record.tests.filter((t) => t.toolkitError).map((t) => `${t.name}: ${t.toolkitError!.message.split('\n')[0]}`);
  console.log(`run ${i}: exit ${r.exitCode} (${((Date.now() - t0) / 1000).toFixed(1)} s, ${r.summary.counts.tests} tests)${[...bad, ...errs].map((s) => `\n    ${s}`).join('')}`);
}
console.log(`${passes} of ${n} runs passed`);
