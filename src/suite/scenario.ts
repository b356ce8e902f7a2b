/**
 * `scenario(name, info, fn)` declares a conformance test: it runs with a scope of the worker's
 * harness, attaches its findings to the test, fails it on a failure finding, and skips it (with the
 * reason) when a need it declares is not met or a prerequisite turns out missing without any failure.
 */
import {
  META_KEY,
  OPERATOR_META_KEY,
  type OperatorEntry,
  type TestMeta,
  countsAsFailure,
  durationText,
  isToolkitError,
  paceText,
  serviceMs,
} from '../core/index.ts';
import { type Harness, OutOfRunTime, ScenarioBlocked, type Scope } from '../runtime/index.ts';
import type { Outcome, TerminalDriver } from '../terminal/index.ts';
import { reportToAllure } from './allure-evidence.ts';
import { budgetsOf, scenarioDeadline } from './budgets.ts';
import { type SessionState, suiteTest } from './fixtures.ts';
import { type ScenarioNeeds, unmetNeed } from './needs.ts';
import { OperatorAbort, OperatorRedo } from './operator-signals.ts';
import { SCENARIO_META_KEY } from './scenario-declaration.ts';
import { recordEvidence } from './scenario-evidence.ts';
import { workerContext } from './worker-context.ts';

/** What a scenario body gets. */
export interface ScenarioContext {
  scope: Scope;
  harness: Harness;
  terminal: TerminalDriver;
  /** Records a parameter shown in the reports. */
  param(name: string, value: string | number): void;
  /** Skips the rest of the test with a reason (no finding): for what is found out while it runs. */
  skip(reason: string): never;
  /** Records what the operator was asked to do and did (manual mode), in the test's evidence. */
  operator(entry: Omit<OperatorEntry, 'attempt' | 'at'>): void;
  /**
   * How many ms are left of the scenario's budget as it stands now: its own, stretched by the time
   * the service took to answer its requests (at most to its ceiling), cut to the run's budget. A
   * scenario that repeats requests (a property's runs) stops starting new ones when this cannot hold
   * another at the measured pace.
   */
  timeLeft(): number;
  /** Whose budget {@link timeLeft} is now: the scenario's own, or the run's (--max-duration), whichever ends first. */
  budgetCut(): 'scenario' | 'run';
}

export interface ScenarioInfo {
  /** The capability (suite folder). */
  capability: string;
  /** The clause the scenario checks, e.g. `spec#authentication`. */
  clause: string;
  timeout?: number;
  /**
   * The steps a person does at the terminal in manual mode, in order (absent: none, or the scenario
   * skips itself in manual mode). The session's plan is made of these; a step a scenario takes
   * without declaring it still runs, numbered after the plan's, and the plan's estimate misses it.
   */
  operator?: Outcome[];
  /** What the scenario needs of the run; a run that lacks it skips the scenario with the need's reason. */
  needs?: ScenarioNeeds;
  /**
   * Runs alone, in a describe whose other tests run at once (one a lane): once every test declared
   * before it has ended, and the tests declared after it wait for it. @default false
   */
  sequential?: boolean;
}

class Skipped extends Error {}

/** How often one test may be redone; one more redo skips it, so the session goes on. */
const MAX_REDOS = 5;

