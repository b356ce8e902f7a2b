/**
 * The suites' one entry point: `scenario(name, info, fn)` declares a vitest test that runs with a
 * scope of the run's harness, attaches its findings to the test, fails it on a failure finding, and
 * skips it (with the reason) when a prerequisite is missing without any failure.
 * What it leaves in the test meta (redacted: findings, exchanges, webhook deliveries, parameters) is
 * what the reports show: the Allure reporter turns each exchange and delivery into a step with its
 * request, response and curl line, and the labels come from the capability and clause.
 */
import { inject, test } from 'vitest';
import {
  type Delivery,
  Harness,
  META_KEY,
  OPERATOR_META_KEY,
  type OperatorEntry,
  type Outcome,
  RUN_CONTEXT_KEY,
  type RunContext,
  ScenarioBlocked,
  type Scope,
  type TestMeta,
  type TerminalDriver,
  createTerminalDriver,
  countsAsFailure,
  isToolkitError,
  markKnown,
} from '../../src/index.ts';

let harness: Harness | undefined;
let driver: TerminalDriver | undefined;

/** Exchanges kept whole in a test's meta: the first and last ones, and every one with a finding. */
const KEEP_FIRST = 50;
const KEEP_LAST = 10;

function kept(scope: Scope): readonly unknown[] {
  const all = scope.exchanges;
  if (all.length <= KEEP_FIRST + KEEP_LAST) return all;
  const withFinding = new Set(scope.findings.map((f) => (f.evidence as { exchange?: { seq?: number } } | undefined)?.exchange?.seq));
  return all.filter((x, i) => i < KEEP_FIRST || i >= all.length - KEEP_LAST || withFinding.has(x.seq));
}

/** Webhook deliveries judged for each test, by test name, for the reports (a delivery is judged once). */
const deliveriesOf = new Map<string, unknown[]>();

/** What the reports keep of a delivery (the receiver's record without raw bytes; redacted later). */
function deliveryView(d: Delivery, pairing: string, receiverUrl: string): Record<string, unknown> {
  let url = d.path;
  try {
    url = new URL(d.path, receiverUrl).href;
  } catch { /* keep the path */ }
  return {
    seq: d.seq, receivedAt: d.receivedAtIso, method: d.method, url, path: d.path, headers: { ...d.headers },
    ...(d.body === undefined ? { rawBody: d.rawBody } : { body: d.body }),
    event: d.event, eventId: d.eventId, signature: d.signature, status: d.status, duplicate: d.duplicate, failedOnPurpose: d.failedOnPurpose, pairing,
  };
}

/**
 * The worker's harness: one per worker process (files run without isolation, so every file of the
 * worker shares it), on the worker's own terminal. Vitest numbers its workers from 1 (VITEST_POOL_ID).
 */
export function getHarness(): Harness {
  if (!harness) {
    const ctx = inject(RUN_CONTEXT_KEY as never) as RunContext;
    const count = Math.max(1, ctx.workers ?? 1);
    const index = (Math.max(1, Number(process.env.VITEST_POOL_ID ?? '1') || 1) - 1) % count;
    const h = new Harness(ctx, { index, count });
    // Every delivery is judged once, for the test then running: keep it with that test.
    h.events.on('delivery', (e) => {
      const list = deliveriesOf.get(e.test) ?? [];
      list.push(deliveryView(e.delivery, e.pairing, e.receiverUrl));
      deliveriesOf.set(e.test, list);
    });
    harness = h;
  }
  return harness;
}

function getDriver(): TerminalDriver {
  const h = getHarness();
  driver ??= createTerminalDriver({
    mode: h.ctx.terminal, profile: h.profile, maxAmount: h.ctx.maxAmount, sandbox: h.ctx.sandbox, interactive: h.ctx.interactive,
    baseUrl: h.ctx.baseUrl, steps: (h.ctx.manualPlan ?? []).map((s) => s.test),
  });
  return driver;
}

/** The operator asked to do the step again: the attempt is set aside and the scenario starts over. */
export class OperatorRedo extends Error {}

/** The operator stopped the session: this test and every later one are skipped; `--resume` goes on. */
export class OperatorAbort extends Error {}

/** Why tests are skipped once the operator stopped the session (set in this worker). */
let sessionStopped: string | undefined;

/** How often one test may be redone; one more redo skips it, so the session goes on. */
const MAX_REDOS = 5;

/** What a scenario body gets. */
export interface ScenarioContext {
  scope: Scope;
  harness: Harness;
  terminal: TerminalDriver;
  /** Records a parameter shown in the reports. */
  param(name: string, value: string | number): void;
  /** Skips the rest of the test with a reason (no finding). */
  skip(reason: string): never;
  /** Records what the operator was asked to do and did (manual mode), in the test's evidence. */
  operator(entry: Omit<OperatorEntry, 'attempt' | 'at'>): void;
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
}

