/**
 * A vitest reporter that keeps, for every test, its state and the findings the suite attached to its
 * meta. It prints nothing; the summary and the other reports are built from what it keeps, and live
 * progress listens to its events.
 */
import { hostname } from 'node:os';
import type { Reporter, TestCase, TestModule } from 'vitest/node';
import { type Exchange, META_KEY, type TestMeta, countsAsFailure, durationText, paceText } from '../core/index.ts';
import type { RunRecord, TestRecord } from './records.ts';
import { scrubSecrets, scrubText } from './scrub.ts';

/** The events of a run, for live progress. Every hook is optional. */
export interface RunEvents {
  /** A suite file starts. */
  onSuiteStart?(e: { capability: string; file: string }): void;
  /** A test starts. */
  onTestStart?(e: { capability: string; name: string }): void;
  /** A test finished (passed, failed or skipped). */
  onTest?(t: TestRecord): void;
  /** A suite file finished, with its tests. */
  onSuiteEnd?(e: { capability: string; file: string; tests: TestRecord[] }): void;
}

/** The capability of a suite file: its folder under `suites/`. */
export function capabilityOfFile(file: string): string {
  return file.split('/suites/')[1]?.split('/')[0] ?? 'unknown';
}

/**
 * What the reports keep of a finished test case: the only place a record is made from vitest's test,
 * and one of the two places secrets are scrubbed (the report writer is the other).
 */
export function testRecordOf(tc: TestCase): TestRecord {
  const meta = (tc.meta() as Record<string, unknown>)[META_KEY] as TestMeta | undefined;
  const r = tc.result();
  const failedErrors = r.state === 'failed' ? (r.errors ?? []).map((e) => String(e.message ?? e)) : [];
  // A scenario vitest stopped at its time-out, with no failure found before: running out of time is
  // no finding, so the test stands on what it saw, the rest of it not checked.
  const timedOut = meta !== undefined ? vitestTimeOut(failedErrors, meta) : undefined;
  const state = timedOut !== undefined || r.state === 'passed' ? 'passed' : r.state === 'failed' ? 'failed' : 'skipped';
  const errors = timedOut !== undefined ? [] : failedErrors;
  const trace = r.state === 'failed' && timedOut === undefined ? r.errors?.[0]?.stack : undefined;
  const notChecked = [...(meta?.notChecked ?? []), ...(timedOut !== undefined ? [timedOut] : [])];
  const suitePath: string[] = [];
  for (let s = tc.parent; s.type === 'suite'; s = s.parent) suitePath.unshift(s.name);
  const diagnostic = tc.diagnostic();
  return scrubSecrets<TestRecord>({
    name: meta ? `${meta.capability} > ${tc.name}` : tc.fullName,
    capability: meta?.capability ?? capabilityOfFile(tc.module.moduleId),
    clause: meta?.clause ?? '',
    file: tc.module.moduleId,
    state,
    durationMs: diagnostic?.duration ?? 0,
    findings: meta?.findings ?? [],
    skipReason: meta?.skipReason ?? (r.state === 'skipped' ? r.note : undefined),
    ...(meta?.blockedBy ? { blockedBy: meta.blockedBy } : {}),
    ...(meta?.repeats ? { repeats: meta.repeats } : {}),
    ...(meta?.notFinished || timedOut !== undefined ? { notFinished: meta?.notFinished ?? 'time budget exceeded' } : {}),
    toolkitError: meta?.toolkitError ?? (state === 'failed' && !meta ? { code: 'PCC_INTERNAL', message: errors.join('\n') } : undefined),
    errors,
    ...(trace ? { trace } : {}),
    suitePath,
    host: hostname(),
    parameters: meta?.parameters ?? {},
    exchanges: meta?.exchanges ?? [],
    exchangeCount: meta?.exchangeCount ?? meta?.exchanges?.length ?? 0,
    deliveries: meta?.deliveries ?? [],
    ...(diagnostic?.startTime ? { startedAt: new Date(diagnostic.startTime).toISOString() } : {}),
    ...(meta?.operator ? { operator: meta.operator } : {}),
    ...(notChecked.length > 0 ? { notChecked } : {}),
    ...(meta?.webhookFinals ? { webhookFinals: meta.webhookFinals } : {}),
    ...(meta?.harness ? { harness: meta.harness } : {}),
    ...(meta?.coverage ? { coverage: meta.coverage } : {}),
    ...(meta?.timing ? { timing: meta.timing } : {}),
  });
}

