/**
 * Two runs compared (see load.ts for how a run is read): tests whose outcome flipped, findings new,
 * gone and persisting (matched as a baseline entry matches them), shapes that appeared or disappeared,
 * and timings that changed both much and significantly. Pure: data in, data out.
 */
import { type Finding, entryMatches } from '../core/index.ts';
import {
  type SummaryFinding,
  TIMING_THRESHOLDS,
  type TimingChange,
  entryFor,
  paceRatio,
  scaledFigure,
  timingChange,
} from '../report/index.ts';
import { TIMING_SERIES, type TimingSeriesName } from '../core/index.ts';
import type { RunView } from './load.ts';
import { SHAPE_KINDS, type Shapes } from './shapes.ts';

/** A test's outcome as compare sees it: a passed test that could not observe part of what it judges is `not-checked`. */
export type Outcome = 'passed' | 'failed' | 'skipped' | 'not-checked';

/** A finding as the comparison names it. */
export interface FindingRef {
  check: string;
  severity: Finding['severity'];
  clause: string;
  message: string;
  test: string;
}

export interface Flip {
  test: string;
  /** `pass->fail`, `fail->pass`, `pass->not-checked`, `new`, `gone`, ... */
  change: string;
  from?: Outcome;
  to?: Outcome;
  /** The finding that explains it: the candidate's for a flip to worse, the base's for one to better. */
  finding?: FindingRef;
  /** Why a test was skipped or not checked, when no finding explains it. */
  why?: string;
}

export interface Comparison {
  base: RunSide;
  candidate: RunSide;
  /** Anything regressed: a flip to fail, a new finding, a timing regression (exit 1). */
  regressed: boolean;
  /** The shapes changed (exit 1 with `--fail-on changed`). */
  shapesChanged: boolean;
  tests: { flipped: Flip[]; same: number };
  findings: { new: FindingRef[]; gone: FindingRef[]; persisting: FindingRef[] };
  shapes: { appeared: Shapes; disappeared: Shapes };
  /**
   * `pace`: how much slower the candidate answered across the board (report/timing.ts paceRatio); the
   * base's samples are taken at that pace before anything is judged, and each change's `base` figures are so.
   */
  timing: {
    method: string;
    thresholds: typeof TIMING_THRESHOLDS;
    pace: number;
    regressions: TimingChange[];
    improvements: TimingChange[];
    /**
     * When a run was a manual session (`--terminal manual`): which, and the changes of the series that
     * wait for the person at the terminal ({@link OPERATOR_PACED}), shown but never a regression.
     */
    operatorPaced: {
      manual: ('base' | 'candidate')[];
      series: readonly TimingSeriesName[];
      changes: (TimingChange & { kind: 'slower' | 'quicker' })[];
    };
  };
}

/**
 * The series a manual session's operator paces: convergence, a webhook's arrival and the terminal's
 * steps wait for the person who presents the card, enters the PIN or pulls the card out, so against a
 * manual session they measure the person as much as the service. The answer times and the webhook's
 * delay behind polling are the service's own, and are judged as in any run.
 */
export const OPERATOR_PACED: readonly TimingSeriesName[] = ['convergence', 'webhookArrival', 'steps'];

export interface RunSide {
  dir: string;
  labels: Record<string, string>;
  verdict: string;
  startedAt?: string;
  seed?: number;
  tests: number;
}

const SHORT: Record<Outcome, string> = { passed: 'pass', failed: 'fail', skipped: 'skipped', 'not-checked': 'not-checked' };

function outcomeOf(t: RunView['tests'][number]): Outcome {
  if (t.state === 'passed' && (t.notChecked?.length ?? 0) > 0) return 'not-checked';
  return t.state;
}

const rank: Record<Outcome, number> = { passed: 0, 'not-checked': 1, skipped: 2, failed: 3 };

const refOf = (f: Pick<SummaryFinding, 'check' | 'severity' | 'clause' | 'message'> & { test?: string }, test = ''): FindingRef => ({
  check: f.check,
  severity: f.severity,
  clause: f.clause,
  message: f.message,
  test: f.test ?? test,
});

/** The finding that explains a test's outcome: its first failure, else its first finding, else what blocked it. */
function explain(t: RunView['tests'][number] | undefined): Pick<Flip, 'finding' | 'why'> {
  if (!t) return {};
  const own = t.findings.find((f) => f.severity === 'failure' && !f.known) ?? t.findings[0];
  if (own) return { finding: refOf(own, t.name) };
  if (t.blockedBy) return { finding: refOf(t.blockedBy, t.blockedBy.test) };
  const why = t.skipReason ?? t.notChecked?.[0];
  return why ? { why } : {};
}

function flipsOf(base: RunView, cand: RunView): { flipped: Flip[]; same: number } {
  const before = new Map(base.tests.map((t) => [t.name, t]));
  const after = new Map(cand.tests.map((t) => [t.name, t]));
  const flipped: Flip[] = [];
  let same = 0;
  for (const [name, t] of after) {
    const b = before.get(name);
    const to = outcomeOf(t);
    if (!b) {
      flipped.push({ test: name, change: 'new', to, ...(to === 'failed' ? explain(t) : {}) });
      continue;
    }
    const from = outcomeOf(b);
    if (from === to) {
      same++;
      continue;
    }
    flipped.push({ test: name, change: `${SHORT[from]}->${SHORT[to]}`, from, to, ...(rank[to] > rank[from] ? explain(t) : explain(b)) });
  }
  for (const [name, b] of before) if (!after.has(name)) flipped.push({ test: name, change: 'gone', from: outcomeOf(b) });
  return { flipped, same };
}

