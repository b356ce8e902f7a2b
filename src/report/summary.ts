/**
 * `summary.json`: the machine-readable result of a run, in the published shape, root causes first.
 * Beyond the original fields: each finding counts where it was seen again (`repeats`), `blocked` says
 * which tests each finding kept from going on, and `incomplete` lists the tests a time budget stopped.
 */
import { type ConnectionInfo, type Finding, countsAsFailure, defectKey, normaliseMessage } from '../core/index.ts';
import type { BaselineSummary } from './baseline.ts';
import type { Coverage, ExcludedItem, UncoveredItem } from './coverage.ts';
import { foldedCount } from './outcome.ts';
import type { RunRecord, TestRecord } from './records.ts';
import { type TimingSummary, timingSummaryOf } from './timing.ts';

/** A finding of the summary: where it was first seen, and how often it was seen again. */
export interface SummaryFinding extends Finding {
  test: string;
  evidence: unknown;
  /** How many times later tests saw the same defect (not counted as findings of theirs). */
  repeats: number;
  /** The tests that saw it again (at most {@link MAX_LISTED}). */
  repeatedIn: string[];
}

/** A finding that kept tests from going on, and those tests. */
export interface BlockedEntry {
  check: string;
  severity: Finding['severity'];
  clause: string;
  message: string;
  /** The test that saw the finding. */
  test: string;
  /** How many tests it blocked. */
  count: number;
  /** The tests it blocked (skipped, naming it; at most {@link MAX_LISTED}). */
  tests: string[];
}

export interface Summary {
  tool: { name: string; version: string };
  target: { kind: string; baseUrl: string };
  verdict: 'pass' | 'fail';
  /**
   * `notChecked` (present when not 0): the tests that ran but could not observe part of what they judge
   * (they count as passed too). `known` (present when not 0): findings a baseline entry knows.
   * `folded` (present when not 0): findings that follow from a root among `findings` (one defect, one line).
   */
  counts: {
    tests: number;
    passed: number;
    failed: number;
    skipped: number;
    failures: number;
    warnings: number;
    notChecked?: number;
    known?: number;
    folded?: number;
  };
  /**
   * Root causes first: the findings that blocked most tests, failures before warnings, then in run
   * order. Every finding is here; one that follows from another (`followsFrom`) is counted in
   * `failures`/`warnings` as before and in `counts.folded`, and the reports show it under its root.
   */
  findings: SummaryFinding[];
  /** Findings a baseline entry knows (`--baseline`): reported with the entry's reason, they fail nothing. */
  known?: SummaryFinding[];
  /** What the run made of its baseline: expired entries (each fails the run), resolved ones. */
  baseline?: BaselineSummary;
  /**
   * What the run exercised (coverage.json has every item): the tallies by kind, and, with
   * `--require-coverage`, the kinds required and every item of them never covered (each fails the run);
   * `excluded`: the items never covered that the gate does not require (`coverage.exclude`, or another
   * documented success answered), each with why.
   */
  coverage?: { summary: Coverage['summary']; required?: string[]; uncovered?: UncoveredItem[]; excluded?: ExcludedItem[] };
  /** Present when failed tests were run again (`--confirm N`): how many tests, in how many runs. */
  confirmed?: { tests: number; runs: number; attempts: number };
  /** Per finding that blocked tests: which ones. */
  blocked: BlockedEntry[];
  /** Present when a time budget stopped the run before every test finished (the verdict is then fail). */
  incomplete?: { reason: string; tests: string[] };
  /** Present when checks were turned off (`checks.disable`): their ids. */
  checksDisabled?: string[];
  /**
   * Present when answers asked the client to wait (a 429 or 503 with Retry-After): how many, among the
   * exchanges the tests kept. Counted, not filed: only one the client stopped waiting on is judged.
   */
  rateLimited?: number;
  /** The seed of the run's random choices, to replay it (`--seed`); absent for merged shards of different seeds. */
  seed?: number;
  /** When the run started and ended (ISO 8601). */
  startedAt?: string;
  finishedAt?: string;
  /**
   * The tests that ran but could not observe part of what they judge, and what (`webhooks: …`): not
   * checked, never passed. Absent when every test saw all it judges.
   */
  notChecked?: { test: string; what: string[] }[];
  /** How the harness itself fared: see {@link HarnessSummary}. Absent when no test reported it. */
  harness?: HarnessSummary;
  /** How the connections to a URL target were made: CAs, TLS verification, client certificate, proxy. */
  connection?: ConnectionInfo;
  /** Every skipped test with its reason (a blocked test names the finding that blocked it). */
  skipped?: { test: string; reason: string }[];
  /** The run's labels (`--label key=value`): firmware, terminal, tester and the like; `{}` when none. */
  labels?: Record<string, string>;
  /** Present for a run of one shard (`--shard i/n`), or for shards merged by `merge-reports`. */
  shards?: ShardSummary[];
  /**
   * How long the service took (report/timing.ts): answer time per operation, convergence per final
   * status, webhook delay per event, terminal steps; each with n, p50Ms, p95Ms, maxMs and its samples.
   */
  timing?: TimingSummary;
}

