/** How a test ended, in the words of the reports: spec failure, profile failure, warning, toolkit error... */
import type { Finding } from '../core/index.ts';
import type { TestRecord } from './records.ts';

/**
 * `spec-failure`: a spec requirement is broken. `profile-failure`: a profile or sandbox rule failed
 * (only under --strict). `toolkit-error`: the toolkit could not judge (a crash, a timeout, no pairing).
 * `warning`: passed with warnings. `blocked`: skipped because a defect of the service (a finding,
 * named) kept it from going on. `not-finished`: a time budget stopped it. `not-checked`: it ran and saw
 * nothing wrong, but could not observe part of what it judges (see `notChecked`): never "passed".
 * `passed`, `skipped`: as they say.
 */
export type Outcome = 'spec-failure' | 'profile-failure' | 'toolkit-error' | 'warning' | 'blocked' | 'not-finished' | 'not-checked' | 'passed' | 'skipped';

/** The source of a clause reference (`spec#...`, `profile#...`, `sandbox#...`). */
export function clauseSource(clause: string): string {
  return clause.split('#')[0] ?? '';
}

/** The failure findings of a test. */
export function failuresOf(t: TestRecord): Finding[] {
  return t.findings.filter((f) => f.severity === 'failure');
}

/** The warning findings of a test. */
export function warningsOf(t: TestRecord): Finding[] {
  return t.findings.filter((f) => f.severity === 'warning');
}

/** How the test ended. */
export function outcomeOf(t: TestRecord): Outcome {
  if (t.toolkitError) return 'toolkit-error';
  const failures = failuresOf(t);
  if (failures.some((f) => clauseSource(f.clause) === 'spec')) return 'spec-failure';
  if (failures.length > 0) return 'profile-failure';
  if (t.notFinished) return 'not-finished';
  if (t.state === 'failed') return 'toolkit-error';
  if (t.state === 'skipped') return t.blockedBy ? 'blocked' : 'skipped';
  if (warningsOf(t).length > 0) return 'warning';
  return t.notChecked?.length ? 'not-checked' : 'passed';
}

/** One line for what a test could not observe: `not checked: …; …`. */
export function notCheckedLine(t: TestRecord): string | undefined {
  return t.notChecked?.length ? `not checked: ${t.notChecked.join('; ')}` : undefined;
}

/** The scenario's own name (without the `capability > ` prefix). */
export function scenarioOf(t: TestRecord): string {
  const prefix = `${t.capability} > `;
  return t.name.startsWith(prefix) ? t.name.slice(prefix.length) : t.name;
}

/** One line for a finding: `[check] (clause) message`. */
export function findingLine(f: Finding): string {
  return `[${f.check}] (${f.clause}) ${f.message}`;
}
