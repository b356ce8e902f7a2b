/** The final table of a run: per capability, then the findings, then the verdict. */
import type { RunRecord, Summary } from '../report/index.ts';

export function formatFinalTable(record: RunRecord, summary: Summary, summaryPath: string): string {
  const caps = new Map<string, { pass: number; fail: number; skip: number; warn: number }>();
  for (const t of record.tests) {
    const c = caps.get(t.capability) ?? { pass: 0, fail: 0, skip: 0, warn: 0 };
    if (t.state === 'passed') c.pass++;
    else if (t.state === 'failed') c.fail++;
    else c.skip++;
    c.warn += t.findings.filter((f) => f.severity === 'warning').length;
    caps.set(t.capability, c);
  }
  const rows = [['capability', 'pass', 'fail', 'skip', 'warn'], ...[...caps].map(([k, c]) => [k, String(c.pass), String(c.fail), String(c.skip), String(c.warn)])];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  '));
  const out = ['', ...lines, ''];
  for (const f of summary.findings) out.push(`${f.severity === 'failure' ? 'FAIL' : 'WARN'} ${f.check} (${f.clause}) ${f.test}: ${f.message}`);
  for (const t of record.tests.filter((x) => x.toolkitError)) out.push(`ERROR ${t.toolkitError!.code} in ${t.name}: ${t.toolkitError!.message.split('\n')[0]}`);
  for (const u of record.unhandled) out.push(`ERROR ${u.split('\n')[0]}`);
  const c = summary.counts;
  out.push('', `${summary.verdict.toUpperCase()}: ${c.tests} tests, ${c.passed} passed, ${c.failed} failed, ${c.skipped} skipped; ${c.failures} failures, ${c.warnings} warnings (${(record.durationMs / 1000).toFixed(1)} s)`, `summary: ${summaryPath}`);
  return `${out.join('\n')}\n`;
}