/**
 * How the harness itself fared: a stalled worker's timing is suspect, so waits it stood still through
 * were measured again (`remeasured`), and what could not be (a POST's time-out) is `overloaded`,
 * never a finding about the service.
 */
export interface HarnessSummary {
  /** Terminals (workers) the run used. */
  terminals?: number;
  /** The longest event-loop delay of any worker, ms. */
  maxEventLoopDelayMs: number;
  /** CPU time of the workers (and of the main process, when the run adds it), seconds. */
  cpuSeconds: number;
  /** Waits measured again because the harness stood still through them. */
  remeasured: number;
  /** Whether something could not be judged because the harness stood still through it. */
  overloaded: boolean;
  /** What that was, by test. */
  overloadedTests?: { test: string; what: string[] }[];
}

/** The harness figures of a run's tests (per worker, the last CPU figure counts). */
export function harnessSummaryOf(tests: readonly TestRecord[]): HarnessSummary | undefined {
  const seen = tests.filter((t) => t.harness);
  if (seen.length === 0) return undefined;
  const cpu = new Map<number, number>();
  for (const t of seen) cpu.set(t.harness!.worker, Math.max(cpu.get(t.harness!.worker) ?? 0, t.harness!.cpuSeconds));
  const overloaded = seen.filter((t) => t.harness!.overloaded?.length).map((t) => ({ test: t.name, what: [...t.harness!.overloaded!] }));
  return {
    maxEventLoopDelayMs: Math.max(...seen.map((t) => t.harness!.maxEventLoopDelayMs)),
    cpuSeconds: Math.round([...cpu.values()].reduce((a, b) => a + b, 0) * 100) / 100,
    remeasured: seen.reduce((n, t) => n + (t.harness!.remeasured?.length ?? 0), 0),
    overloaded: overloaded.length > 0,
    ...(overloaded.length > 0 ? { overloadedTests: overloaded } : {}),
  };
}

/** One shard of a sharded run, as the summary lists it. */
export interface ShardSummary {
  index: number;
  count: number;
  seed: number;
  baseUrl: string;
  startedAt: string;
  finishedAt: string;
  tests: number;
}

/** Lists in the summary name at most this many tests. */
export const MAX_LISTED = 50;

const sameDefect = (a: { check: string; message: string; test: string }, b: { check: string; message: string; test: string }) =>
  a.check === b.check && a.test === b.test && normaliseMessage(a.message) === normaliseMessage(b.message);

function blockedEntries(tests: readonly TestRecord[]): BlockedEntry[] {
  const out: BlockedEntry[] = [];
  for (const t of tests) {
    const b = t.blockedBy;
    if (!b || t.state !== 'skipped') continue;
    const hit = out.find((e) => sameDefect(e, b));
    if (hit) {
      hit.count++;
      hit.tests.push(t.name);
    } else
      out.push({ check: b.check, severity: b.severity, clause: b.clause, message: b.message, test: b.test, count: 1, tests: [t.name] });
  }
  return out;
}