/** Declares a conformance scenario. */
export function scenario(name: string, info: ScenarioInfo, fn: (t: ScenarioContext) => Promise<void>): void {
  const budgets = budgetsOf(workerContext().ctx, info.timeout);
  const { vitestMs } = budgets;
  // The declaration and the operator steps ride in the test's meta, where the engine reads them
  // without running anything (collect-tests.ts; the plan of a manual session).
  const meta = {
    [SCENARIO_META_KEY]: { capability: info.capability, clause: info.clause, ...(info.needs ? { needs: info.needs } : {}) },
    ...(info.operator ? { [OPERATOR_META_KEY]: info.operator } : {}),
  };
  // Not concurrent, or the describe's concurrency (sequence.concurrent) would win over `sequential`.
  const order = info.sequential ? { sequential: true, concurrent: false } : {};
  suiteTest(name, { timeout: vitestMs, meta, ...order }, async ({ suite, harness: h, terminal, scope: first, task, skip: skipTest }) => {
    const meta = task.meta[META_KEY] as TestMeta;
    let scope = first;
    const testName = scope.testName;
    let attempt = 1;
    let skipReason: string | undefined;
    let crash: unknown;
    // The scenario's own budget, stretched by the time the service took to answer its requests (at
    // most to the ceiling), cut to what is left of the run's: when it runs out the scope is closed,
    // so the body stops at its next call and nothing it still does reaches another test.
    const startedAt = Date.now();
    const cut = () => scenarioDeadline(startedAt, budgets, serviceMs(scope.exchanges), h.ctx.runDeadlineAt);
    const deadline = () => cut().at;
    const watch = watchDeadline(deadline);
    const context = (): ScenarioContext => ({
      scope,
      harness: h,
      terminal,
      param: (k, v) => (meta.parameters![k] = String(v)),
      skip: (reason) => {
        throw new Skipped(reason);
      },
      operator: (entry) => (meta.operator ??= []).push({ ...entry, attempt, at: new Date().toISOString() }),
      timeLeft: () => Math.max(0, deadline() - Date.now()),
      budgetCut: () => cut().by,
    });
    // A redo sets the attempt aside (its findings are kept in the operator's record, not filed) and
    // starts the scenario over on a fresh scope.
    const attempts = async (): Promise<'done'> => {
      // A need the run does not meet skips the test the way its body once did: on its scope.
      const unmet = unmetNeed(info.needs, h.ctx);
      if (unmet !== undefined) throw new Skipped(unmet);
      for (;;) {
        try {
          await fn(context());
          return 'done';
        } catch (e) {
          if (!(e instanceof OperatorRedo)) throw e;
          if (attempt > MAX_REDOS) throw new Skipped(`the operator redid this test ${MAX_REDOS} times; skipped so the session goes on`);
          const setAside = scope.findings.map((f) => h.redactor.redactText(`[${f.check}] ${f.message}`));
          const step = meta.operator?.at(-1);
          if (step && setAside.length > 0) step.setAside = setAside;
          await h.end(scope);
          suite.deliveries.delete(scope.testName);
          scope = h.begin(testName);
          attempt++;
        }
      }
    };
    const body = attempts();
    body.catch(() => undefined);
    try {
      if ((await Promise.race([body, watch.over])) === 'over') {
        meta.notFinished = cut().by === 'run' ? 'run budget exceeded' : 'time budget exceeded';
        // Running out of time is no finding: what the scenario did not get to is not checked, named
        // with the service's pace, never failed.
        if (meta.notFinished === 'time budget exceeded') scope.notChecked.add(timeBudgetText(Date.now() - startedAt, budgets, scope));
        scope.close(meta.notFinished);
      }
    } catch (thrown) {
      ({ skipReason, crash } = meaningOf(thrown, scope, meta, suite.session));
    } finally {
      watch.stop();
      // What the test saw is in its meta before the clean-up, and again, complete, after it.
      recordEvidence(meta, scope, h, suite.deliveries, suite.worker);
      await h.end(scope);
      recordEvidence(meta, scope, h, suite.deliveries, suite.worker);
      suite.deliveries.delete(scope.testName);
      // An integrator's allure-vitest gets the evidence too (a no-op without it); what its reporter
      // makes of it decides nothing about the test.
      await reportToAllure(meta).catch(() => undefined);
    }
    if (crash !== undefined) throw crashed(crash, meta, h);
    verdict(meta, skipReason, skipTest);
  });
}

/** A promise that resolves 'over' once `deadline()` (which may move later) has passed; `stop` clears its timer. */
function watchDeadline(deadline: () => number): { over: Promise<'over'>; stop(): void } {
  let timer: NodeJS.Timeout | undefined;
  const over = new Promise<'over'>((resolve) => {
    const arm = () => {
      const left = deadline() - Date.now();
      if (left <= 0) resolve('over');
      else timer = setTimeout(arm, Math.min(left, 2 ** 31 - 1));
    };
    arm();
  });
  return { over, stop: () => clearTimeout(timer) };
}