/** The findings of a run the comparison weighs: those a baseline does not know. */
const findingsOf = (v: RunView) => v.summary.findings.filter((f) => !f.known);

/**
 * Findings matched as a baseline entry matches them: the entry `baseline write` would make for a base
 * finding (check, operation, clause, message with ids and numbers left open) matches a candidate's.
 */
function findingsDiff(base: RunView, cand: RunView): Comparison['findings'] {
  const entries = findingsOf(base).map((f) => ({ f, e: entryFor(f, { reason: 'compare', expires: '9999-12-31' }) }));
  const matched = new Set<SummaryFinding>();
  const out: Comparison['findings'] = { new: [], gone: [], persisting: [] };
  for (const f of findingsOf(cand)) {
    const hit = entries.find(({ e }) => entryMatches(e, f));
    if (hit) {
      matched.add(hit.f);
      out.persisting.push(refOf(f));
    } else out.new.push(refOf(f));
  }
  for (const { f } of entries) if (!matched.has(f)) out.gone.push(refOf(f));
  return out;
}

function shapesDiff(a: Shapes, b: Shapes): Comparison['shapes'] {
  const minus = (x: readonly string[], y: readonly string[]) => {
    const ys = new Set(y);
    return x.filter((k) => !ys.has(k));
  };
  const appeared = {} as Shapes;
  const disappeared = {} as Shapes;
  for (const k of SHAPE_KINDS) {
    appeared[k] = minus(b[k], a[k]);
    disappeared[k] = minus(a[k], b[k]);
  }
  return { appeared, disappeared };
}

function timingDiff(base: RunView, cand: RunView): Pick<Comparison['timing'], 'regressions' | 'improvements' | 'pace' | 'operatorPaced'> {
  const manual = (
    [
      ['base', base],
      ['candidate', cand],
    ] as const
  )
    .filter(([, v]) => v.terminalMode === 'manual')
    .map(([w]) => w);
  const operatorPaced: Comparison['timing']['operatorPaced'] = { manual, series: manual.length > 0 ? OPERATOR_PACED : [], changes: [] };
  const out = { regressions: [] as TimingChange[], improvements: [] as TimingChange[], pace: 1, operatorPaced };
  const [a, b] = [base.summary.timing, cand.summary.timing];
  if (!a || !b) return out;
  const pace = paceRatio(a, b);
  out.pace = Number(pace.toFixed(2));
  for (const s of TIMING_SERIES) {
    for (const [key, fb] of Object.entries(b[s] ?? {})) {
      const fa = a[s]?.[key];
      if (!fa) continue;
      // The pace only excuses: a slower candidate is judged against the base at its pace, a quicker one
      // against the base as it was (and the other way round), so the pace never makes a change.
      const slower = timingChange(s, key, scaledFigure(fa, Math.max(1, pace)), fb);
      const quicker = timingChange(s, key, scaledFigure(fa, Math.min(1, pace)), fb);
      const paced = operatorPaced.series.includes(s);
      if (slower?.kind === 'regression') {
        if (paced) operatorPaced.changes.push({ ...slower.change, kind: 'slower' });
        else out.regressions.push(slower.change);
      } else if (quicker?.kind === 'improvement') {
        if (paced) operatorPaced.changes.push({ ...quicker.change, kind: 'quicker' });
        else out.improvements.push(quicker.change);
      }
    }
  }
  return out;
}

const sideOf = (v: RunView): RunSide => ({
  dir: v.dir,
  labels: { ...(v.summary.labels ?? {}) },
  verdict: v.summary.verdict,
  ...(v.summary.startedAt ? { startedAt: v.summary.startedAt } : {}),
  ...(v.summary.seed !== undefined ? { seed: v.summary.seed } : {}),
  tests: v.tests.length,
});

export const TIMING_METHOD =
  'Mann-Whitney U rank test on the recorded samples (two-sided, tie-corrected, normal approximation), p < 0.01, ' +
  'with a large effect (probability of superiority A >= 0.8), and a difference of at least 1.5x on p50 or p95 and at least 50 ms (p95: 100 ms), ' +
  "beyond the pace of the whole run (the median ratio of the operations' answer times)";

/** `base` against `cand`. */
export function compareRuns(base: RunView, cand: RunView): Comparison {
  const tests = flipsOf(base, cand);
  const findings = findingsDiff(base, cand);
  const shapes = shapesDiff(base.shapes, cand.shapes);
  const timing = { method: TIMING_METHOD, thresholds: TIMING_THRESHOLDS, ...timingDiff(base, cand) };
  const regressed = tests.flipped.some((f) => f.to === 'failed') || findings.new.length > 0 || timing.regressions.length > 0;
  const shapesChanged = SHAPE_KINDS.some((k) => shapes.appeared[k].length > 0 || shapes.disappeared[k].length > 0);
  return { base: sideOf(base), candidate: sideOf(cand), regressed, shapesChanged, tests, findings, shapes, timing };
}

/** The exit code of a comparison: 1 when anything regressed (or, with `failOn: 'changed'`, the shapes changed), else 0. */
export function compareExitCode(c: Comparison, failOn: 'regressed' | 'changed' = 'regressed'): 0 | 1 {
  return c.regressed || (failOn === 'changed' && c.shapesChanged) ? 1 : 0;
}