/**
 * How many of the kept exchanges are answers that asked the client to wait: the client marks them
 * `retryAfter` (client/request-options.ts RetryAfterMark; report reads records, never the client).
 */
function rateLimitedOf(tests: readonly TestRecord[]): number {
  const asked = (e: unknown) => typeof (e as { retryAfter?: unknown } | null)?.retryAfter === 'object';
  return tests.reduce((n, t) => n + t.exchanges.filter(asked).length, 0);
}

/**
 * One defect, one finding. Tests running at once (in two workers, or on two terminals of one) can each
 * see a defect before the run's ledger tells them of the other's sighting, and each files it as its
 * root: the later roots are counted as repeats of the first (in record order), and the tests they were
 * filed by are kept, so the tests they blocked count for it too.
 */
function mergeRacedRoots(all: readonly SummaryFinding[]): { findings: SummaryFinding[]; rootTests: Map<SummaryFinding, string[]> } {
  const first = new Map<string, SummaryFinding>();
  const findings: SummaryFinding[] = [];
  const rootTests = new Map<SummaryFinding, string[]>();
  for (const f of all) {
    const key = `${f.known ? 'known' : ''}\u0000${defectKey(f)}`;
    const root = first.get(key);
    if (!root || root.test === f.test) {
      if (!root) first.set(key, f);
      findings.push(f);
      rootTests.set(f, [f.test]);
      continue;
    }
    root.repeats += f.repeats + 1;
    root.repeatedIn = [...new Set([...root.repeatedIn, f.test, ...f.repeatedIn])].slice(0, MAX_LISTED);
    rootTests.get(root)!.push(f.test);
  }
  return { findings, rootTests };
}

/** Every finding of the run as the summary lists it, with how often each was seen again, races between workers' roots merged. */
function summaryFindingsOf(run: RunRecord): ReturnType<typeof mergeRacedRoots> {
  const raw = run.tests.flatMap((t) =>
    t.findings.map((f) => ({
      check: f.check,
      severity: f.severity,
      clause: f.clause,
      ...(f.quote?.length ? { quote: f.quote } : {}),
      message: f.message,
      test: f.test ?? t.name,
      evidence: f.evidence ?? null,
      ...(f.known ? { known: f.known } : {}),
      ...(f.confirmation ? { confirmation: f.confirmation } : {}),
      ...(f.followsFrom ? { followsFrom: f.followsFrom } : {}),
    })),
  );
  return mergeRacedRoots(
    raw.map((f) => {
      const seen = run.tests.flatMap((t) =>
        (t.repeats ?? [])
          .filter((r) => sameDefect({ check: r.check, message: r.message, test: r.of }, f))
          .map((r) => ({ test: t.name, count: r.count })),
      );
      return {
        ...f,
        repeats: seen.reduce((n, r) => n + r.count, 0),
        repeatedIn: [...new Set(seen.map((r) => r.test))].slice(0, MAX_LISTED),
      };
    }),
  );
}

