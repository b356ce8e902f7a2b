/**
 * `summary.json`: the machine-readable result of a run, in exactly the published shape.
 */
import type { Finding } from '../core/index.ts';
import type { RunRecord } from './records.ts';

export interface Summary {
  tool: { name: string; version: string };
  target: { kind: string; baseUrl: string };
  verdict: 'pass' | 'fail';
  counts: { tests: number; passed: number; failed: number; skipped: number; failures: number; warnings: number };
  findings: Finding[];
}

/** Builds the summary. A failed test without a failure finding still fails the verdict. */
export function buildSummary(run: RunRecord, tool: Summary['tool'], target: Summary['target']): Summary {
  const findings = run.tests.flatMap((t) => t.findings.map((f) => ({ check: f.check, severity: f.severity, clause: f.clause, message: f.message, test: f.test ?? t.name, evidence: f.evidence ?? null })));
  const count = (s: string) => run.tests.filter((t) => t.state === s).length;
  const failures = findings.filter((f) => f.severity === 'failure').length;
  const failed = count('failed');
  return {
    tool,
    target,
    verdict: failures > 0 || failed > 0 || run.unhandled.length > 0 ? 'fail' : 'pass',
    counts: { tests: run.tests.length, passed: count('passed'), failed, skipped: count('skipped'), failures, warnings: findings.length - failures },
    findings,
  };
}

/** Exit code: 2 for a toolkit error, 1 for a failure of the service, 0 otherwise (warnings allowed). */
export function exitCodeFor(run: RunRecord, summary: Summary): 0 | 1 | 2 {
  if (run.unhandled.length > 0 || run.tests.some((t) => t.toolkitError)) return 2;
  return summary.verdict === 'fail' ? 1 : 0;
}
