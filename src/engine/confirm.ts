/**
 * `--confirm N`: each test that failed runs again, up to N times, each time on a fresh scope (a fresh
 * vitest run of just those tests, with a ledger of its own), and each of its failure findings is told
 * deterministic (seen again every time) or intermittent (not every time: still a finding, with its rate).
 * An attempt the test could not judge (the harness stood still through it, a toolkit error, blocked
 * by another test's finding, cut by a budget) does not count and is made once more, within 2N runs.
 */
import { type Finding, countsAsFailure, normaliseMessage } from '../core/index.ts';
import type { TestRecord } from '../report/index.ts';

/** Runs the given tests once more (a fresh scope each) and returns their records. */
export type RunAgain = (tests: readonly TestRecord[], attempt: number) => Promise<TestRecord[]>;

/** The tests a confirmation runs again: those with a failure finding that counts (none from the whole run). */
export function testsToConfirm(tests: readonly TestRecord[]): TestRecord[] {
  return tests.filter((t) => !t.wholeRun && !t.toolkitError && t.findings.some(countsAsFailure));
}

const sameDefect = (a: Pick<Finding, 'check' | 'clause' | 'message'>, b: Pick<Finding, 'check' | 'clause' | 'message'>) =>
  a.check === b.check && a.clause === b.clause && normaliseMessage(a.message) === normaliseMessage(b.message);

/** The findings of a failed test a confirmation judges: all but those a baseline entry knows. */
const judged = (f: Finding) => f.known === undefined;

/** Whether an attempt's record can say anything about the test: it ran to its end, undisturbed. */
export function attemptCounts(t: TestRecord | undefined): t is TestRecord {
  if (!t || t.toolkitError || t.notFinished || t.blockedBy) return false;
  if (t.state === 'skipped' && t.findings.length === 0) return false;
  return !t.harness?.overloaded?.length;
}

/** Whether the attempt saw the finding again: as a finding of its own, or as a repeat of one. */
export function seenAgain(f: Finding, attempt: TestRecord): boolean {
  return (
    attempt.findings.some((g) => g.severity === f.severity && sameDefect(f, g)) ||
    (attempt.repeats ?? []).some((r) => r.severity === f.severity && sameDefect(f, r))
  );
}

/** How the confirmation went, by test name. */
export interface ConfirmReport {
  tests: number;
  /** vitest runs made. */
  runs: number;
}

/**
 * Confirms the failed tests of `tests` in place: each of their findings (warnings too; not the known
 * ones) gets its `confirmation`. `runAgain` runs a batch of tests once more.
 */
export async function confirmFailures(tests: TestRecord[], n: number, runAgain: RunAgain): Promise<ConfirmReport> {
  const targets = testsToConfirm(tests);
  if (n <= 0 || targets.length === 0) return { tests: 0, runs: 0 };
  const state = new Map(targets.map((t) => [t.name, { counted: 0, rechecked: 0, seen: new Map<Finding, number>() }]));
  let runs = 0;
  for (let attempt = 1; attempt <= 2 * n; attempt++) {
    const due = targets.filter((t) => state.get(t.name)!.counted < n);
    if (due.length === 0) break;
    const again = new Map((await runAgain(due, attempt)).map((r) => [r.name, r]));
    runs++;
    for (const t of due) {
      const s = state.get(t.name)!;
      const r = again.get(t.name);
      if (!attemptCounts(r)) {
        s.rechecked++;
        continue;
      }
      s.counted++;
      for (const f of t.findings.filter(judged)) if (seenAgain(f, r)) s.seen.set(f, (s.seen.get(f) ?? 0) + 1);
    }
  }
  for (const t of targets) {
    const s = state.get(t.name)!;
    t.findings = t.findings.map((f) => {
      if (!judged(f) || s.counted === 0) return f;
      const reproduced = s.seen.get(f) ?? 0;
      return {
        ...f,
        confirmation: {
          attempts: s.counted,
          reproduced,
          kind: reproduced === s.counted ? 'deterministic' : 'intermittent',
          rate: Math.round(((reproduced + 1) / (s.counted + 1)) * 1000) / 1000,
          ...(s.rechecked > 0 ? { rechecked: s.rechecked } : {}),
        },
      };
    });
  }
  return { tests: targets.length, runs };
}

/** vitest's test-name pattern for the given tests: their scenario names, escaped, at the end of the full name. */
export function namePattern(tests: readonly Pick<TestRecord, 'name' | 'capability'>[]): string {
  const scenario = (t: Pick<TestRecord, 'name' | 'capability'>) =>
    t.name.startsWith(`${t.capability} > `) ? t.name.slice(t.capability.length + 3) : t.name;
  const names = [...new Set(tests.map(scenario))].map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `(?:${names.join('|')})$`;
}