class Skipped extends Error {}

/** Grace vitest gives a test beyond its own budget and clean-up: the scenario ends itself first. */
const VITEST_GRACE_MS = 15_000;

/** A scenario's time budget in manual mode. */
const MANUAL_BUDGET_MS = 30 * 60_000;

/** A scenario's time budget when it names none. */
const DEFAULT_BUDGET_MS = 120_000;

/**
 * The time budgets of a scenario under the run's settings. Its own budget always fits two full
 * waits for convergence (a wait that misses its deadline is then judged, never cut short by the
 * budget), and vitest's time-out adds the clean-up after it: a cancel and one more full wait, when
 * the test leaves a shared terminal busy. So a test is never dropped by vitest with its findings.
 */
export function budgetsOf(ctx: Pick<RunContext, 'deadlineMs' | 'timeoutMs'> & { terminal?: RunContext['terminal'] }, timeout?: number): { budgetMs: number; vitestMs: number } {
  // A person at the terminal takes the time they need (redos included): the wait has its own deadline.
  const budgetMs = Math.max(timeout ?? DEFAULT_BUDGET_MS, 2 * ctx.deadlineMs + 30_000, ctx.terminal === 'manual' ? MANUAL_BUDGET_MS : 0);
  return { budgetMs, vitestMs: budgetMs + ctx.deadlineMs + 2 * ctx.timeoutMs + VITEST_GRACE_MS };
}

/** Repeats of a test, folded by root and message. */
function repeatsOf(scope: Scope): NonNullable<TestMeta['repeats']> {
  const out = new Map<string, NonNullable<TestMeta['repeats']>[number]>();
  for (const r of scope.repeats) {
    const key = `${r.check}\u0000${r.root.test}\u0000${r.root.message}`;
    const hit = out.get(key);
    if (hit) hit.count++;
    else out.set(key, { check: r.check, severity: r.severity, clause: r.clause, message: r.root.message, of: r.root.test, count: 1 });
  }
  return [...out.values()];
}