/**
 * What an error the scenario threw means for its test: a skip (with its reason), a stop (in
 * `meta.notFinished`), a block by a root cause, or a crash of the toolkit (`crash`).
 */
function meaningOf(thrown: unknown, scope: Scope, meta: TestMeta, session: SessionState): { skipReason?: string; crash?: unknown } {
  // A request the service left unanswered outside a scope call (pairing by OTP) is a finding too.
  const e = isToolkitError(thrown) && !scope.closed ? scope.stoppedByService(thrown, 'a request of the test') : thrown;
  if (e instanceof Skipped) return { skipReason: e.message };
  if (e instanceof OperatorAbort) {
    session.stopped = 'the operator stopped the session before this test; run again with --resume to go on';
    meta.notFinished = 'stopped by the operator';
    return { skipReason: `the operator stopped the session here: ${e.message}` };
  }
  if (e instanceof OutOfRunTime) {
    meta.notFinished = 'run budget exceeded';
    return {};
  }
  if (e instanceof ScenarioBlocked) {
    if (e.blockedBy) meta.blockedBy = e.blockedBy;
    const skipReason = scope.hasFailures()
      ? undefined
      : e.blockedBy
        ? `blocked by ${e.blockedBy.check} (seen in ${e.blockedBy.test}): ${e.blockedBy.message}`
        : `blocked: ${e.message}`;
    return { skipReason };
  }
  return { crash: e };
}

/** The error a crashed test throws, its text redacted; the crash is kept in `meta.toolkitError`. */
function crashed(crash: unknown, meta: TestMeta, h: Harness): unknown {
  if (isToolkitError(crash)) {
    meta.toolkitError = { code: crash.code, message: h.redactor.redactText(crash.message), hint: crash.hint };
    return new Error(`${crash.code}: ${h.redactor.redactText(crash.message)}`);
  }
  meta.toolkitError = { code: 'PCC_INTERNAL', message: h.redactor.redactText(String((crash as Error)?.stack ?? crash)) };
  // vitest reports the error itself too (and the reports copy it): no secret in its text.
  if (crash instanceof Error) {
    crash.message = h.redactor.redactText(crash.message);
    if (crash.stack) crash.stack = h.redactor.redactText(crash.stack);
  }
  return crash;
}

/**
 * The test's verdict once it ended: failed on a failure finding; skipped when the run's budget or the
 * operator stopped it, or with `skipReason`; else passed. 'time budget exceeded': the test passes on
 * what it saw, its unfinished part not checked.
 */
function verdict(meta: TestMeta, skipReason: string | undefined, skipTest: (reason: string) => void): void {
  const failures = meta.findings.filter(countsAsFailure);
  if (failures.length > 0) {
    throw new Error(failures.map((f) => `[${f.check}] (${f.clause}) ${f.message}`).join('\n'));
  }
  if (meta.notFinished === 'run budget exceeded') {
    meta.skipReason = 'run budget exceeded: stopped before it finished';
    skipTest(meta.skipReason);
  }
  if (meta.notFinished === 'stopped by the operator') {
    meta.skipReason = skipReason ?? 'the operator stopped the session';
    skipTest(meta.skipReason);
  }
  if (skipReason !== undefined) {
    meta.skipReason = skipReason;
    skipTest(skipReason);
  }
}

/** What a scenario stopped at its time budget did not check, and why: its budget and the service's pace. */
function timeBudgetText(elapsedMs: number, b: { budgetMs: number; ceilingMs: number }, scope: Scope): string {
  const service = serviceMs(scope.exchanges);
  return (
    `the rest of the scenario: stopped after ${durationText(elapsedMs)}, at its time budget (${durationText(b.budgetMs)} ` +
    `of its own plus the ${durationText(service)} the service took to answer its ${scope.exchanges.length} ` +
    `request${scope.exchanges.length === 1 ? '' : 's'}, at most ${durationText(b.ceilingMs)}); the ` +
    `service's pace: ${paceText(scope.exchanges)}`
  );
}