/** Builds the summary. A failed test without a failure finding still fails the verdict. */
export function buildSummary(
  run: RunRecord,
  tool: Summary['tool'],
  target: Summary['target'],
  when?: { seed?: number; startedAt: string; finishedAt: string; labels?: Record<string, string>; baseline?: BaselineSummary },
): Summary {
  const blocked = blockedEntries(run.tests);
  const { findings: all, rootTests } = summaryFindingsOf(run);
  const findings = all.filter((f) => !f.known);
  const known = all.filter((f) => f.known);
  const blocks = (f: SummaryFinding) =>
    blocked.filter((b) => (rootTests.get(f) ?? [f.test]).some((test) => sameDefect(b, { ...f, test }))).reduce((n, b) => n + b.count, 0);
  const order = findings.map((f, i) => ({ f, i, blocks: blocks(f) }));
  // A verdict over the whole run (the service sends no webhook at all) is the root of the rest.
  const whole = new Set(run.tests.filter((t) => t.wholeRun).map((t) => t.name));
  order.sort(
    (a, b) =>
      Number(whole.has(b.f.test)) - Number(whole.has(a.f.test)) ||
      b.blocks - a.blocks ||
      Number(b.f.severity === 'failure') - Number(a.f.severity === 'failure') ||
      b.f.repeats - a.f.repeats ||
      a.i - b.i,
  );
  // Not finished by the run as a whole: its time budget ran out, or the operator stopped the session.
  const notFinished = run.tests.filter((t) => t.notFinished === 'run budget exceeded' || t.notFinished === 'stopped by the operator');
  const incompleteReason = [...new Set(notFinished.map((t) => t.notFinished!))].join(', ');
  const count = (s: string) => run.tests.filter((t) => t.state === s).length;
  const failures = findings.filter(countsAsFailure).length;
  const folded = foldedCount(findings);
  const expired = when?.baseline?.expired.length ?? 0;
  const failed = count('failed');
  const harness = harnessSummaryOf(run.tests);
  const notChecked = run.tests
    .filter((t) => t.state !== 'skipped' && t.notChecked?.length)
    .map((t) => ({ test: t.name, what: [...t.notChecked!] }));
  const rateLimited = rateLimitedOf(run.tests);
  const timing = timingSummaryOf(run.tests);
  return {
    tool,
    target,
    // A test the run's time (or the operator) stopped is not checked, never a failure: it is listed as
    // incomplete, and such a run is not certified, but only a finding fails it.
    verdict: failures > 0 || failed > 0 || run.unhandled.length > 0 || expired > 0 ? 'fail' : 'pass',
    counts: {
      tests: run.tests.length,
      passed: count('passed'),
      failed,
      skipped: count('skipped'),
      failures,
      warnings: findings.length - failures,
      ...(notChecked.length > 0 ? { notChecked: notChecked.length } : {}),
      ...(known.length > 0 ? { known: known.length } : {}),
      ...(folded > 0 ? { folded } : {}),
    },
    findings: order.map((o) => o.f),
    ...(known.length > 0 ? { known } : {}),
    ...(when?.baseline ? { baseline: when.baseline } : {}),
    blocked: blocked.map((b) => ({ ...b, tests: b.tests.slice(0, MAX_LISTED) })),
    ...(notFinished.length > 0 ? { incomplete: { reason: incompleteReason, tests: notFinished.map((t) => t.name) } } : {}),
    ...(notChecked.length > 0 ? { notChecked } : {}),
    ...(harness ? { harness } : {}),
    ...(rateLimited > 0 ? { rateLimited } : {}),
    ...(timing ? { timing } : {}),
    ...(when
      ? {
          ...(when.seed !== undefined ? { seed: when.seed } : {}),
          startedAt: when.startedAt,
          finishedAt: when.finishedAt,
          skipped: skippedOf(run.tests),
          labels: { ...(when.labels ?? {}) },
        }
      : {}),
  };
}

/** The skipped tests and why: their own reason, else the finding that blocked them, else vitest's skip. */
function skippedOf(tests: readonly TestRecord[]): { test: string; reason: string }[] {
  return tests
    .filter((t) => t.state === 'skipped')
    .map((t) => ({
      test: t.name,
      reason: t.skipReason ?? (t.blockedBy ? `blocked by [${t.blockedBy.check}] ${t.blockedBy.message}` : 'skipped (no reason recorded)'),
    }));
}

/** Exit code: 2 for a toolkit error, 1 for a failure of the service, 0 otherwise (warnings allowed). */
export function exitCodeFor(run: RunRecord, summary: Summary): 0 | 1 | 2 {
  if (run.unhandled.length > 0 || run.tests.some((t) => t.toolkitError)) return 2;
  if (summary.verdict === 'fail') return 1;
  // Not finished (the run's time budget, the operator) and no finding: no defect of the service, and
  // no pass either, or a deploy gate would go green on tests that never ran.
  return summary.incomplete ? 2 : 0;
}