/** Declares a conformance scenario. */
export function scenario(name: string, info: ScenarioInfo, fn: (t: ScenarioContext) => Promise<void>): void {
  const { budgetMs, vitestMs } = budgetsOf(inject(RUN_CONTEXT_KEY as never) as RunContext, info.timeout);
  // The operator steps ride in the test's meta, where the run reads them when it plans a session.
  test(name, { timeout: vitestMs, ...(info.operator ? { meta: { [OPERATOR_META_KEY]: info.operator } as never } : {}) }, async (ctx) => {
    const h = getHarness();
    const testName = `${info.capability} > ${name}`;
    const meta: TestMeta = { capability: info.capability, clause: info.clause, findings: [], parameters: { terminal: h.ctx.terminal } };
    (ctx.task.meta as Record<string, unknown>)[META_KEY] = meta;
    if (h.ctx.carried?.includes(testName)) {
      meta.carried = true;
      meta.skipReason = 'passed earlier in this session (carried over by --resume)';
      ctx.skip(meta.skipReason);
    }
    if (sessionStopped !== undefined) {
      meta.notFinished = 'stopped by the operator';
      meta.skipReason = sessionStopped;
      ctx.skip(meta.skipReason);
    }
    if (h.budgeted(1) === 0) {
      meta.notFinished = 'run budget exceeded';
      meta.skipReason = 'run budget exceeded: not started';
      ctx.skip(meta.skipReason);
    }
    let scope = h.begin(testName);
    let attempt = 1;
    let skipReason: string | undefined;
    let crash: unknown;
    // The scenario's own budget, cut to what is left of the run's: when it runs out the scope is
    // closed, so the body stops at its next call and nothing it still does reaches another test.
    const myBudget = h.budgeted(budgetMs);
    let timer: NodeJS.Timeout | undefined;
    const over = new Promise<'over'>((resolve) => (timer = setTimeout(() => resolve('over'), myBudget)));
    const context = (): ScenarioContext => ({
      scope,
      harness: h,
      terminal: getDriver(),
      param: (k, v) => (meta.parameters![k] = String(v)),
      skip: (reason) => {
        throw new Skipped(reason);
      },
      operator: (entry) => (meta.operator ??= []).push({ ...entry, attempt, at: new Date().toISOString() }),
    });
    // A redo sets the attempt aside (its findings are kept in the operator's record, not filed) and
    // starts the scenario over on a fresh scope.
    const attempts = async (): Promise<'done'> => {
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
          deliveriesOf.delete(scope.testName);
          scope = h.begin(testName);
          attempt++;
        }
      }
    };
    const body = attempts();
    body.catch(() => undefined);
    try {
      if ((await Promise.race([body, over])) === 'over') {
        meta.notFinished = myBudget < budgetMs ? 'run budget exceeded' : 'time budget exceeded';
        scope.close(meta.notFinished);
      }
    } catch (thrown) {
      // A request the service left unanswered outside a scope call (pairing by OTP) is a finding too.
      const e = isToolkitError(thrown) && !scope.closed ? scope.stoppedByService(thrown, 'a request of the test') : thrown;
      if (e instanceof Skipped) skipReason = e.message;
      else if (e instanceof OperatorAbort) {
        sessionStopped = 'the operator stopped the session before this test; run again with --resume to go on';
        meta.notFinished = 'stopped by the operator';
        skipReason = `the operator stopped the session here: ${e.message}`;
      }
      else if (e instanceof ScenarioBlocked) {
        if (e.blockedBy) meta.blockedBy = e.blockedBy;
        skipReason = scope.hasFailures() ? undefined : e.blockedBy ? `blocked by ${e.blockedBy.check} (seen in ${e.blockedBy.test}): ${e.blockedBy.message}` : `blocked: ${e.message}`;
      } else crash = e;
    } finally {
      clearTimeout(timer);
      const redact = (v: unknown) => h.redactor.redactValue(v);
      const keep = () => {
        const found = scope.findings.map((f) => redact(f) as typeof f);
        // A defect the baseline knows is reported as known: it fails nothing, and says why.
        meta.findings = h.ctx.baseline ? markKnown(found, h.ctx.baseline.entries, h.ctx.baseline.now) : found;
        const repeats = repeatsOf(scope);
        if (repeats.length > 0) meta.repeats = repeats.map((r) => redact(r) as typeof r);
        if (meta.blockedBy) meta.blockedBy = redact(meta.blockedBy) as typeof meta.blockedBy;
        meta.exchanges = kept(scope).map(redact);
        meta.exchangeCount = scope.exchanges.length;
        meta.deliveries = (deliveriesOf.get(scope.testName) ?? []).map(redact);
        if (scope.notChecked.size > 0) meta.notChecked = [...scope.notChecked].map((n) => h.redactor.redactText(n));
        if (scope.webhookFinals > 0) meta.webhookFinals = scope.webhookFinals;
        // What the test exercised (operations, statuses, enums, transitions, events, inputs): coverage.json.
        meta.coverage = scope.coverage();
        const load = h.load();
        meta.harness = {
          worker: Number(process.env.VITEST_POOL_ID ?? '1') || 1, maxEventLoopDelayMs: load.maxEventLoopDelayMs, cpuSeconds: load.cpuSeconds,
          ...(scope.remeasured.length > 0 ? { remeasured: [...scope.remeasured] } : {}),
          ...(scope.overloaded.length > 0 ? { overloaded: scope.overloaded.map((o) => h.redactor.redactText(o)) } : {}),
        };
      };
      // What the test saw is in its meta before the clean-up, and again, complete, after it.
      keep();
      await h.end(scope);
      keep();
      deliveriesOf.delete(scope.testName);
    }
    if (crash !== undefined) {
      if (isToolkitError(crash)) {
        meta.toolkitError = { code: crash.code, message: h.redactor.redactText(crash.message), hint: crash.hint };
        throw new Error(`${crash.code}: ${h.redactor.redactText(crash.message)}`);
      }
      meta.toolkitError = { code: 'PCC_INTERNAL', message: h.redactor.redactText(String((crash as Error)?.stack ?? crash)) };
      // vitest reports the error itself too (and the reports copy it): no secret in its text.
      if (crash instanceof Error) {
        crash.message = h.redactor.redactText(crash.message);
        if (crash.stack) crash.stack = h.redactor.redactText(crash.stack);
      }
      throw crash;
    }
    const failures = meta.findings.filter(countsAsFailure);
    if (failures.length > 0) {
      throw new Error(failures.map((f) => `[${f.check}] (${f.clause}) ${f.message}`).join('\n'));
    }
    if (meta.notFinished === 'run budget exceeded') {
      meta.skipReason = 'run budget exceeded: stopped before it finished';
      ctx.skip(meta.skipReason);
    }
    if (meta.notFinished === 'stopped by the operator') {
      meta.skipReason = skipReason ?? 'the operator stopped the session';
      ctx.skip(meta.skipReason);
    }
    if (meta.notFinished) throw new Error(`the scenario did not finish within its time budget of ${budgetMs / 1000} s`);
    if (skipReason !== undefined) {
      meta.skipReason = skipReason;
      ctx.skip(skipReason);
    }
  });
}
