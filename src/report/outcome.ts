/** How a test ended, in the words of the reports: spec failure, profile failure, warning, toolkit error... */
import { countsAsFailure, type Finding, normaliseMessage } from '../core/index.ts';
import type { TestRecord } from './records.ts';

/**
 * `spec-failure`: a spec requirement is broken. `profile-failure`: a profile or sandbox rule failed
 * (only under --strict). `toolkit-error`: the toolkit could not judge (a crash, a timeout, no pairing).
 * `warning`: passed with warnings. `blocked`: skipped because a defect of the service (a finding,
 * named) kept it from going on. `not-finished`: the run's budget or the operator stopped it. `not-checked`:
 * it ran and saw nothing wrong, but could not observe part of what it judges (see `notChecked`; a
 * scenario stopped at its own time budget is one, its unfinished part named there): never "passed".
 * `known-defect`: it failed, and only on defects a baseline entry knows (`--baseline`): reported, not
 * counted against the run (as pytest's xfail). `passed`, `skipped`: as they say.
 */
export type Outcome =
  | 'spec-failure'
  | 'profile-failure'
  | 'toolkit-error'
  | 'known-defect'
  | 'warning'
  | 'blocked'
  | 'not-finished'
  | 'not-checked'
  | 'passed'
  | 'skipped';

/** The source of a clause reference (`spec#...`, `profile#...`, `sandbox#...`). */
export function clauseSource(clause: string): string {
  return clause.split('#')[0] ?? '';
}

/** The failure findings of a test that count against the run (none a baseline entry knows). */
export function failuresOf(t: TestRecord): Finding[] {
  return t.findings.filter(countsAsFailure);
}

/** The warning findings of a test (none a baseline entry knows). */
export function warningsOf(t: TestRecord): Finding[] {
  return t.findings.filter((f) => f.severity === 'warning' && f.known === undefined);
}

/** The findings of a test that a baseline entry knows. */
export function knownOf(t: TestRecord): Finding[] {
  return t.findings.filter((f) => f.known !== undefined);
}

/** How the test ended. */
export function outcomeOf(t: TestRecord): Outcome {
  if (t.toolkitError) return 'toolkit-error';
  const failures = failuresOf(t);
  if (failures.some((f) => clauseSource(f.clause) === 'spec')) return 'spec-failure';
  if (failures.length > 0) return 'profile-failure';
  // A scenario stopped at its own time budget is no failure: its unfinished part is not checked (below).
  if (t.notFinished && !(t.notFinished === 'time budget exceeded' && t.state !== 'failed')) return 'not-finished';
  if (t.state === 'failed') return 'toolkit-error';
  if (knownOf(t).some((f) => f.severity === 'failure')) return 'known-defect';
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

/** The sentence(s) a finding's rule enforces, in typographic quotes (`“…” “…”`); '' without a quote. */
export function quoteText(f: Pick<Finding, 'quote'>): string {
  return (f.quote ?? []).map((q) => `“${q.replace(/\s+/g, ' ').trim()}”`).join(' ');
}

/** One line for a finding: `[check] (clause) message`. */
export function findingLine(f: Finding): string {
  return `[${f.check}] (${f.clause}) ${f.message}`;
}

/** How a known finding is named: `known defect (PAY-123, baseline entry 2, until 2026-12-31): reason`. */
export function knownText(k: NonNullable<Finding['known']>): string {
  return `known defect (${k.ticket ? `${k.ticket}, ` : ''}baseline entry ${k.entry}, until ${k.expires}): ${k.reason}`;
}

/** How a finding reproduced: `intermittent: reproduced 1/5 runs again, seen in 33 % of the runs`. */
export function confirmationText(c: NonNullable<Finding['confirmation']>): string {
  const rechecked = c.rechecked ? `; ${c.rechecked} attempt${c.rechecked === 1 ? '' : 's'} not counted (the harness was overloaded)` : '';
  return `${c.kind}: reproduced ${c.reproduced}/${c.attempts} runs again, seen in ${Math.round(c.rate * 100)} % of the runs${rechecked}`;
}

/** A finding and the findings that follow from it (core/follow-up.ts): one defect, one line. */
export interface Folded<F extends Finding = Finding> {
  finding: F;
  followUps: F[];
}

/** Whether `root` is the defect `f` follows from (the same check, clause and message, ids and amounts aside). */
function foldsUnder(root: Finding, f: Finding): boolean {
  const r = f.followsFrom;
  return (
    r !== undefined &&
    root !== f &&
    !root.followsFrom &&
    root.check === r.check &&
    root.clause === r.clause &&
    normaliseMessage(root.message) === normaliseMessage(r.message)
  );
}

/**
 * The findings of `list` with each follow-up folded under its root, in the list's order. A follow-up
 * whose root is not in the list stays a line of its own: folding never hides a finding.
 */
export function foldFindings<F extends Finding>(list: readonly F[]): Folded<F>[] {
  const out: Folded<F>[] = [];
  const placed = new Set<F>();
  for (const f of list) {
    if (placed.has(f) || list.some((r) => foldsUnder(r, f))) continue;
    const followUps = list.filter((g) => foldsUnder(f, g));
    for (const g of followUps) placed.add(g);
    out.push({ finding: f, followUps });
  }
  return out;
}

/** How many findings of `list` are folded under a root in it. */
export function foldedCount(list: readonly Finding[]): number {
  return list.filter((f) => list.some((r) => foldsUnder(r, f))).length;
}

/** One line for a folded follow-up: `↳ follows: WARN [check] (clause) message (because)`. */
export function followUpLine(f: Finding): string {
  const mark = f.known ? 'KNOWN' : f.severity === 'failure' ? 'FAIL' : 'WARN';
  return `↳ follows: ${mark} ${findingLine(f)}${f.followsFrom ? ` (${f.followsFrom.because})` : ''}`;
}