/** vitest's message when a test outlives its time-out: `Test timed out in 195000ms.` */
const VITEST_TIMED_OUT = /^Test timed out in (\d+)ms/;

/**
 * When vitest failed a scenario only for outliving its time-out (no toolkit error, no failure
 * finding filed before it), what was not checked, with the service's pace on what it kept; else
 * undefined (the test failed for what it found, or for a fault of the toolkit).
 */
export function vitestTimeOut(errors: readonly string[], meta: TestMeta): string | undefined {
  const ms = errors.length > 0 && errors.every((e) => VITEST_TIMED_OUT.test(e)) ? Number(VITEST_TIMED_OUT.exec(errors[0]!)![1]) : undefined;
  if (ms === undefined || meta.toolkitError || meta.findings.some(countsAsFailure)) return undefined;
  const exchanges = (meta.exchanges ?? []).filter((x): x is Exchange => typeof (x as Exchange | undefined)?.durationMs === 'number');
  return `the rest of the test: vitest stopped it at its time-out of ${durationText(ms)} before it ended (the service's pace: ${paceText(exchanges)})`;
}

/**
 * The record a test stands for: a test a resumed session carried over (it passed earlier and was
 * skipped now) is its earlier record, marked with when that was; any other is its own.
 */
export function carriedOr(rec: TestRecord, carried: ReadonlyMap<string, TestRecord> | undefined, since: string): TestRecord {
  const earlier = rec.state === 'skipped' ? carried?.get(rec.name) : undefined;
  return earlier ? { ...earlier, carriedFrom: since, parameters: { ...earlier.parameters, 'carried over from': since } } : rec;
}

export class CollectorReporter implements Reporter {
  readonly tests: TestRecord[] = [];
  readonly unhandled: string[] = [];
  readonly suiteErrors: string[] = [];
  private readonly started = Date.now();
  private readonly events: RunEvents;

  /**
   * `events`: hooks for live progress; a function is taken as `onTest`. `carried`: the passed tests
   * of the session being resumed, by name, and when that session began.
   */
  constructor(
    events?: RunEvents | ((t: TestRecord) => void),
    private readonly carried?: { tests: ReadonlyMap<string, TestRecord>; since: string },
  ) {
    this.events = typeof events === 'function' ? { onTest: events } : (events ?? {});
  }

  onTestModuleStart(m: TestModule): void {
    this.events.onSuiteStart?.({ capability: capabilityOfFile(m.moduleId), file: m.moduleId });
  }

  onTestCaseReady(tc: TestCase): void {
    this.events.onTestStart?.({ capability: capabilityOfFile(tc.module.moduleId), name: tc.name });
  }

  onTestCaseResult(tc: TestCase): void {
    const rec = carriedOr(testRecordOf(tc), this.carried?.tests, this.carried?.since ?? '');
    this.tests.push(rec);
    this.events.onTest?.(rec);
  }

  onTestModuleEnd(m: TestModule): void {
    this.events.onSuiteEnd?.({
      capability: capabilityOfFile(m.moduleId),
      file: m.moduleId,
      tests: this.tests.filter((t) => t.file === m.moduleId),
    });
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<{ message?: string; stack?: string }>): void {
    for (const e of unhandledErrors) this.unhandled.push(String(e.stack ?? e.message ?? e));
    for (const m of modules) {
      const errs = m.errors();
      for (const e of errs) this.unhandled.push(`${m.moduleId}: ${String(e.message ?? e)}`);
      for (const s of m.children.allSuites())
        for (const e of s.errors()) this.suiteErrors.push(scrubText(`${m.moduleId} > ${s.fullName}: ${String(e.stack ?? e.message ?? e)}`));
    }
  }

  record(): RunRecord {
    return {
      tests: this.tests,
      unhandled: this.unhandled,
      ...(this.suiteErrors.length > 0 ? { suiteErrors: this.suiteErrors } : {}),
      startedAt: new Date(this.started).toISOString(),
      durationMs: Date.now() - this.started,
    };
  }
}
